import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../testing/server.js';

const CREATED = '2026-11-20T10:00:00Z';
const tenPerUnit = { rule_params: { name: 'Ten per unit', rule_effects: [{ type: 'ratio', value: 10, distribution: 'individual_items' }] } };

let nextId = 1000;
function cart(extra: Record<string, unknown> = {}) {
  return { id: nextId++, creation_date: CREATED, total: 2.99, customer_id: 7, lines: [{ order: 1, product_id: 100, total: 2.99, quantity: 1 }], ...extra };
}

describe('carts over HTTP', () => {
  let server: TestServer;
  const points = async (customer: number | string) => (await server.client.get(`/customers/${customer}/points`)).body;

  beforeAll(async () => {
    server = await startServer({ env: { WORKERS: '2' } });
    expect((await server.client.post('/customers', { id: 7, code: 'ANN', name: 'Ann', registration_location_id: 1, country: 'ES' })).status).toBe(200);
    expect((await server.client.post('/customers', { id: 8, name: 'Bob', registration_location_id: 1, country: 'US' })).status).toBe(200);
    expect((await server.client.post('/points', tenPerUnit)).status).toBe(200);
  });
  afterAll(async () => {
    await server.dispose();
  });

  it('the worked example: a cart of 2.99 at 10 points per unit earns 29, in the response, the balance and the stored cart', async () => {
    const before = (await points(7)).score;
    const body = cart();
    const res = await server.client.post('/carts/realtime', body);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: body.id, score: 29, score_as_money: 0.29, total: 2.99 });
    expect(res.body.effects).toEqual([expect.objectContaining({ type: 'points', effect_type: 'ratio', value: 29, line: 1, rule_id: expect.any(Number) })]);
    expect(res.body.customer).toEqual([expect.objectContaining({ id: 7, code: 'ANN', score: before + 29 })]);
    expect((await points(7)).score).toBe(before + 29);
    const stored = await server.client.get(`/carts/${body.id}`);
    expect(stored.status).toBe(200);
    expect(stored.body).toMatchObject({ id: body.id, score: 29, customer_id: 7, customer_code: 'ANN', customer: { id: 7 }, score_simulation: false });
  });

  it("the cart's points transaction records the answered cart, with customer_id, as its activity origin_info", async () => {
    const body = cart({ customer_id: 8 });
    const res = await server.client.post('/carts/realtime', body);
    expect(res.status).toBe(200);
    const transactions = (await server.client.get('/points/transactions', { query: { customer_id: '8' } })).body.data;
    const activity = transactions.find((tx: { origin_info: { activity?: { id?: number } } }) => tx.origin_info.activity?.id === body.id);
    expect(activity).toMatchObject({ type: 'activity', amount: 29 });
    expect(activity.origin_info).toEqual({ activity: { ...res.body, customer_id: 8 } });
  });

  it('simulate persists nothing: same response, no cart, no points', async () => {
    const before = (await points(7)).score;
    const body = cart();
    const res = await server.client.post('/carts/simulate', body);
    expect(res.status).toBe(200);
    expect(res.body.score).toBe(29);
    expect(res.body.customer[0].score).toBe(before + 29);
    expect((await server.client.get(`/carts/${body.id}`)).status).toBe(404);
    expect((await points(7)).score).toBe(before);
  });

  it('simulate leaves every counter as it was: a once-limited campaign applies to every simulation', async () => {
    const once = await server.client.post('/points', { rule_params: { name: 'Five once', once: 'always', once_limit: 1, rule_effects: [{ type: 'direct_value', value: 5, distribution: 'total_cart' }] } });
    expect(once.status).toBe(200);
    for (let i = 0; i < 3; i++) expect((await server.client.post('/carts/simulate', cart())).body.score).toBe(34);
    expect((await server.client.post('/carts/realtime', cart())).body.score).toBe(34);
    const after = await server.client.post('/carts/simulate', cart());
    expect(after.body.score).toBe(29);
    expect(after.body.rejected_campaigns).toEqual([expect.objectContaining({ rule_id: once.body.id, error: expect.stringMatching(/^once_limit/) })]);
    expect((await server.client.patch(`/points/${once.body.id}`, { rule_params: { active: false } })).status).toBe(200);
  });

  it('rules on product features read the catalogue: only the lines of featured products are discounted', async () => {
    expect((await server.client.post('/taxonomies', { slug: 'family', name: 'Family' })).status).toBe(200);
    expect((await server.client.post('/taxonomies/family/features', { id: 2, name: 'Bakery' })).status).toBe(200);
    expect((await server.client.post('/products', { id: 300, name: 'Bread', features: [{ taxonomy_slug: 'family', id: 2 }] })).status).toBe(200);
    const bakery = await server.client.post('/discounts', {
      rule_params: {
        name: 'Bakery 10%',
        rule_application: { conditions: { and: [{ array_field: 'lines', conditions: [{ field: 'feature', operator: 'in', values: ['family:2'] }] }] } },
        rule_effects: [{ type: 'percentage', value: 10, distribution: 'individual_items' }],
      },
    });
    expect(bakery.status).toBe(200);
    const res = await server.client.post('/carts/simulate', cart({
      total: 20, apply_points: false,
      lines: [{ order: 1, product_id: 300, total: 10, quantity: 1 }, { order: 2, product_id: 301, total: 10, quantity: 1 }],
    }));
    expect(res.body.effects.map((e: { rule_id: number; line: number; value: number }) => [e.rule_id, e.line, e.value])).toEqual([[bakery.body.id, 1, 100]]);
    // A line with product_code only is read as the catalogue's product.
    expect((await server.client.patch('/products/300', { code: 'BREAD' })).status).toBe(200);
    const byCode = await server.client.post('/carts/simulate', cart({ total: 10, apply_points: false, lines: [{ order: 1, product_code: 'BREAD', total: 10, quantity: 1 }] }));
    expect(byCode.body.effects).toEqual([expect.objectContaining({ rule_id: bakery.body.id, line: 1, value: 100 })]);
    expect(byCode.body.lines[0].product_id).toBe(300);
    expect((await server.client.patch(`/discounts/${bakery.body.id}`, { rule_params: { active: false } })).status).toBe(200);
  });

  it('a return may not take back more than the original ticket line held; the same line may be returned in several carts', async () => {
    const ticket = cart({ code: 'TICKET-R', total: 9, lines: [{ order: 1, product_id: 100, total: 9, quantity: 3 }] });
    expect((await server.client.post('/carts/realtime', ticket)).status).toBe(200);
    const returning = (quantity: number, extra: Record<string, unknown> = {}) => cart({
      total: 6, lines: [{ order: 1, product_id: 100, total: 6, quantity: 3 }],
      returns: [{ ticket_id: ticket.id, line_order: 1, from_line_order: 1, quantity, ...extra }],
    });
    expect((await server.client.post('/carts/realtime', returning(2))).status).toBe(200);
    expect((await server.client.post('/carts/realtime', returning(2))).status).toBe(200);
    const tooMany = await server.client.post('/carts/realtime', { ...returning(2), lines: [{ order: 1, product_id: 100, total: 8, quantity: 4 }], total: 8, returns: [{ ticket_code: 'TICKET-R', line_order: 1, quantity: 4 }] });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error).toMatch(/^returns\[0\]\.quantity: is larger than the quantity of line 1 of cart/);
    const noLine = await server.client.post('/carts/simulate', returning(1, { from_line_order: 9 }));
    expect(noLine.status).toBe(400);
    expect(noLine.body.error).toMatch(/^returns\[0\]\.from_line_order/);
  });

  it("a cart's returns of one ticket line add up: split across entries they may not take back more than the line held", async () => {
    const ticket = cart({ total: 4, lines: [{ order: 1, product_id: 100, total: 2, quantity: 2 }, { order: 2, product_id: 101, total: 2, quantity: 2 }] });
    expect((await server.client.post('/carts/realtime', ticket)).status).toBe(200);
    const returning = (...returns: [number, number, number][]) =>
      cart({
        total: 4,
        lines: [{ order: 1, product_id: 101, total: 2, quantity: 2 }, { order: 2, product_id: 101, total: 2, quantity: 2 }],
        returns: returns.map(([line_order, from_line_order, quantity]) => ({ ticket_id: ticket.id, line_order, from_line_order, quantity })),
      });
    for (const path of ['/carts/simulate', '/carts/realtime', '/carts']) {
      // returns[0] took back both units of the ticket's line 2, returns[1] names another line; returns[2] would be the third unit.
      const body = returning([1, 2, 2], [1, 1, 1], [2, 2, -1]);
      const split = await server.client.post(path, body);
      expect({ status: split.status, body: split.body }, path).toEqual({
        status: 400,
        body: { code: 'invalid_request', error: `returns[2].quantity: is larger than the quantity of line 2 of cart ${ticket.id} (2) with the 2 returned before it in this cart` },
      });
      expect((await server.client.get(`/carts/${body.id}`)).status, path).toBe(404);
    }
    // Within the line's quantity, split or not, they are accepted; another cart may return the line again (cart rule 3).
    expect((await server.client.post('/carts/realtime', returning([1, 2, 1], [2, 2, -1]))).status).toBe(200);
    expect((await server.client.post('/carts/realtime', returning([1, 2, 2]))).status).toBe(200);
  });

  it("a return's quantity is a line's: a number other than 0 within ±(2^53 - 1), in the same words; negative returns are read as their units", async () => {
    const ticket = cart({ total: 3, lines: [{ order: 1, product_id: 100, total: 3, quantity: 3 }] });
    expect((await server.client.post('/carts/realtime', ticket)).status).toBe(200);
    const returning = (quantity: unknown) => cart({ total: -1, lines: [{ order: 1, product_id: 100, total: -1, quantity: -1 }], returns: [{ ticket_id: ticket.id, line_order: 1, quantity }] });
    const refused = { code: 'invalid_request', error: 'returns[0].quantity: must be a number between -9007199254740991 and 9007199254740991 other than 0' };
    for (const path of ['/carts/simulate', '/carts/realtime', '/carts']) {
      for (const quantity of [0, -0, 1e300, -9007199254740992]) {
        const body = returning(quantity);
        const res = await server.client.post(path, body);
        expect({ status: res.status, body: res.body }, `${path} ${quantity}`).toEqual({ status: 400, body: refused });
        expect((await server.client.get(`/carts/${body.id}`)).status).toBe(404);
      }
    }
    const negative = await server.client.post('/carts/realtime', returning(-1));
    expect([negative.status, negative.body.returns[0].quantity]).toEqual([200, -1]);
  });

  it('the legacy aliases reach the same operations', async () => {
    expect((await server.client.post('/activities/simulate', cart())).body.score).toBe(29);
    const body = cart();
    expect((await server.client.post('/activities/realtime', body)).body.score).toBe(29);
    expect((await server.client.get(`/activities/${body.id}`)).body.id).toBe(body.id);
  });

  it('customer_code names the customer; an unknown code is 404 customer_not_found', async () => {
    const res = await server.client.post('/carts/realtime', cart({ customer_id: undefined, customer_code: 'ANN' }));
    expect(res.status).toBe(200);
    expect(res.body.customer[0]).toMatchObject({ id: 7, code: 'ANN' });
    const unknown = await server.client.post('/carts/realtime', cart({ customer_id: undefined, customer_code: 'NOBODY' }));
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ code: 'customer_not_found', error: expect.stringMatching(/^customer_code: /) });
  });

  it('an unknown customer_id still earns (coherence is not validated): the points are recorded for that id', async () => {
    const res = await server.client.post('/carts/realtime', cart({ customer_id: 555 }));
    expect(res.status).toBe(200);
    expect(res.body.score).toBe(29);
  });

  it('a soft-deleted customer named by customer_id is processed as a cart without customer: no points, nothing linked to it', async () => {
    expect((await server.client.post('/customers', { id: 19, code: 'GONE', name: 'Gone', registration_location_id: 1 })).status).toBe(200);
    const earned = await server.client.post('/carts/realtime', cart({ customer_id: 19 }));
    expect(earned.body.score).toBe(29);
    const [activity] = (await server.client.get('/points/transactions', { query: { customer_id: '19' } })).body.data;
    expect(activity).toMatchObject({ type: 'activity', amount: 29 });
    const deleted = await server.client.delete('/customers/19', { query: { hard: 'false' }, headers: { 'Content-Type': 'application/json' } });
    expect(deleted.status).toBe(200);

    const anonymous = (await server.client.post('/carts/simulate', cart({ customer_id: undefined }))).body;
    const simulated = await server.client.post('/carts/simulate', cart({ customer_id: 19 }));
    expect(simulated.status).toBe(200);
    expect(simulated.body).toMatchObject({ score: anonymous.score, customer: [] });
    const body = cart({ customer_id: 19 });
    const res = await server.client.post('/carts/realtime', body);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: body.id, score: anonymous.score, customer: [] });
    expect((await server.client.get(`/carts/${body.id}`)).body).toMatchObject({ id: body.id, customer_id: null, customer: null });
    const listed = (await server.client.get('/carts', { query: { customer_id: '19' } })).body.data.map((c: { id: number }) => c.id);
    expect(listed).toEqual([earned.body.id]);
    // Every points transaction of the tenant: the deleted customer's is still the one it earned before.
    const all: { id: number; customer_id: number }[] = [];
    for (let token: string | undefined; ; ) {
      const page = (await server.client.get('/points/transactions', { query: { per_page: '100', ...(token ? { starting_after: token } : {}) } })).body;
      all.push(...page.data);
      if (!(token = page.next_token_starts_after)) break;
    }
    expect(all.filter((tx) => tx.customer_id === 19).map((tx) => tx.id)).toEqual([activity.id]);
  });

  it('refuses malformed carts with 400 invalid_request naming the field, storing nothing', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ lines: [] }, /^lines/],
      [{ lines: undefined }, /^lines: is required/],
      [{ creation_date: 'yesterday' }, /^creation_date/],
      [{ total: 'ten' }, /^total/],
      [{ id: 0 }, /^id/],
      [{ customer_code: 'ANN' }, /^customer_code: cannot be sent with customer_id$/],
      // Checked once, by the engine (offline previews run the same check).
      [{ cashback_score_desired: 10, cashbacks: [{ line_order: 1, score: 10 }] }, /^cashbacks: cannot be sent with cashback_score_desired$/],
      [{ lines: [{ order: 1, product_id: 100, total: 1, quantity: 3 }], total: 1 }, /^lines\[0\]/],
      [{ colour: 'red' }, /^colour: is not an accepted field/],
      [{ currency: 'XYZ' }, /^currency: XYZ is not an ISO 4217 currency/],
      // -1 is the line of whole-cart effects: a line's order is 1 or more (the schema's path form names the field).
      [{ lines: [{ order: -1, product_id: 100, total: 2.99, quantity: 1 }] }, /^lines\[0\]\.order: must be an integer between 1 and 2147483647$/],
      [{ lines: [{ order: 0, product_id: 100, total: 2.99, quantity: 1 }] }, /^lines\[0\]\.order: must be an integer between 1 and 2147483647$/],
      // Attributes follow the customer attribute rules: flat, at most 50, at most 10 KB in total.
      [{ attributes: { note: 'x'.repeat(10 * 1024) } }, /^attributes: must be at most 10240 bytes/],
      [{ attributes: { nested: { a: 1 } } }, /^attributes/],
      [{ lines: [{ order: 1, product_id: 100, total: 2.99, quantity: 1, attributes: { note: 'x'.repeat(10 * 1024) } }] }, /^lines\[0\]\.attributes: must be at most 10240 bytes/],
    ];
    for (const [extra, error] of cases) {
      const body = cart(extra);
      const res = await server.client.post('/carts/realtime', body);
      expect(res.status, JSON.stringify(extra)).toBe(400);
      expect(res.body.code).toBe('invalid_request');
      expect(res.body.error).toMatch(error);
      if (typeof body.id === 'number' && body.id > 0) expect((await server.client.get(`/carts/${body.id}`)).status).toBe(404);
    }
    expect((await server.client.post('/carts/simulate', 'not json')).status).toBe(400);
  });

  it("bounds the integers of a cart's sub-objects at 1..2147483647 (common rule 3): line orders and cashback points", async () => {
    const line = { order: 1, product_id: 100, total: 2.99, quantity: 1 };
    const cases: [Record<string, unknown>, string][] = [
      [{ cashbacks: [{ line_order: 0, score: 1 }] }, 'cashbacks[0].line_order: must be an integer between 1 and 2147483647'],
      [{ cashbacks: [{ line_order: 1, score: 0 }] }, 'cashbacks[0].score: must be an integer between 1 and 2147483647'],
      [{ cashbacks: [{ line_order: 1, score: 2147483648 }] }, 'cashbacks[0].score: must be an integer between 1 and 2147483647'],
      [{ cashbacks: [{ line_order: 1, score: 9223372036854775807n }] }, 'cashbacks[0].score: must be an integer between 1 and 2147483647'],
      [{ returns: [{ line_order: 0, quantity: 1 }] }, 'returns[0].line_order: must be an integer between 1 and 2147483647'],
      [{ returns: [{ line_order: 1, from_line_order: -3, quantity: 1 }] }, 'returns[0].from_line_order: must be an integer between 1 and 2147483647'],
      [{ returns: [{ line_order: 1, line_order_change: 0, quantity: 1 }] }, 'returns[0].line_order_change: must be an integer between 1 and 2147483647'],
      [{ returns: [{ line_order: 1, line_order_change: -1, quantity: 1 }] }, 'returns[0].line_order_change: must be an integer between 1 and 2147483647'],
      // Informational, but a line order all the same: a promotion on the whole cart leaves line_order out.
      [{ promotions: [{ promotion_id: 1, discount: 1, line_order: -1 }] }, 'promotions[0].line_order: must be an integer between 1 and 2147483647'],
      [{ promotions: [{ promotion_id: 1, discount: 1, line_order: 1e30 }] }, 'promotions[0].line_order: must be an integer between 1 and 2147483647'],
      [{ lines: [{ ...line, order: 1e30 }] }, 'lines[0].order: must be an integer between 1 and 2147483647'],
      [{ lines: [{ ...line, order: 9007199254740993n }] }, 'lines[0].order: must be an integer between 1 and 2147483647'],
    ];
    const before = (await points(7)).score;
    for (const [extra, error] of cases) {
      const body = cart(extra);
      for (const path of ['/carts/simulate', '/carts/realtime']) {
        const res = await server.client.post(path, body);
        expect(res.body, `${path} ${res.text}`).toEqual({ code: 'invalid_request', error });
      }
      expect((await server.client.get(`/carts/${body.id}`)).status).toBe(404);
    }
    expect((await points(7)).score).toBe(before);
    const highest = cart({ lines: [{ ...line, order: 2147483647 }], promotions: [{ promotion_id: 1, discount: 1, line_order: 2147483647 }] });
    const res = await server.client.post('/carts/realtime', highest);
    expect(res.status, res.text).toBe(200);
    expect(res.body.lines[0].order).toBe(2147483647);
  });

  it('realtime checks the id in real time: a duplicate id or code is 409 duplicate_id and changes nothing', async () => {
    const body = cart({ code: 'TICKET-1' });
    expect((await server.client.post('/carts/realtime', body)).status).toBe(200);
    const balance = (await points(7)).score;
    const again = await server.client.post('/carts/realtime', { ...body, total: 5.99, lines: [{ order: 1, product_id: 100, total: 5.99, quantity: 1 }] });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ code: 'duplicate_id', error: expect.stringMatching(/^id: /) });
    const sameCode = await server.client.post('/carts/realtime', cart({ code: 'TICKET-1' }));
    expect(sameCode.status).toBe(409);
    expect(sameCode.body.error).toBe('code: a cart with code TICKET-1 already exists');
    expect((await points(7)).score).toBe(balance);
    expect((await server.client.get(`/carts/${body.id}`)).body.total).toBe(2.99);
  });

  it('POST /carts defers the duplicate check: the repeat answers 200, changes nothing, and the stored cart shows the deferred error', async () => {
    const body = cart();
    expect((await server.client.post('/carts', body)).body.score).toBe(29);
    const balance = (await points(7)).score;
    const again = await server.client.post('/carts', body);
    expect(again.status).toBe(200);
    expect((await points(7)).score).toBe(balance);
    const stored = await server.client.get(`/carts/${body.id}`);
    expect(stored.body.deferred_errors).toEqual([{ code: 'duplicate_id', message: expect.stringContaining(`id ${body.id}`), received_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/) }]);
  });

  it('a cart records its first 10 deferred duplicates and counts the rest: a client retrying forever does not grow it', async () => {
    const body = cart({ code: 'RETRIED' });
    expect((await server.client.post('/carts', body)).status).toBe(200);
    for (let i = 0; i < 13; i++) {
      const again = await server.client.post('/carts', i % 2 === 0 ? body : { ...body, id: nextId++ });
      expect(again.status).toBe(200);
    }
    const stored = (await server.client.get(`/carts/${body.id}`)).body;
    expect(stored.deferred_errors).toHaveLength(10);
    expect(stored.deferred_errors.map((e: { message: string }) => e.message)).toEqual(
      Array.from({ length: 10 }, (_, i) => `a cart with ${i % 2 === 0 ? `id ${body.id}` : 'code RETRIED'} was received again and ignored`),
    );
    expect(stored.deferred_errors_omitted).toBe(3);
    const listed = (await server.client.get('/carts', { query: { id: String(body.id) } })).body.data[0];
    expect([listed.deferred_errors, listed.deferred_errors_omitted]).toEqual([stored.deferred_errors, 3]);
    // Below the cap the count is absent, as deferred_errors is without an error.
    const once = cart();
    await server.client.post('/carts', once);
    await server.client.post('/carts', once);
    expect(Object.keys((await server.client.get(`/carts/${once.id}`)).body).filter((key) => key.startsWith('deferred_errors'))).toEqual(['deferred_errors']);
  });

  it('a replayed realtime request (Idempotency-Key) gets the same answer and is stored once', async () => {
    const body = cart();
    const headers = { 'Idempotency-Key': `cart-${body.id}` };
    const balance = (await points(7)).score;
    const first = await server.client.post('/carts/realtime', body, { headers });
    const second = await server.client.post('/carts/realtime', body, { headers });
    expect(second.status).toBe(200);
    expect(second.text).toBe(first.text);
    expect((await points(7)).score).toBe(balance + 29);
  });

  it('a cart without id gets a server id counted down from the int64 maximum, skipping ids clients took; ids survive exactly', async () => {
    const big = await server.client.post('/carts/realtime', cart({ id: '9223372036854775807' }));
    expect(big.status).toBe(200);
    expect(big.body.id).toBe(9223372036854775807n);
    expect((await server.client.get('/carts/9223372036854775807')).body.id).toBe(9223372036854775807n);
    const anonymous = await server.client.post('/carts/realtime', cart({ id: undefined, code: 'NO-ID' }));
    expect(anonymous.status).toBe(200);
    expect(anonymous.body.id).toBe(9223372036854775806n);
    expect((await server.client.get('/carts/NO-ID')).body.id).toBe(9223372036854775806n);
    // The ids a client numbers from 1 stay free (the server's first ids were 1, 2, ... and refused them later with 409).
    for (const id of [1, 2]) expect((await server.client.post('/carts/realtime', cart({ id }))).status).toBe(200);
  });

  it('international follows the currency of the customer registration location when it is stored', async () => {
    expect((await server.client.post('/locations', { id: 31, code: 'NYC', name: 'New York', country: 'US' })).status).toBe(200);
    expect((await server.client.post('/customers', { id: 9, name: 'Cy', registration_location_id: 31, country: 'ES' })).status).toBe(200);
    expect((await server.client.post('/carts/simulate', cart({ customer_id: 9 }))).body.international).toBe(true);
    expect((await server.client.post('/carts/simulate', cart({ customer_id: 9, currency: 'USD' }))).body.international).toBeUndefined();
  });

  it('a cart with location_code only is evaluated and stored with the location id', async () => {
    const local = await server.client.post('/discounts', {
      rule_params: { name: 'New York 1 off', rule_conditions: { conditions: { and: [{ field: 'location_id', operator: 'in', values: [31] }] } }, rule_effects: [{ type: 'direct_value', value: 1, distribution: 'total' }] },
    });
    expect(local.status).toBe(200);
    const body = cart({ location_code: 'NYC', apply_points: false });
    const res = await server.client.post('/carts/realtime', body);
    expect(res.body).toMatchObject({ location_id: 31, total_discount_applied: 1 });
    expect((await server.client.get('/carts', { query: { location_id: '31' } })).body.data.map((c: { id: number }) => c.id)).toContain(body.id);
    // And a cart sent with location_id only is found by that location's code.
    const byId = cart({ location_id: 31, apply_points: false });
    expect((await server.client.post('/carts/realtime', byId)).status).toBe(200);
    const byCode = (await server.client.get('/carts', { query: { location_code: 'NYC' } })).body.data.map((c: { id: number }) => c.id);
    expect(byCode).toEqual(expect.arrayContaining([body.id, byId.id]));
    expect((await server.client.post('/carts/simulate', cart({ location_code: 'ELSEWHERE', apply_points: false }))).body.total_discount_applied).toBe(0);
    expect((await server.client.patch(`/discounts/${local.body.id}`, { rule_params: { active: false } })).status).toBe(200);
  });

  it("a cart with location_id only is evaluated with the location's code (location_code not_in excludes it), stored and answered as sent", async () => {
    const notNyc = await server.client.post('/discounts', {
      rule_params: { name: 'Not New York 1 off', rule_conditions: { conditions: { and: [{ field: 'location_code', operator: 'not_in', values: ['NYC'] }] } }, rule_effects: [{ type: 'direct_value', value: 1, distribution: 'total' }] },
    });
    expect(notNyc.status).toBe(200);
    // The campaign list says the same for that location.
    const listed = (await server.client.get('/discounts', { query: { location_id: '31', per_page: '100' } })).body.data.map((c: { id: number }) => c.id);
    expect(listed).not.toContain(notNyc.body.id);
    for (const path of ['/carts/simulate', '/carts/realtime', '/carts']) {
      const atNyc = cart({ location_id: 31, apply_points: false });
      const res = await server.client.post(path, atNyc);
      expect(res.status, res.text).toBe(200);
      expect([res.body.total_discount_applied, res.body.location_id, res.body.location_code]).toEqual([0, 31, undefined]);
      // Elsewhere (a location company data does not know is only its id), the campaign applies.
      expect((await server.client.post(path, cart({ location_id: 32, apply_points: false }))).body.total_discount_applied).toBe(1);
      if (path !== '/carts/simulate') expect((await server.client.get(`/carts/${atNyc.id}`)).body).toMatchObject({ location_id: 31, location_code: null });
    }
    expect((await server.client.patch(`/discounts/${notNyc.body.id}`, { rule_params: { active: false } })).status).toBe(200);
  });

  it('international is true only when the cart currency differs from the customer registration country currency', async () => {
    expect((await server.client.post('/carts/simulate', cart())).body.international).toBeUndefined();
    expect((await server.client.post('/carts/simulate', cart({ currency: 'USD' }))).body.international).toBe(true);
    expect((await server.client.post('/carts/simulate', cart({ customer_id: 8, currency: 'USD' }))).body.international).toBeUndefined();
    expect((await server.client.post('/carts/simulate', cart({ customer_id: 8 }))).body.international).toBe(true);
  });

  it('apply_points false earns nothing', async () => {
    expect((await server.client.post('/carts/simulate', cart({ apply_points: false }))).body.score).toBe(0);
  });

  it('cart reads add the lines\' unit price, the promotions\' discount_int (cents) and the shipment\' status_histories', async () => {
    const body = cart({
      lines: [{ order: 1, product_id: 100, total: 5.98, quantity: 2 }],
      total: 5.98,
      promotions: [{ promotion_id: 4, discount: 1.25, line_order: 1 }],
      shipment: { status: 'sent', tracking_code: 'T-1' },
    });
    expect((await server.client.post('/carts/realtime', body)).status).toBe(200);
    const read = (await server.client.get(`/carts/${body.id}`)).body;
    const [listed] = (await server.client.get('/carts', { query: { id: String(body.id) } })).body.data;
    for (const stored of [read, listed]) {
      expect(stored.lines[0]).toMatchObject({ order: 1, quantity: 2, price: 2.99 });
      expect(stored.promotions).toEqual([{ promotion_id: 4, discount: 1.25, discount_int: 125, line_order: 1 }]);
      expect(stored.shipment).toEqual({ status: 'sent', tracking_code: 'T-1', status_histories: [{ status: 'sent', created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) }] });
    }
  });

  it('a cart read gives back every field the request sent, by id, by code and in the list', async () => {
    const sent = {
      code: 'ROUND-TRIP', location_id: 3, location_code: 'SHOP3', customer_code: 'ANN', original_total: 22, currency: 'EUR',
      lines: [
        { order: 1, product_id: 100, product_code: 'P100', product_ean: '8400000000001', total: 10, original_total: 11, total_cost: 4, quantity: 2, measurement_unit: 'u', total_net: 8.26, total_tax: 1.74, product_name: 'Socks', product_tax: 21, custom1: 'a', custom7: 'g', supplier_id: 55, attributes: { size: 'M' }, additional_costs: { wrap: 0.5 } },
        { order: 2, product_id: 101, total: 10, quantity: 1 },
      ],
      total: 20,
      custom1: 'plain', custom2: { nested: { x: 1 } }, custom8: 'eight',
      business_name: 'ACME SL', total_net: 16.53, total_tax: 3.47, tpv_id: 'TPV-1', staff_name: 'Eve', order_id: 'ORD-9',
      payments: [{ amount: 20, type: 'card', change: 0 }, { amount: 5, type: 'cash', change: 5 }],
      checkout_date: '2026-11-20T11:05:00+0100', payment_cost: 0.3, shipping_cost: 4.95, channel: 'web',
      attributes: { gift: true }, additional_costs: { delivery: 2 },
    };
    const { customer_id: _, ...body } = cart(sent);
    expect((await server.client.post('/carts/realtime', body)).status).toBe(200);
    const read = (await server.client.get(`/carts/${body.id}`)).body;
    expect((await server.client.get('/carts/ROUND-TRIP')).body).toEqual(read);
    expect((await server.client.get('/carts', { query: { code: 'ROUND-TRIP' } })).body.data).toEqual([read]);
    const { lines, checkout_date: _checkout, ...fields } = sent;
    expect(read).toMatchObject({ ...fields, id: body.id, checkout_date: '2026-11-20T10:05:00Z', customer_id: 7, customer_code: 'ANN', associate_id: null, staff_code: null, barcode: null, rewards: [] });
    expect(read.lines).toEqual([
      { ...lines[0], additional_costs: { wrap: 0.5, original_wrap: 0.5 }, price: 5.5 },
      { ...lines[1], original_total: 10, price: 10 },
    ]);
    expect(read.additional_costs).toEqual({ delivery: 2, original_delivery: 2 });
  });

  it('refuses more than two decimals in the amounts it computes with, and stores those it only records as sent', async () => {
    const threeDecimals = await server.client.post('/carts/realtime', cart({ total: 2.999, lines: [{ order: 1, product_id: 100, total: 2.999, quantity: 1 }] }));
    expect(threeDecimals.body).toEqual({ code: 'invalid_request', error: 'total: must have at most two decimals' });
    const recorded = { total_tax: 0.5189, total_net: 2.4711, payments: [{ amount: 2.99, type: 'card', change: 0.001 }] };
    const body = cart(recorded);
    expect((await server.client.post('/carts/realtime', body)).status).toBe(200);
    expect((await server.client.get(`/carts/${body.id}`)).body).toMatchObject(recorded);
  });

  it('stores and answers an integer beyond int64 in a custom field with every digit (it was a 500)', async () => {
    const huge = 123456789012345678901234567890n;
    const body = cart({ custom1: { serial: huge }, custom2: { serial: -huge } });
    const res = await server.client.post('/carts/realtime', body);
    expect(res.status, res.text).toBe(200);
    const read = await server.client.get(`/carts/${body.id}`);
    expect(read.body).toMatchObject({ custom1: { serial: huge }, custom2: { serial: -huge } });
  });

  it('GET /carts/{id}: by id, by code (search_param), 404 cart_not_found', async () => {
    const body = cart({ code: 'READ-ME' });
    await server.client.post('/carts/realtime', body);
    expect((await server.client.get('/carts/READ-ME')).body.id).toBe(body.id);
    expect((await server.client.get('/carts/READ-ME', { query: { search_param: 'code' } })).body.id).toBe(body.id);
    expect((await server.client.get(`/carts/${body.id}`, { query: { search_param: 'id' } })).body.code).toBe('READ-ME');
    const missing = await server.client.get('/carts/424242424');
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('cart_not_found');
    expect((await server.client.get('/carts/x', { query: { search_param: 'email' } })).status).toBe(400);
  });
});

