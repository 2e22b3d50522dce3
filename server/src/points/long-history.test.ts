/**
 * A customer with a long points history (tens of thousands of small grants, as years of carts leave): spending
 * and transferring read the buckets in spending order, each index entry looked up once. Counting the loaded
 * buckets again for every index entry made a transfer of 5 points from 10,000 buckets take 8 s, holding the
 * write lock the realtime carts wait for; with this history it would not answer within the test's time.
 * The ledger is seeded through the store (HTTP would take minutes), the operations run over HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../store/env.js';
import { BOOTSTRAP_COMPANY } from '../tenancy/bootstrap.js';
import type { Tenant } from '../tenancy/types.js';
import { startServer, type TestServer } from '../testing/server.js';
import { recordPoints } from './ledger.js';
import { everyPage } from '../testing/pages.js';
import { balance, createCustomer, transactions, triggerCampaign } from './testing.js';

const SANDBOX: Tenant = { companyId: BOOTSTRAP_COMPANY, environment: 'sandbox' };
const GRANTS = 20_000;

describe('points of a customer with a long history', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
    for (const id of [1, 2, 3]) await createCustomer(server.client, id);
    const campaign = String(await triggerCampaign(server.client, 'visit', 1));
    await server.stop();
    const env = openStore(server.dataDir);
    try {
      const clock = { now: new Date(), timezone: 'UTC' };
      const created_at = clock.now.toISOString().slice(0, 19) + 'Z';
      await env.transact(() => {
        for (let i = 0; i < GRANTS; i++) {
          recordPoints(env, SANDBOX, clock, { type: 'trigger', customer_id: '1', created_at, grants: [{ campaign_id: campaign, campaign_name: 'visit 1', amount: 1 }] });
        }
      });
    } finally {
      await env.close();
    }
    await server.restart();
  }, 60_000);
  afterAll(() => server.dispose());

  it('spends and transfers from the first buckets in spending order, and every bucket when all are asked', { timeout: 10_000 }, async () => {
    const { client } = server;
    expect(await balance(client, 1)).toMatchObject({ score: GRANTS, score_available: GRANTS });

    const redeemed = await client.post('/points/redeem', { customer_id: 1, amount: 1_000, comments: 'basket' });
    expect(redeemed.status, redeemed.text).toBe(200);
    const moved = await client.post('/points/transfer', { score: 5, from_customer_id: 1, to_customer_id: 2 });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body).toEqual({ from_customer_id: 1, to_customer_id: 2, score: 5, comments: null, requested_scores: 5 });
    const left = GRANTS - 1_005;
    expect(await balance(client, 1)).toMatchObject({ score: left, score_available: left });
    expect(await balance(client, 2)).toMatchObject({ score: 5, score_available: 5 });

    // Asking more than it holds counts every bucket: the refusal names the whole figure, nothing moves.
    const refused = await client.post('/points/transfer', { score: GRANTS, from_customer_id: 1, to_customer_id: 3 });
    expect(refused.status).toBe(402);
    expect(refused.body).toEqual({ code: 'customer_not_enough_score', error: `score: ${GRANTS} points asked, ${left} transferable` });
    expect(await balance(client, 3)).toMatchObject({ score: 0 });
    const partial = await client.post('/points/transfer', { score: GRANTS, from_customer_id: 1, to_customer_id: 3, allow_partial: true });
    expect(partial.status, partial.text).toBe(200);
    expect(partial.body).toMatchObject({ score: left, requested_scores: GRANTS });
    expect(await balance(client, 1)).toMatchObject({ score: 0, score_available: 0 });
    expect(await balance(client, 3)).toMatchObject({ score: left, score_available: left });
    // Both sides recorded once: the ledger's newest transactions are the transfers (the filter reads at most
    // LIST_SCAN_LIMIT transactions it leaves out a page: followed to the last page, as a client does).
    expect((await everyPage(client, '/points/transactions', { customer_id: '1', origin_type: 'transfer' })).map((t) => t.amount)).toEqual([-5, -left]);
    expect((await transactions(client, 3)).map((t) => t.amount)).toEqual([left]);
  });
});
