import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cartBody } from '../testing/carts.js';
import { startServer, type TestServer } from '../testing/server.js';
import { balance, createCustomer, grant, transactions, triggerCampaign, utcDate } from './testing.js';

describe('customer merge moves the points ledger and custom events', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
    for (const id of [40, 41, 42, 43, 44, 45, 46, 47]) await createCustomer(server.client, id, { code: `M${id}` });
  });
  afterAll(async () => {
    await server.dispose();
  });

  it('gives the old customer\'s transactions and dated points to the new customer', async () => {
    const soon = await triggerCampaign(server.client, 'merge-soon', 40, { expiration_period_type: 'fixed', expiration_date: utcDate(15) });
    const plain = await triggerCampaign(server.client, 'merge-plain', 25);
    await grant(server.client, 'merge-soon', 40, soon);
    await grant(server.client, 'merge-plain', 41, plain);
    await server.client.post('/custom_event_definitions', { slug: 'visit', schema: { type: 'object' } });
    await server.client.post('/custom_events', { id: 'visit-40', customer_id: 40, slug: 'visit', data: {} });
    const merged = await server.client.post('/customers/transfer', { old_customer_id: 40, new_customer_id: 41 });
    expect(merged.status, merged.text).toBe(200);
    expect(await balance(server.client, 41)).toMatchObject({ score: 65, score_available: 65 });
    expect(await balance(server.client, 40)).toMatchObject({ score: 0 });
    const moved = await transactions(server.client, 41);
    expect(moved.map((t) => t.amount).sort()).toEqual([25, 40]);
    expect(moved.every((t) => (t as unknown as { customer_id: number }).customer_id === 41)).toBe(true);
    expect(await transactions(server.client, 40)).toEqual([]);
    // A merged customer holds no points of its own: points movements naming it are refused and write nothing.
    const refused = [
      await server.client.post('/trigger', { trigger: 'merge-plain', customer_id: 40, loyalty_rule_id: plain }),
      await server.client.post('/custom_events', { customer_id: 40, slug: 'visit', data: { after: 'merge' } }),
      await server.client.post('/points/redeem', { customer_code: 'M40', amount: 5, comments: 'after merge' }),
    ];
    for (const res of refused) expect([res.status, res.body.code], res.text).toEqual([402, 'customer_inactive']);
    expect(await transactions(server.client, 40)).toEqual([]);
    expect(await balance(server.client, 40)).toMatchObject({ score: 0 });
    expect((await server.client.get('/custom_events', { query: { customer_id: '40' } })).body.data).toEqual([]);
    // The moved points keep their expiry and are spent first.
    expect((await server.client.get('/customers/41/points_expiring')).body.data).toEqual([expect.objectContaining({ score_available: 40 })]);
    await server.client.post('/points/redeem', { customer_id: 41, amount: 10, comments: 'after merge' });
    const [spend] = await transactions(server.client, 41, { origin_type: 'subtract' });
    expect(spend.scores[0]).toMatchObject({ loyalty_score_id: soon, score: -10 });
    // associate_id: what the merge moved from customer 40, and the points 40's id now leads to.
    const fromAssociate = await server.client.get('/points/transactions', { query: { associate_id: '40' } });
    expect(fromAssociate.body.data.map((t: { amount: number; associate_id: number; customer_id: number }) => [t.amount, t.associate_id, t.customer_id])).toEqual([[40, 40, 41]]);
    const viaAssociate = await server.client.get('/customers/40/points_expiring', { query: { search_param: 'associate_id' } });
    expect(viaAssociate.body.data).toEqual([expect.objectContaining({ score_available: 30 })]);
    const events = await server.client.get('/custom_events', { query: { customer_id: '41' } });
    expect(events.body.data.map((e: { id: string; customer_code: string }) => [e.id, e.customer_code])).toEqual([['visit-40', 'M41']]);
  });

  it('refuses a merged customer named by customer_code naming customer_code', async () => {
    const cart = await server.client.post('/carts/realtime', cartBody(10, { id: 946 }));
    expect(cart.status, cart.text).toBe(200);
    // The merged customer's own cart: the merge made it the receiver's, so it was refused as another customer's cart.
    const own = await server.client.post('/carts/realtime', cartBody(10, { id: 948, customer_id: 46 }));
    expect(own.status, own.text).toBe(200);
    expect((await server.client.post('/customers/transfer', { old_customer_id: 46, new_customer_id: 47 })).status).toBe(200);
    const refused = {
      '/points/redeem': { customer_code: 'M46', amount: 1, comments: 'merged' },
      '/points/redeem_cart': { customer_code: 'M46', activity_id: 946, amount: 1 },
      '/scores/activity_redeem': { customer_code: 'M46', activity_id: 948, amount: 1 },
      '/custom_events': { customer_code: 'M46', slug: 'visit', data: {} },
      '/discounts/redeem': { customer_code: 'M46', static_code: 'NONE', cart_id: 946, discount: 100 },
      '/challenges/1/enroll': { customer_code: 'M46' },
    };
    for (const [path, body] of Object.entries(refused)) {
      const res = await server.client.post(path, body);
      expect.soft([res.status, res.body], path).toEqual([402, { error: 'customer_code: customer 46 is merged', code: 'customer_inactive' }]);
    }
    // The cart of another customer is refused naming the field sent too.
    const theirs = await server.client.post('/carts/realtime', cartBody(10, { id: 947, customer_id: 47 }));
    expect(theirs.status, theirs.text).toBe(200);
    const other = await server.client.post('/points/redeem_cart', { customer_code: 'M45', activity_id: 947, amount: 1 });
    expect([other.status, other.body.error]).toEqual([400, 'customer_code: cart 947 belongs to another customer']);
  });

  it('an unmerge gives the moved transactions and their points back', async () => {
    const before41 = await balance(server.client, 41);
    const res = await server.client.post('/customers/40/unmerge', {}, { query: { with_activites: 'false' }, headers: { 'Content-Type': 'application/json' } });
    expect(res.status, res.text).toBe(200);
    // 40's 40 points came back with 10 of them spent meanwhile by 41: 30 left.
    expect(await balance(server.client, 40)).toMatchObject({ score: 30, score_available: 30 });
    expect((await balance(server.client, 41)).score).toBe(before41.score - 30);
    // 41 spent 10 of them while merged: a transfer on each side records it, so each ledger still adds up.
    expect((await transactions(server.client, 40)).map((t) => [t.type, t.amount])).toEqual([['trigger', 40], ['transfer', -10]]);
    for (const id of [40, 41]) {
      const txs = await transactions(server.client, id);
      expect((await balance(server.client, id)).score).toBe(txs.reduce((sum, t) => sum + t.amount + t.pending_amount, 0));
    }
  });

  it('associate_id answers for the end of a chain of merges (43 into 44, then 44 into 45)', async () => {
    const chain = await triggerCampaign(server.client, 'merge-chain', 7, { expiration_period_type: 'fixed', expiration_date: utcDate(20) });
    for (const id of [43, 44, 45]) await grant(server.client, 'merge-chain', id, chain);
    for (const [from, to] of [[43, 44], [44, 45]]) expect((await server.client.post('/customers/transfer', { old_customer_id: from, new_customer_id: to })).status).toBe(200);
    const viaAssociate = await server.client.get('/customers/43/points_expiring', { query: { search_param: 'associate_id' } });
    expect(viaAssociate.body.data).toEqual([expect.objectContaining({ score_available: 21 })]);
    const fromAssociate = await server.client.get('/points/transactions', { query: { associate_id: '43' } });
    expect(fromAssociate.body.data.map((t: { amount: number; associate_id: number; customer_id: number }) => [t.amount, t.associate_id, t.customer_id])).toEqual([[7, 43, 45]]);
  });

  it('points that expired before the merge expire on the old customer\'s ledger, and an unmerge gives their expiration back', async () => {
    for (const id of [48, 49]) await createCustomer(server.client, id);
    // A back-dated cart's points whose available_to has passed, not yet recorded as expired (settled lazily).
    expect((await server.client.post('/points', {
      rule_params: {
        name: 'Thirty days', rule_effects: [{ type: 'ratio', value: 1, distribution: 'total' }],
        expiration_period_type: 'relative', availability_duration: 30, availability_duration_unit: 'days',
      },
    })).status).toBe(200);
    const old = await server.client.post('/carts/realtime', cartBody(70, { id: 4801, customer_id: 48, creation_date: `${utcDate(-60)}T10:00:00Z` }));
    expect(old.body.score).toBe(70);
    expect((await server.client.post('/customers/transfer', { old_customer_id: 48, new_customer_id: 47 })).status).toBe(200);
    // 49 never held them: the expiration is 48's (moved with its ledger, naming it as associate), not 47's own.
    const moved = await server.client.get('/points/transactions', { query: { associate_id: '48', per_page: '100' } });
    expect(moved.body.data.map((t: { type: string; amount: number }) => [t.type, t.amount])).toEqual([['activity', 70], ['expiration', -70]]);
    const res = await server.client.post('/customers/48/unmerge', {}, { query: { with_activites: 'true' }, headers: { 'Content-Type': 'application/json' } });
    expect(res.status, res.text).toBe(200);
    expect((await transactions(server.client, 48)).map((t) => [t.type, t.amount])).toEqual([['activity', 70], ['expiration', -70]]);
    expect(await transactions(server.client, 49)).toEqual([]);
  });

  it('keeps a customer with points transactions from a hard delete', async () => {
    const campaign = await triggerCampaign(server.client, 'keep', 5);
    await grant(server.client, 'keep', 42, campaign);
    const res = await server.client.request('DELETE', '/customers/42', { query: { hard: 'true' }, headers: { 'Content-Type': 'application/json' } });
    expect(res.status, res.text).toBe(200);
    // Soft-deleted: the customer is gone from reads, its points transactions stay.
    expect((await server.client.get('/customers/42', { query: { search_param: 'id' } })).status).toBe(404);
    const all = await server.client.get('/points/transactions', { query: { per_page: '100' } });
    expect(all.body.data.filter((t: { customer_id: number }) => t.customer_id === 42)).toHaveLength(1);
  });
});