describe('GET /carts filters', () => {
  let server: TestServer;
  const ids = (res: { body: { data: { id: number }[] } }) => res.body.data.map((c) => c.id);
  beforeAll(async () => {
    server = await startServer({ env: { WORKERS: '1' } });
    await server.client.post('/customers', { id: 1, code: 'ONE', name: 'One', registration_location_id: 1, country: 'ES' });
    await server.client.post('/customers', { id: 2, name: 'Two', registration_location_id: 1, country: 'FR' });
    const base = { total: 1, lines: [{ order: 1, total: 1, quantity: 1 }] };
    await server.client.post('/carts/realtime', { ...base, id: 11, code: 'A', customer_id: 1, location_id: 5, order_id: 'O-1', creation_date: '2026-01-10T10:00:00Z' });
    await server.client.post('/carts/realtime', { ...base, id: 12, code: 'B', customer_id: 1, location_id: 6, creation_date: '2026-02-10T10:00:00Z' });
    await server.client.post('/carts/realtime', { ...base, id: 13, customer_id: 2, location_id: 5, creation_date: '2026-03-10T10:00:00Z' });
    await server.client.post('/carts/realtime', { ...base, id: 14, creation_date: '2026-03-11T10:00:00Z' });
  });
  afterAll(async () => {
    await server.dispose();
  });

  it('filters by customer, location, order, dates, id, code and country', async () => {
    expect(ids(await server.client.get('/carts'))).toEqual([11, 12, 13, 14]);
    expect(ids(await server.client.get('/carts', { query: { customer_id: '1' } }))).toEqual([11, 12]);
    expect(ids(await server.client.get('/carts', { query: { customer_code: 'ONE' } }))).toEqual([11, 12]);
    expect(ids(await server.client.get('/carts', { query: { customer_code: 'NOBODY' } }))).toEqual([]);
    expect(ids(await server.client.get('/carts', { query: { location_id: '5' } }))).toEqual([11, 13]);
    expect(ids(await server.client.get('/carts', { query: { order_id: 'O-1' } }))).toEqual([11]);
    expect(ids(await server.client.get('/carts', { query: { from_date: '2026-02-01', to_date: '2026-03-10' } }))).toEqual([12, 13]);
    expect(ids(await server.client.get('/carts', { query: { id: '13' } }))).toEqual([13]);
    expect(ids(await server.client.get('/carts', { query: { code: 'B' } }))).toEqual([12]);
    expect(ids(await server.client.get('/carts', { query: { country: 'FR' } }))).toEqual([13]);
    expect(ids(await server.client.get('/carts', { query: { countries: 'ES,FR' } }))).toEqual([11, 12, 13]);
    // Read in every form the other lists read it (docs/http.md, Lists in the query): countries[]=FR was no filter.
    expect(ids(await server.client.get('/carts', { query: { 'countries[]': 'FR' } }))).toEqual([13]);
  });

  it('id and code find their one cart, kept only when it passes the other filters', async () => {
    const cases: [Record<string, string>, number[]][] = [
      [{ id: '11', customer_code: 'ONE' }, [11]],
      [{ id: '13', customer_code: 'ONE' }, []],
      [{ code: 'A', customer_id: '2' }, []],
      [{ code: 'A', location_id: '5', order_id: 'O-1', from_date: '2026-01-10', to_date: '2026-01-10', country: 'ES' }, [11]],
      [{ code: 'B', from_date: '2026-03-01' }, []],
      [{ id: '14', country: 'ES' }, []],
      [{ id: '99' }, []],
      [{ code: 'NONE' }, []],
      [{ id: '12', customer_code: 'NOBODY' }, []],
    ];
    for (const [query, expected] of cases) {
      const res = await server.client.get('/carts', { query });
      expect([res.status, ids(res)], JSON.stringify(query)).toEqual([200, expected]);
      expect(res.body.next_token_starts_after).toBeUndefined();
    }
  });

  it('pages with per_page and starting_after', async () => {
    const first = await server.client.get('/carts', { query: { per_page: '3' } });
    expect(ids(first)).toEqual([11, 12, 13]);
    const second = await server.client.get('/carts', { query: { per_page: '3', starting_after: first.body.next_token_starts_after } });
    expect(ids(second)).toEqual([14]);
    expect(second.body.next_token_starts_after).toBeUndefined();
  });

  it("a page token goes on only in the list that issued it: another customer's, the unfiltered list or the reverse is 400", async () => {
    const ofOne = await server.client.get('/carts', { query: { customer_id: '1', per_page: '1' } });
    const token = ofOne.body.next_token_starts_after;
    expect(ids(await server.client.get('/carts', { query: { customer_id: '1', per_page: '1', starting_after: token } }))).toEqual([12]);
    const unfiltered = (await server.client.get('/carts', { query: { per_page: '1' } })).body.next_token_starts_after;
    const refused = { status: 400, body: { code: 'invalid_request', error: 'starting_after: is not a token returned by this list' } };
    for (const query of [{ starting_after: token }, { customer_id: '2', starting_after: token }, { customer_id: '1', starting_after: unfiltered }] as Record<string, string>[]) {
      const res = await server.client.get('/carts', { query });
      expect({ status: res.status, body: res.body }, JSON.stringify(query)).toEqual(refused);
    }
  });

  it('refuses exclusive filters together with 400 naming the field', async () => {
    const cases: [Record<string, string>, string][] = [
      [{ id: '11', code: 'A' }, 'code'],
      [{ customer_id: '1', location_id: '5' }, 'location_id'],
      [{ customer_id: '1', customer_code: 'ONE' }, 'customer_code'],
      [{ associate_id: '3', customer_id: '1' }, 'customer_id'],
      [{ country: 'ES', countries: 'FR' }, 'countries'],
      [{ country: 'es' }, 'country'],
      [{ countries: 'ES,fr' }, 'countries'],
      [{ country: 'ES', 'countries[]': 'FR' }, 'countries'],
      [{ from_date: '2026-13-01' }, 'from_date'],
    ];
    for (const [query, field] of cases) {
      const res = await server.client.get('/carts', { query });
      expect(res.status, JSON.stringify(query)).toBe(400);
      expect(res.body.error).toMatch(new RegExp(`^${field}`));
    }
  });
});

