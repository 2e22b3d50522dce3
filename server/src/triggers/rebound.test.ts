/**
 * POST /trigger's loyalty_rule_id checked again inside the transaction: a campaign rebound to another trigger
 * between the request's evaluation and its transaction is refused as it is then, with nothing written. Points
 * campaigns have no delete (neither API nor CLI), so rebinding (PATCH rule_params.when) is how the campaign a
 * request names stops being one it may run; custom events name no campaign, so they have no such refusal.
 *
 * Over HTTP the window is a few microseconds. Here the store is written over HTTP, the server stopped, and the
 * trigger route run in the test process on the same store (as campaigns/testing.ts rewrites stored records),
 * with a StoreEnv whose transact first commits the rebind, as a PATCH would, and then runs the request's work:
 * the evaluation has seen the campaign bound, the transaction sees it rebound. No hook in the server. The server
 * is then started again and every count read over HTTP.
 */
import { TallyError } from '@tally/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LmdbCampaignStore } from '../campaigns/store.js';
import { readConfig } from '../config.js';
import { DuplicateSuppressor } from '../http/duplicates.js';
import type { TallyRequest } from '../http/types.js';
import { createLogger } from '../log.js';
import { balance, createCustomer, grant, transactions, triggerCampaign } from '../points/testing.js';
import { openStore, type StoreEnv } from '../store/env.js';
import { BOOTSTRAP_COMPANY } from '../tenancy/bootstrap.js';
import { LmdbTenancyStore } from '../tenancy/store.js';
import type { Tenant } from '../tenancy/types.js';
import { startServer, TEST_KEY, type TestServer } from '../testing/server.js';
import { triggerRoutes } from './routes.js';

const tenant: Tenant = { companyId: BOOTSTRAP_COMPANY, environment: 'sandbox' };

describe('POST /trigger: the campaign named by loyalty_rule_id rebound between evaluation and transaction', () => {
  let server: TestServer;
  let campaign: number;

  beforeAll(async () => {
    server = await startServer();
    for (const id of [1, 2]) await createCustomer(server.client, id);
    // Counters of every kind a grant moves: a once limit and a budget.
    campaign = await triggerCampaign(server.client, 'visit', 10, { once: 'always', once_limit: 1, budget_value: 100, budget_period: 'always' });
    // The control: the same request for another customer grants (and creates the Company's draw secret, whose transaction would come first).
    expect((await grant(server.client, 'visit', 2, campaign)).score).toBe(10);
  });
  afterAll(async () => {
    await server.dispose();
  });

  /** Runs POST /trigger in this process on the stopped server's store; `beforeWork` commits first, in its own transaction, each time the route opens one. */
  async function triggerWithin(body: Record<string, unknown>, beforeWork: (env: StoreEnv) => Promise<void>): Promise<{ result: unknown; transactions: number }> {
    await server.stop();
    const env = openStore(server.dataDir);
    let opened = 0;
    const gated: StoreEnv = {
      ...env,
      async transact(work) {
        opened++;
        await beforeWork(env);
        return env.transact(work);
      },
    };
    const tenancy = new LmdbTenancyStore(env);
    const ctx = { config: readConfig({ DATA_DIR: server.dataDir }), env: gated, tenancy, log: createLogger('silent'), duplicates: new DuplicateSuppressor() };
    const rawBody = JSON.stringify(body);
    const req: TallyRequest = {
      operation: 'triggers.trigger', method: 'POST', path: '/trigger', params: {}, query: new URLSearchParams(), body, rawBody, header: () => undefined,
      tenant, settings: tenancy.getSettings(tenant), apiKey: tenancy.getApiKey(TEST_KEY)!, language: undefined, now: new Date(), audit: undefined,
    };
    try {
      const result = await Promise.resolve(triggerRoutes(ctx)['triggers.trigger']!(req)).catch((error: unknown) => error);
      return { result, transactions: opened };
    } finally {
      await env.close();
      await server.restart();
    }
  }

  it('answers 400 invalid_request naming loyalty_rule_id, and writes no points, transaction nor counter', async () => {
    const rebind = async (env: StoreEnv) => {
      const campaigns = new LmdbCampaignStore(env);
      const stored = campaigns.get(tenant, String(campaign))!;
      await env.transact(() => campaigns.putInTransaction(tenant, { ...stored, rule_params: { ...stored.rule_params, when: 'checkin' } }, stored));
    };
    const { result, transactions: opened } = await triggerWithin({ trigger: 'visit', customer_id: 1, loyalty_rule_id: campaign }, rebind);
    // One transaction opened: the evaluation before it found the campaign bound to `visit`.
    expect(opened).toBe(1);
    expect(result).toBeInstanceOf(TallyError);
    expect(result).toMatchObject({ status: 400, code: 'invalid_request', message: `loyalty_rule_id: campaign ${campaign} is not bound to trigger visit` });

    // Over HTTP, on the store as the refusal left it.
    const read = await server.client.get(`/points/${campaign}`);
    expect(read.body).toMatchObject({ when: 'checkin', budget_spent: 0.1 });
    expect(await balance(server.client, 1)).toMatchObject({ score: 0, score_available: 0 });
    expect(await transactions(server.client, 1)).toEqual([]);
    // The once limit was not taken: the campaign's first grant to customer 1, now by its new trigger.
    expect((await grant(server.client, 'checkin', 1, campaign)).score).toBe(10);
    expect((await server.client.get(`/points/${campaign}`)).body.budget_spent).toBe(0.2);
  });
});
