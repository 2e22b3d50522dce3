import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer } from '../points/testing.js';
import { createReward, customersWithPoints, LOCATION, redeem } from '../rewards/testing.js';
import { realtimeCart } from '../testing/carts.js';
import { runCli } from '../testing/cli.js';
import { startServer, type TestServer } from '../testing/server.js';

describe('GET /customers/{value}/export', () => {
  let server: TestServer;
  const exportOf = (value: string, searchParam = 'id') => server.client.get(`/customers/${value}/export`, { query: { search_param: searchParam } });
  const read = async (path: string, query: Record<string, string> = {}) => {
    // GET /customers/{id}/associates requires the JSON Content-Type; the other reads accept it.
    const res = await server.client.get(path, { query, headers: { 'Content-Type': 'application/json' } });
    expect(res.status, res.text).toBe(200);
    return res.body;
  };
  const withoutTime = ({ exported_at: _, ...rest }: Record<string, unknown>) => rest;

  beforeAll(async () => {
    server = await startServer();
    const c = server.client;
    expect((await c.post('/locations', LOCATION)).status).toBe(200);
    await customersWithPoints(c, [700], 500, { code: 'X700' });
    await createCustomer(c, 701);
    await realtimeCart(c, 700, 40, { id: 9001 });
    const campaign = await c.post('/discounts', {
      rule_params: { name: 'Gift', select_customers: 'targeted', rule_effects: [{ type: 'direct_value', value: 5, distribution: 'total' }] },
      coupon_params: { name: 'Gift', static_code: 'GIFT' },
    });
    expect((await c.post('/discounts/trigger', { customer_id: 700, loyalty_rule_id: campaign.body.id, external_voucher_code: 'EXPORT-1' })).status).toBe(200);
    const spent = await c.post('/discounts/redeem', { voucher_code: 'EXPORT-1', customer_id: 700, cart_id: 9001, discount: 250 });
    expect(spent.status, spent.text).toBe(200);
    expect((await redeem(c, await createReward(c, { points: 100 }), 700)).status).toBe(200);
    expect((await c.post('/associations', { customer_id: 700, associate_customer_id: 701, relationship_type: 'family' })).status).toBe(200);
    await c.post('/custom_event_definitions', { slug: 'review', name: 'Review', schema: { type: 'object', properties: { stars: { type: 'integer' } } } });
    expect((await c.post('/custom_events', { customer_id: 700, slug: 'review', data: { stars: 5 } })).status).toBe(200);
    expect((await c.patch('/customers/700', { surname_1: 'Ruiz' }, { query: { search_param: 'id' } })).status).toBe(200);
  });
  afterAll(() => server.dispose());

  it('holds the customer and each of its records as its own read answers it', async () => {
    const res = await exportOf('700');
    expect(res.status, res.text).toBe(200);
    const exported = res.body;
    expect(exported.exported_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    expect(exported.customer).toEqual(await read('/customers/700', { search_param: 'id' }));
    expect(exported.customer.surname_1).toBe('Ruiz');
    const mine = { customer_id: '700', per_page: '100' };
    expect(exported.carts).toEqual(await read('/carts', mine));
    expect(exported.carts.data.map((cart: { id: number }) => cart.id)).toEqual([9001]);
    expect(exported.points).toEqual(await read('/customers/700/points'));
    expect(exported.points_transactions).toEqual(await read('/points/transactions', mine));
    expect(exported.points_transactions.data.length).toBeGreaterThan(1);
    expect(exported.vouchers).toEqual(await read('/vouchers', mine));
    expect(exported.vouchers.data.map((voucher: { code: string }) => voucher.code)).toEqual(['EXPORT-1']);
    expect(exported.discount_transactions).toEqual(await read('/discounts/transactions', mine));
    expect(exported.discount_transactions.data).toHaveLength(1);
    expect(exported.reward_redemptions).toEqual(await read('/rewards/transactions', mine));
    expect(exported.reward_redemptions.data).toHaveLength(1);
    expect(exported.associations).toEqual((await read('/customers/700/associates')).list);
    expect(exported.associations).toHaveLength(1);
    expect(exported.custom_events).toEqual(await read('/custom_events', mine));
    expect(exported.custom_events.data).toHaveLength(1);
    expect(exported.tiers).toEqual((await read('/customers/700/tiers')).data);
    // The changes made to the customer through the API (create, update) and no other's: the whole log filtered by hand.
    expect(exported.audit_log).toEqual(await read('/audit_log', { target: 'customer:700', per_page: '100' }));
    const log = (await read('/audit_log', { per_page: '100' })).data as { target: string | null }[];
    expect(log.some((entry) => entry.target !== 'customer:700')).toBe(true);
    expect(exported.audit_log.data).toEqual(log.filter((entry) => entry.target === 'customer:700'));
    expect(exported.audit_log.data.map((entry: { operation: string }) => entry.operation)).toEqual(['customers.update', 'customers.create']);
    // The associate's side of the association is in its export too.
    expect((await exportOf('701')).body.associations).toEqual(exported.associations);
  });

  it('cuts a list at 1,000 records, oldest first as its list, and its token reads the rest of that list', async () => {
    const c = server.client;
    await createCustomer(c, 705);
    const event = (n: number) => c.post('/custom_events', { id: `bulk-${n}`, customer_id: 705, slug: 'review', data: { stars: n % 5 } });
    const made = async (n: number) => expect((await event(n)).status).toBe(200);
    // The first and the last alone, the others 50 at a time: bulk-0 is the oldest, bulk-1000 the newest.
    await made(0);
    for (let from = 1; from < 1000; from += 50) await Promise.all(Array.from({ length: Math.min(50, 1000 - from) }, (_, i) => made(from + i)));
    await made(1000);

    const section = (await exportOf('705')).body.custom_events;
    expect(section.data).toHaveLength(1000);
    expect(section.data[0].id).toBe('bulk-0');
    expect(section.data.map((e: { id: string }) => e.id)).not.toContain('bulk-1000');
    // The first 1,000 of GET /custom_events for the customer, in its order (ingestion, oldest first).
    const list: unknown[] = [];
    let after: string | undefined;
    do {
      const page = await read('/custom_events', { customer_id: '705', per_page: '100', ...(after === undefined ? {} : { starting_after: after }) });
      list.push(...page.data);
      after = page.next_token_starts_after;
    } while (after !== undefined);
    expect(list).toHaveLength(1001);
    expect(section.data).toEqual(list.slice(0, 1000));
    // The token goes on in that list: the one record left, and no further token.
    const rest = await read('/custom_events', { customer_id: '705', per_page: '100', starting_after: section.next_token_starts_after });
    expect(rest).toEqual({ data: [list[1000]] });
    expect(rest.data[0].id).toBe('bulk-1000');
  });

  it('finds the customer by code, and writes nothing', async () => {
    const auditBefore = await read('/audit_log', { per_page: '100' });
    const byId = await exportOf('700');
    const byCode = await exportOf('X700', 'code');
    expect(byCode.status, byCode.text).toBe(200);
    expect(withoutTime(byCode.body)).toEqual(withoutTime(byId.body));
    expect(await read('/audit_log', { per_page: '100' })).toEqual(auditBefore);
    expect(withoutTime((await exportOf('700')).body)).toEqual(withoutTime(byId.body));
  });

  it('answers 404 customer_not_found for an unknown customer and for another Company', async () => {
    const unknown = await exportOf('9999');
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('customer_not_found');
    expect((await exportOf('NOPE', 'code')).status).toBe(404);
    expect((await runCli(server.dataDir, 'company', 'create', 'acme')).code).toBe(0);
    const key = (await runCli(server.dataDir, 'key', 'create', '--company', 'acme')).output;
    const acme = server.clientFor({ key: key.key, secret: key.secret });
    const theirs = await acme.get('/customers/700/export', { query: { search_param: 'id' } });
    expect(theirs.status).toBe(404);
    expect(theirs.body.code).toBe('customer_not_found');
  });

  it('requires search_param, as GET /customers/{value}', async () => {
    const res = await server.client.get('/customers/700/export');
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/^search_param: /);
  });

  it('exports what remains of a soft-deleted customer, and a merged customer with the customer it went to', async () => {
    const c = server.client;
    await createCustomer(c, 702, { code: 'X702', email: 'gone@example.com' });
    await realtimeCart(c, 702, 10, { id: 9002 });
    // A cart is a critical relation: the hard delete empties the customer instead.
    expect((await c.delete('/customers/702', { query: { hard: 'true' }, headers: { 'Content-Type': 'application/json' } })).body.deleted).toBe('soft');
    const deleted = await exportOf('702');
    expect(deleted.status, deleted.text).toBe(200);
    // The emptied record says it was deleted, and when: its status alone (active) would read as a live customer without data.
    expect(deleted.body.customer).toEqual({
      id: 702, code: null, dni: null, email: null, phone: null, status: 'active', merged: false, attributes: {},
      creation_date: expect.any(String), updated_at: deleted.body.customer.deleted_at, deleted_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/),
    });
    expect(deleted.body.carts.data.map((cart: { id: number }) => cart.id)).toEqual([9002]);
    expect((await exportOf('X702', 'code')).status).toBe(404);

    await createCustomer(c, 703);
    await createCustomer(c, 704);
    expect((await c.post('/customers/transfer', { old_customer_id: 703, new_customer_id: 704 })).status).toBe(200);
    const merged = (await exportOf('703')).body;
    expect(merged.customer).toMatchObject({ id: 703, merged_to: 704 });
    expect(merged.customer).toEqual(await read('/customers/703', { search_param: 'id' }));
    expect(merged.associations).toEqual([expect.objectContaining({ customer_id: 704, associate_customer_id: 703 })]);
  });
});