/**
 * A server of its own whose Company is in `timezone`, holding one realtime cart for each [id, creation_date]
 * (explicit creation dates: any time of day); `ids` lists GET /carts' ids for a query.
 */
function cartsCreatedIn(timezone: string, created: readonly (readonly [number, string])[]) {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ env: { WORKERS: '1' } });
    expect((await server.client.patch('/company', { timezone })).status).toBe(200);
    const base = { total: 1, lines: [{ order: 1, total: 1, quantity: 1 }] };
    for (const [id, creation_date] of created) {
      const res = await server.client.post('/carts/realtime', { ...base, id, creation_date });
      expect(res.status, res.text).toBe(200);
    }
  });
  afterAll(async () => {
    await server.dispose();
  });
  return {
    client: () => server.client,
    ids: async (query: Record<string, string>) => {
      const res = await server.client.get('/carts', { query });
      expect(res.status, res.text).toBe(200);
      return res.body.data.map((c: { id: number }) => c.id);
    },
  };
}

// Carts back-dated before the year 1000 are on the Company's days written as the query's dates are (four digits): its
// local date was written 999-06-01 (and 0000-06-01 as 1-06-01), so to_date 0999-12-31 missed them and from_date
// 1000-01-01 kept them. Europe/Madrid ran on local mean time then (UTC-0:14:44).
describe('GET /carts dates before the year 1000', () => {
  const { ids } = cartsCreatedIn('Europe/Madrid', [
    [31, '0999-06-01T12:00:00Z'], // local 0999-06-01 11:45:16
    [32, '0000-06-01T12:00:00Z'], // local 0000-06-01 11:45:16
    [33, '0005-03-01T00:10:00Z'], // local 0005-02-28 23:55:16
    [34, '1000-01-01T00:20:00Z'], // local 1000-01-01 00:05:16
  ]);

  it("keeps the carts created on the Company's days, years before 1000 and 0000 included", async () => {
    expect(await ids({ from_date: '0999-06-01', to_date: '0999-06-01' })).toEqual([31]);
    expect(await ids({ from_date: '0000-06-01', to_date: '0000-06-01' })).toEqual([32]);
    expect(await ids({ from_date: '0005-02-28', to_date: '0005-02-28' })).toEqual([33]);
    expect(await ids({ to_date: '0999-12-31' })).toEqual([31, 32, 33]);
    expect(await ids({ from_date: '1000-01-01' })).toEqual([34]);
  });
});

