import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { raiseReferral } from '../customers/referrals.js';
import { openStore } from '../store/env.js';
import { BOOTSTRAP_COMPANY } from '../tenancy/bootstrap.js';
import { startServer, type TestServer } from '../testing/server.js';
import { balance, createCustomer, transactions, triggerCampaign } from '../points/testing.js';

const json = { 'Content-Type': 'application/json' };

/** Waits (bounded) until the customer's score reaches `score`: the consumer runs in the background. */
async function scoreReaches(server: TestServer, customerId: number, score: number): Promise<number> {
  for (let i = 0; i < 100; i++) {
    const current = (await balance(server.client, customerId)).score;
    if (current >= score) return current;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return (await balance(server.client, customerId)).score;
}

describe('the refer_a_friend trigger raised by customer creation', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server.dispose();
  });

  it('rewards the inviting and the referred customer through refer_a_friend campaigns, exactly once', async () => {
    const role = (value: string) => ({ rule_conditions: { conditions: { and: [{ field: 'attributes.role', operator: 'eq', value }] } } });
    const referrer = await triggerCampaign(server.client, 'refer_a_friend', 100, role('referrer'));
    await triggerCampaign(server.client, 'refer_a_friend', 30, role('referred'));
    await createCustomer(server.client, 50);
    await createCustomer(server.client, 51, { referred_by: 50 });
    expect(await scoreReaches(server, 50, 100)).toBe(100);
    expect(await scoreReaches(server, 51, 30)).toBe(30);
    const [tx] = await transactions(server.client, 50);
    expect(tx).toMatchObject({ type: 'trigger', amount: 100, origin_info: { slug: 'refer_a_friend', role: 'referrer', referred_customer_id: 51 } });
    expect(tx.scores[0].loyalty_score_id).toBe(referrer);
    // After a restart the consumer runs again; a later referral is rewarded, the first one is not again.
    await server.restart();
    await createCustomer(server.client, 52, { referred_by: 50 });
    expect(await scoreReaches(server, 52, 30)).toBe(30);
    expect(await scoreReaches(server, 50, 200)).toBe(200);
    expect((await transactions(server.client, 50)).length).toBe(2);
    expect((await balance(server.client, 51)).score).toBe(30);
  });

  it('rewards a merged referrer through the customer it was merged into', async () => {
    await createCustomer(server.client, 60);
    await createCustomer(server.client, 61);
    expect((await server.client.post('/customers/transfer', { old_customer_id: 60, new_customer_id: 61 })).status).toBe(200);
    await createCustomer(server.client, 62, { referred_by: 60 });
    expect(await scoreReaches(server, 62, 30)).toBe(30);
    expect(await scoreReaches(server, 61, 100)).toBe(100);
    expect(await transactions(server.client, 60)).toEqual([]);
    const [tx] = await transactions(server.client, 61);
    expect(tx).toMatchObject({ origin_info: { role: 'referrer', referred_customer_id: 62 } });
  });

  it('refuses referred_by naming a deleted customer, as an unknown one, creating nothing', async () => {
    for (const [id, hard] of [[80, 'false'], [81, 'true']] as const) {
      await createCustomer(server.client, id);
      expect((await server.client.delete(`/customers/${id}`, { headers: json, query: { hard } })).status).toBe(200);
      const res = await server.client.post('/customers', { id: 89, name: 'N', registration_location_id: 1, referred_by: id });
      expect([res.status, res.body]).toEqual([400, { code: 'invalid_request', error: `referred_by: no customer ${id}` }]);
    }
    expect((await server.client.get('/customers/89', { query: { search_param: 'id' } })).status).toBe(404);
  });

  it('rewards nothing to a customer deleted before its referral was consumed; the other customer still earns', async () => {
    // Referrals whose customer was deleted between the create and the consumer's run, as the create leaves them:
    // 70 refers 71, then 70 is soft-deleted; 72 (hard-deleted) refers 73; 74 (soft-deleted) was referred by 75.
    for (const id of [70, 71, 72, 73, 74, 75]) await createCustomer(server.client, id);
    for (const [id, hard] of [[70, 'false'], [72, 'true'], [74, 'false']] as const) {
      expect((await server.client.delete(`/customers/${id}`, { headers: json, query: { hard } })).status).toBe(200);
    }
    await server.stop();
    const env = openStore(server.dataDir);
    try {
      const tenant = { companyId: BOOTSTRAP_COMPANY, environment: 'sandbox' as const };
      await env.transact(() => {
        for (const [referred, referrer] of [['71', '70'], ['73', '72'], ['74', '75']]) raiseReferral(env, tenant, referred, referrer, new Date().toISOString());
      });
    } finally {
      await env.close();
    }
    await server.restart();
    expect(await scoreReaches(server, 71, 30)).toBe(30);
    expect(await scoreReaches(server, 73, 30)).toBe(30);
    expect(await scoreReaches(server, 75, 100)).toBe(100);
    // The soft-deleted customers' emptied accounts got nothing; the hard-deleted id, taken again, neither.
    for (const id of [70, 74]) {
      const exported = (await server.client.get(`/customers/${id}/export`, { query: { search_param: 'id' } })).body;
      expect([exported.points.score, exported.points_transactions.data]).toEqual([0, []]);
    }
    await createCustomer(server.client, 72);
    expect((await balance(server.client, 72)).score).toBe(0);
  });
});

describe('a referral whose customer was hard-deleted and its id taken by a new customer', () => {
  let server: TestServer;
  beforeAll(async () => {
    // No consumer until the restart below: the delete and the new customer come first, deterministically.
    server = await startServer({ env: { REFERRAL_POLL_INTERVAL_MS: '0' } });
  });
  afterAll(async () => {
    await server.dispose();
  });

  it('rewards only the customers the referral named, not the new holder of a deleted one\'s id', async () => {
    const role = (value: string) => ({ rule_conditions: { conditions: { and: [{ field: 'attributes.role', operator: 'eq', value }] } } });
    await triggerCampaign(server.client, 'refer_a_friend', 100, role('referrer'));
    await triggerCampaign(server.client, 'refer_a_friend', 30, role('referred'));
    // 90 refers 91 and 92 refers 93; then 90 and 93 are hard-deleted and new customers take their ids.
    for (const id of [90, 92]) await createCustomer(server.client, id);
    await createCustomer(server.client, 91, { referred_by: 90 });
    await createCustomer(server.client, 93, { referred_by: 92 });
    for (const id of [90, 93]) {
      const res = await server.client.delete(`/customers/${id}`, { headers: json, query: { hard: 'true' } });
      expect([res.status, res.body.deleted]).toEqual([200, 'hard']);
      await createCustomer(server.client, id);
    }
    await server.restart({ REFERRAL_POLL_INTERVAL_MS: '50' });
    expect(await scoreReaches(server, 91, 30)).toBe(30);
    expect(await scoreReaches(server, 92, 100)).toBe(100);
    // Both referrals are consumed by now (each commits its rewards and its removal together).
    for (const id of [90, 93]) expect(await transactions(server.client, id)).toEqual([]);
    const [tx] = await transactions(server.client, 91);
    expect(tx).toMatchObject({ origin_info: { role: 'referred', referrer_customer_id: 90 } });
  });
});
