import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cartBody } from '../testing/carts.js';
import { startServer, type TestServer } from '../testing/server.js';
import { balance, createCustomer, transactions } from './testing.js';

const tenPerUnit = { rule_params: { name: 'Ten per unit', rule_effects: [{ type: 'ratio', value: 10, distribution: 'individual_items' }] } };

function cart(id: number, customerId: number, code: string) {
  return cartBody(10, { id, code, customer_id: customerId, creation_date: '2026-11-20T10:00:00Z' });
}

describe('POST /points/redeem_cart', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ env: { WORKERS: '1' } });
    for (const id of [60, 61]) await createCustomer(server.client, id);
    expect((await server.client.post('/points', tenPerUnit)).status).toBe(200);
    for (const [id, customer, code] of [[900, 60, 'T-900'], [901, 61, 'T-901']] as const) {
      const res = await server.client.post('/carts/realtime', cart(id, customer, code));
      expect(res.status, res.text).toBe(200);
      expect(res.body.score).toBe(100);
    }
  });
  afterAll(async () => {
    await server.dispose();
  });

  it('spends available points on a stored cart, as an activity transaction naming it', async () => {
    expect((await server.client.post('/locations', { id: 4, name: 'Shop 4', country: 'ES' })).status).toBe(200);
    const res = await server.client.post('/points/redeem_cart', { activity_id: 900, customer_id: 60, amount: 30, location_id: 4 });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ customer: { id: 60, code: null, score: 70, score_available: 70 }, score_used: 30, score: 70, score_available: 70 });
    const [spent] = await transactions(server.client, 60, { origin_type: 'activity' }).then((txs) => txs.filter((t) => t.amount < 0));
    // The contract's activity origin_info: the cart as evaluated (its stored answer, as GET /carts/{id} shows it).
    const stored = (await server.client.get('/carts/900')).body;
    expect(spent).toMatchObject({
      amount: -30, location_id: 4,
      origin_info: { activity: { id: 900, code: 'T-900', total: stored.total, lines: stored.lines.map(({ price: _price, ...line }: Record<string, unknown>) => line), effects: stored.effects, customer_id: 60 } },
    });
    const commented = await server.client.post('/points/redeem_cart', { activity_id: 900, customer_id: 60, amount: 1, comments: 'till 4' });
    expect(commented.status, commented.text).toBe(200);
    const [last] = (await transactions(server.client, 60, { origin_type: 'activity' })).filter((t) => t.amount === -1);
    expect(last.origin_info).toMatchObject({ activity: { id: 900 }, comments: 'till 4' });
    const byCode = await server.client.post('/scores/activity_redeem', { activity_code: 'T-900', customer_id: 60, amount: 5 });
    expect(byCode.body.score_available).toBe(64);
    // location_id with location_code: both may come when they name the same location.
    expect((await server.client.post('/locations', { id: 5, code: 'SHOP-5', name: 'Shop 5', country: 'ES' })).status).toBe(200);
    const both = await server.client.post('/points/redeem_cart', { activity_id: 900, customer_id: 60, amount: 4, location_id: 5, location_code: 'SHOP-5' });
    expect(both.status, both.text).toBe(200);
    expect((await transactions(server.client, 60, { origin_type: 'activity' })).find((t) => t.amount === -4)).toMatchObject({ location_id: 5 });
  });

  it('replays an Idempotency-Key without spending twice', async () => {
    const options = { headers: { 'Idempotency-Key': 'redeem-cart-1' } };
    const first = await server.client.post('/points/redeem_cart', { activity_id: 901, customer_id: 61, amount: 10 }, options);
    const again = await server.client.post('/points/redeem_cart', { activity_id: 901, customer_id: 61, amount: 10 }, options);
    expect(again.text).toBe(first.text);
    expect((await balance(server.client, 61)).score_available).toBe(90);
  });

  it('refuses more than the available points, unknown carts, another customer\'s cart and bad fields, and writes nothing', async () => {
    const before = await balance(server.client, 60);
    const cases = [
      [{ activity_id: 900, customer_id: 60, amount: 1000 }, 402, 'customer_not_enough_score', 'amount'],
      [{ activity_id: 999, customer_id: 60, amount: 1 }, 404, 'cart_not_found', 'activity_id'],
      [{ activity_code: 'NOPE', customer_id: 60, amount: 1 }, 404, 'cart_not_found', 'activity_code'],
      [{ activity_id: 901, customer_id: 60, amount: 1 }, 400, 'invalid_request', 'customer_id'],
      [{ activity_id: 900, activity_code: 'T-900', customer_id: 60, amount: 1 }, 400, 'invalid_request', 'activity_id'],
      [{ customer_id: 60, amount: 1 }, 400, 'invalid_request', 'activity_id'],
      [{ activity_id: 900, customer_id: 60 }, 400, 'invalid_request', 'amount'],
      [{ activity_id: 900, customer_id: 60, amount: 0 }, 400, 'invalid_request', 'amount'],
      [{ activity_id: 900, customer_id: 60, amount: 2147483648 }, 400, 'invalid_request', 'amount'],
      [{ activity_id: 900, customer_id: 60, amount: '2147483648' }, 400, 'invalid_request', 'amount'],
      [{ activity_id: 900, customer_id: 60, amount: '1000' }, 402, 'customer_not_enough_score', 'amount'],
      [{ activity_id: 900, customer_id: 999, amount: 1 }, 404, 'customer_not_found', 'customer_id'],
      [{ activity_id: 900, customer_id: 60, amount: 1, location_id: 404 }, 404, 'location_not_found', 'location_id'],
      [{ activity_id: 900, customer_id: 60, amount: 1, location_code: 'NOPE' }, 404, 'location_not_found', 'location_code'],
      [{ activity_id: 900, customer_id: 60, amount: 1, location_id: 4, location_code: 'SHOP-5' }, 400, 'invalid_request', 'location_code'],
    ] as const;
    for (const [body, status, code, field] of cases) {
      const res = await server.client.post('/points/redeem_cart', body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.body.code).toBe(code);
      expect(res.body.error).toContain(field);
    }
    expect(await balance(server.client, 60)).toEqual(before);
  });

  it('refuses a cancelled cart and a cancellation, naming the field the cart was named by, and writes nothing', async () => {
    expect((await server.client.patch('/company', { cart_cancellation_wait_seconds: 0 })).status).toBe(200);
    expect((await server.client.post('/carts/realtime', cart(902, 60, 'T-902'))).status).toBe(200);
    const cancelled = await server.client.post('/carts/cancellation', { cart_to_cancel_id: 902, new_cart_id: 903, new_cart_code: 'T-903' });
    expect(cancelled.status, cancelled.text).toBe(200);
    const before = await balance(server.client, 60);
    for (const [body, error] of [
      [{ activity_id: 902 }, 'activity_id: cart 902 is cancelled'],
      [{ activity_code: 'T-902' }, 'activity_code: cart 902 is cancelled'],
      [{ activity_code: 'T-903' }, 'activity_code: cart 903 is a cancellation (of cart 902)'],
    ] as const) {
      const res = await server.client.post('/points/redeem_cart', { ...body, customer_id: 60, amount: 1 });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toEqual({ code: 'invalid_request', error });
    }
    expect(await balance(server.client, 60)).toEqual(before);
  });

  it('never spends more than the available points under concurrent redemptions', async () => {
    const available = (await balance(server.client, 61)).score_available;
    const results = await Promise.all(
      Array.from({ length: 20 }, () => server.client.post('/points/redeem_cart', { activity_id: 901, customer_id: 61, amount: 7 })),
    );
    const granted = results.filter((r) => r.status === 200).length;
    expect(granted).toBe(Math.floor(available / 7));
    expect(results.filter((r) => r.status !== 200).every((r) => r.body.code === 'customer_not_enough_score')).toBe(true);
    expect((await balance(server.client, 61)).score_available).toBe(available - 7 * granted);
  });
});