// A retailer's dates are its own days: at UTC+14 a cart created at 10:30 UTC on October 31 is a November 1 cart,
// and one created at 10:00 UTC on November 30 is a December 1 cart (explicit creation dates: any time of day).
describe('GET /carts dates in the Company timezone', () => {
  const { ids, client } = cartsCreatedIn('Pacific/Kiritimati', [
    [21, '2026-10-31T09:59:59Z'], // local 2026-10-31 23:59:59
    [22, '2026-10-31T10:30:00Z'], // local 2026-11-01 00:30
    [23, '2026-11-30T09:59:59Z'], // local 2026-11-30 23:59:59
    [24, '2026-11-30T10:00:00Z'], // local 2026-12-01 00:00
    [25, '2026-11-15T12:00:00+14:00'], // sent with an offset: 2026-11-14T22:00:00Z, local 2026-11-15
  ]);

  it("keeps the carts created on the Company's days, both ends included", async () => {
    expect(await ids({ from_date: '2026-11-01', to_date: '2026-11-30' })).toEqual([22, 23, 25]);
    expect(await ids({ from_date: '2026-12-01', to_date: '2026-12-01' })).toEqual([24]);
    expect(await ids({ to_date: '2026-10-31' })).toEqual([21]);
    expect(await ids({ from_date: '2026-11-15', to_date: '2026-11-15' })).toEqual([25]);
    expect(await ids({ from_date: '2026-11-14', to_date: '2026-11-14' })).toEqual([]);
  });

  it("reads the days in the Company's timezone of the query", async () => {
    // UTC-12: every cart above is on the UTC date's previous day.
    expect((await client().patch('/company', { timezone: 'Etc/GMT+12' })).status).toBe(200);
    expect(await ids({ from_date: '2026-10-30', to_date: '2026-10-30' })).toEqual([21, 22]);
    expect(await ids({ from_date: '2026-11-29', to_date: '2026-11-30' })).toEqual([23, 24]);
    expect(await ids({ from_date: '2026-11-14', to_date: '2026-11-14' })).toEqual([25]);
  });
});

