/**
 * A customer's delete redacts the entries of other records whose request named
 * it (docs/audit-log.md, Erasure): redeems, transfers, voucher and reward
 * operations, game plays and assignments, challenge enrolments, merges.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer } from '../points/testing.js';
import { createReward, customersWithPoints, LOCATION } from '../rewards/testing.js';
import { startServer, type TestServer } from '../testing/server.js';
import { auditEntries, succeeds } from './testing.js';

const json = { 'Content-Type': 'application/json' };
const prize = { name: 'Fifty points', outcome: 'points', points: 50, weight: 1, stock: -1 };
const game = (select_customers: string) => ({
  rule_params: { name: 'Wheel', select_customers },
  game: { type: 'wheel', config: { slices: 8 }, template: 'spin', game_prizes: [prize] },
});

describe('a customer\'s delete redacts the entries whose request named it', () => {
  let server: TestServer;
  let voucherCampaign: number;
  let reward: number;
  let wheel: number;
  let targetedWheel: number;
  let challenge: number;

  beforeAll(async () => {
    server = await startServer();
    const c = server.client;
    const created = async (path: string, body: unknown) => {
      const res = await c.post(path, body);
      expect(res.status, res.text).toBe(200);
      return res.body.id as number;
    };
    expect((await c.post('/locations', LOCATION)).status).toBe(200);
    voucherCampaign = await created('/discounts', {
      rule_params: { name: 'Gift', select_customers: 'targeted', rule_effects: [{ type: 'direct_value', value: 1, distribution: 'total' }] },
      coupon_params: { name: 'Gift coupon', static_code: 'GIFT', max_redemptions: 3, printable: true, key: 'gift' },
    });
    reward = await createReward(c, { points: 100 });
    wheel = await created('/games', game('loyalty'));
    targetedWheel = await created('/games', game('targeted'));
    challenge = await created('/challenges', { name: 'Spend', attribute: 'total_spent', structure: [{ level: 1, name: 'Starter', threshold: 10, points: 5 }] });
  });
  afterAll(() => server.dispose());

  const entries = (query: Record<string, string> = {}) => auditEntries(server.client, query);
  const ok = succeeds;
  /** Issues a voucher of the campaign to `customer`; returns its code. */
  const issue = async (customer: number, code: string) => {
    await ok(server.client.post('/discounts/trigger', { customer_id: customer, loyalty_rule_id: voucherCampaign, external_voucher_code: code }));
    return code;
  };

  /** Every recorded operation that names customer `id` (code `code`) in its body besides its target; the operations. */
  async function namedEverywhere(id: number, code: string, other: number, merged: number): Promise<string[]> {
    const c = server.client;
    const note = `note about ${code}`;
    const [first, second, third] = [await issue(id, `V${id}-1`), await issue(id, `V${id}-2`), await issue(id, `V${id}-3`)];
    await ok(c.post('/points/redeem', { customer_code: code, amount: 10, comments: note }));
    await ok(c.post('/points/transfer', { from_customer_id: id, to_customer_id: other, score: 5, comments: note }));
    await ok(c.post(`/rewards/${reward}/redeem`, { location_id: LOCATION.id, customer_code: code }));
    await ok(c.post(`/games/${wheel}/play`, { customer_code: code }));
    await ok(c.post(`/games/${targetedWheel}/assignments`, { customer_code: code }));
    await ok(c.post(`/challenges/${challenge}/enroll`, { customer_code: code }));
    await ok(c.post('/discounts/redeem', { voucher_code: first, customer_code: code, cart_id: 1, discount: 100 }));
    await ok(c.post(`/vouchers/${second}/select`, { customer_code: code }));
    await ok(c.put('/vouchers/select', { codes: [third], customer_code: code }));
    await ok(c.post('/customers/transfer', { old_customer_id: merged, new_customer_code: code, motive: note }));
    return [
      'discounts.trigger', 'discounts.trigger', 'discounts.trigger',
      'points.redeem', 'points.transfer', 'rewards.redeem', 'games.play', 'games.assign', 'challenges.enroll',
      'discounts.redeem', 'vouchers.select', 'vouchers.select_many', 'merges.transfer',
    ];
  }

  it('each operation naming it, by code or id: body null, path values other than its id redacted, marked; the rest kept', async () => {
    const [id, other, merged] = [7001, 7002, 7003];
    const code = 'ana-mention-4711';
    await customersWithPoints(server.client, [id], 500, { code });
    await createCustomer(server.client, other, { country: 'ES' });
    await createCustomer(server.client, merged, { name: 'Merged' });
    const operations = await namedEverywhere(id, code, other, merged);
    // A customer merged into it would refuse the delete (409): unmerged first.
    await ok(server.client.post(`/customers/${merged}/unmerge`, undefined, { headers: json, query: { with_activites: 'false' } }));
    const before = await entries();
    const named = before.filter((entry) => operations.includes(entry.operation));
    expect(named.map((entry) => entry.operation).sort()).toEqual([...operations].sort());
    const byId: Record<string, string> = { 'points.transfer': 'from_customer_id', 'discounts.trigger': 'customer_id' };
    for (const entry of named) expect(JSON.stringify(entry)).toContain(entry.operation in byId ? `"${byId[entry.operation]}\\":\\"${id}` : code);

    await ok(server.client.delete(`/customers/${code}`, { query: { search_param: 'code', hard: 'false' }, headers: json }));

    const after = await entries();
    // No trace of the code (nor of the notes that quoted it) anywhere in the log.
    expect(JSON.stringify(after)).not.toContain(code);
    // The delete's time, which marks its own entry too (the entries' `at` is their commit's, a second later at times).
    expect(after[0]).toMatchObject({ operation: 'customers.delete', redacted: { reason: 'customer_deleted' } });
    const at = after[0].redacted.at;
    for (const entry of after.filter((each) => operations.includes(each.operation))) {
      const was = before.find((each) => each.id === entry.id);
      // The skeleton stays: who did what to which record, when.
      expect(entry).toEqual({
        ...was, body: null, body_truncated: false, redacted: { at, reason: 'customer_deleted' },
        path: was.path.replace(/^\/(games|rewards|challenges|vouchers)\/[^/]+\/(\w+)$/, '/$1/[redacted]/$2'),
      });
    }
    expect(after.find((entry) => entry.operation === 'games.play').target).toBe(`game:${wheel}`);
    // The others are untouched: the other customers' and the campaigns'.
    const untouched = after.filter((entry) => !operations.includes(entry.operation) && !entry.target?.startsWith(`customer:${id}`));
    expect(untouched.every((entry) => entry.redacted === null)).toBe(true);
    expect(untouched).toEqual(before.filter((entry) => untouched.some((each) => each.id === entry.id)));
  });

  it('GET /audit_log?mentions= and the customer\'s export list the entries of other records that named it', async () => {
    const [id, other] = [7201, 7202];
    const code = 'listed-mention-4713';
    await customersWithPoints(server.client, [id], 50, { code });
    await createCustomer(server.client, other, { country: 'ES' });
    await ok(server.client.post('/points/redeem', { customer_code: code, amount: 10, comments: 'till 4' }));
    await ok(server.client.post('/points/transfer', { from_customer_id: id, to_customer_id: other, score: 5 }));
    await ok(server.client.post(`/games/${wheel}/play`, { customer_id: id }));
    const mentioning = await entries({ mentions: String(id) });
    expect(mentioning.map((entry) => entry.operation)).toEqual(['games.play', 'points.transfer', 'points.redeem']);
    // A transfer names both customers; the customer's own entries (its create) are its target's, not mentions.
    expect((await entries({ mentions: String(other) })).map((entry) => entry.operation)).toEqual(['points.transfer']);
    const page = await server.client.get('/audit_log', { query: { mentions: String(id), per_page: '2' } });
    expect(page.body.data.map((entry: { id: number }) => entry.id)).toEqual(mentioning.slice(0, 2).map((entry) => entry.id));
    const rest = await entries({ mentions: String(id), starting_after: page.body.next_token_starts_after });
    expect(rest.map((entry) => entry.id)).toEqual([mentioning[2].id]);

    const exported = await server.client.get(`/customers/${id}/export`, { query: { search_param: 'id' } });
    expect(exported.status, exported.text).toBe(200);
    expect(exported.body.audit_log_mentions.data).toEqual(mentioning);

    const both = await server.client.get('/audit_log', { query: { mentions: String(id), target: `customer:${id}` } });
    expect(both.status).toBe(400);
    expect(both.body).toEqual({ code: 'invalid_request', error: expect.stringContaining('mentions') });
    const bad = await server.client.get('/audit_log', { query: { mentions: 'ana' } });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('invalid_request');
  });

  it('a refused delete (409: a customer is merged into it) redacts nothing', async () => {
    const [id, merged] = [7101, 7102];
    const code = 'refused-mention-4712';
    await customersWithPoints(server.client, [id], 50, { code });
    await createCustomer(server.client, merged, { name: 'Merged' });
    await ok(server.client.post('/points/redeem', { customer_code: code, amount: 10, comments: `note about ${code}` }));
    await ok(server.client.post(`/games/${wheel}/play`, { customer_code: code }));
    await ok(server.client.post('/customers/transfer', { old_customer_id: merged, new_customer_code: code }));
    const before = await entries();
    const res = await server.client.delete(`/customers/${id}`, { query: { hard: 'false' }, headers: json });
    expect(res.status, res.text).toBe(409);
    expect(res.body.code).toBe('conflict');
    expect(await entries()).toEqual(before);
    expect(before.filter((entry) => entry.body?.includes(code)).map((entry) => entry.operation)).toEqual(['merges.transfer', 'games.play', 'points.redeem', 'customers.create']);
  });
});