// Two writer threads with many carts in flight while the delete commits: carts evaluated before it and written after.
describe('realtime carts racing a soft delete of their customer', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ env: { WORKERS: '2', REALTIME_WORKERS: '2', CART_TASKS_PER_WORKER: '16' } });
    // Reached by every customer's first cart: progress in it, which a delete removes, says a cart was recorded for its customer.
    const challenge = { name: 'First cart', attribute: 'carts', open_to_all: true, structure: [{ level: 1, name: 'One', threshold: 1, points: 5 }] };
    expect((await server.client.post('/challenges', challenge)).status).toBe(200);
  });
  afterAll(async () => {
    await server.dispose();
  });

  it('no cart is recorded for the customer once its delete committed: those evaluated before are written without customer', async () => {
    // The delete lands at a different point of the carts' flow each time.
    for (const id of [1, 2, 3, 4, 5]) {
      expect((await server.client.post('/customers', { id, name: `C${id}`, registration_location_id: 1 })).status).toBe(200);
      const sent = Array.from({ length: 80 }, () => server.client.post('/carts/realtime', cart({ customer_id: id })));
      // Sent once carts are being written: the others are then evaluated, waiting for the write lock, or queued.
      const deleted = Promise.race(sent).then(() => server.client.delete(`/customers/${id}`, { query: { hard: 'false' }, headers: { 'Content-Type': 'application/json' } }));
      const responses = await Promise.all(sent);
      expect((await deleted).status).toBe(200);
      expect(responses.map((r) => r.status)).toEqual(Array(80).fill(200));
      expect((await server.client.get(`/customers/${id}/export`, { query: { search_param: 'id' } })).body.challenges, `customer ${id}`).toEqual([]);
      const recorded = (await server.client.get('/carts', { query: { customer_id: String(id), per_page: '100' } })).body.data.map((c: { id: number }) => c.id);
      expect(recorded.sort()).toEqual(responses.filter((r) => r.body.customer.length > 0).map((r) => r.body.id).sort());
    }
  });
});
