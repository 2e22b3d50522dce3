/**
 * One wording for each kind of bad-input message, whoever finds it (a route, the engine, a schema): two fields
 * sent where one is allowed, `<second>: cannot be sent with <first>`; none of them, `<first>: is required (or
 * <second>)`; one sent without the field it needs, `<missing>: is required with <sent>`; a text too long, `must be at
 * most <n> characters`; a value outside an enum, its values listed; a field that null clears answers what is wrong
 * with the value, never "must be null" (docs/http.md, Errors).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestResponse, type TestServer } from '../testing/server.js';

describe('bad-input messages', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
    expect((await server.client.post('/locations', { id: 1, code: 'BCN', name: 'Barcelona', country: 'ES' })).status).toBe(200);
    expect((await server.client.post('/customers', { id: 1, code: 'C1', name: 'Ann', registration_location_id: 1 })).status).toBe(200);
  });
  afterAll(() => server.dispose());

  const expect400 = (res: TestResponse, error: string) => {
    expect(res.status, res.text).toBe(400);
    expect(res.body).toEqual({ code: 'invalid_request', error });
  };

  it('names the second of two fields sent where one is allowed, the first after "with"', async () => {
    const { client } = server;
    expect400(await client.get('/carts', { query: { id: '1', code: 'T1' } }), 'code: cannot be sent with id');
    expect400(await client.get('/carts', { query: { country: 'ES', countries: 'PT' } }), 'countries: cannot be sent with country');
    expect400(await client.get('/points/transactions', { query: { customer_id: '1', customer_code: 'C1' } }), 'customer_code: cannot be sent with customer_id');
    // POST /points/redeem_cart named the first of the pair.
    expect400(await client.post('/points/redeem_cart', { customer_id: 1, activity_id: 5, activity_code: 'T5', amount: 1 }), 'activity_code: cannot be sent with activity_id');
    expect400(await client.get('/customers/1/attributes', { query: { attribute_type: 'custom', attribute_id: '1' } }), 'attribute_id: cannot be sent with attribute_type');
    expect400(await client.post('/customers', { id: 2, name: 'Bo', registration_location_id: 1, collective_id: 1, collective_slug: 'staff' }), 'collective_slug: cannot be sent with collective_id');
    // The engine's checks, which offline previews run too: cashbacks is checked once, by the engine.
    const cart = { creation_date: '2026-11-20T10:00:00Z', total: 10, lines: [{ order: 1, product_id: 1, total: 10, quantity: 1 }] };
    expect400(await client.post('/carts/simulate', { ...cart, cashback_score_desired: 5, cashbacks: [{ line_order: 1, score: 5 }] }), 'cashbacks: cannot be sent with cashback_score_desired');
    const leaf = { field: 'channel', operator: 'in', value: ['web'], values: ['app'] };
    const campaign = (rule_conditions: unknown) => ({ rule_params: { name: 'Ten off', rule_conditions, rule_effects: [{ type: 'percentage', value: 10 }] } });
    expect400(await client.post('/discounts', campaign({ conditions: { and: [leaf] } })), 'rule_params.rule_conditions.conditions.and[0].values: cannot be sent with rule_params.rule_conditions.conditions.and[0].value');
    expect400(await client.post('/discounts', campaign({ conditions: { and: [], or: [] } })), 'rule_params.rule_conditions.conditions.or: cannot be sent with rule_params.rule_conditions.conditions.and');
  });

  it('names the first of the alternatives when none is sent, the others in brackets', async () => {
    const { client } = server;
    expect400(await client.get('/customers'), 'ids: is required (or phones)');
    expect400(await client.post('/challenges/1/enroll', {}), 'customer_id: is required (or customer_code)');
    expect400(await client.post('/points/redeem_cart', { customer_id: 1, amount: 1 }), 'activity_id: is required (or activity_code)');
    expect400(await client.post('/points/redeem', { amount: 1, comments: 'x' }), 'customer_id: is required (or customer_code)');
    expect400(await client.post('/rewards/1/redeem', { location_id: 1 }), 'customer_id: is required (or customer_code or associate_id)');
    expect400(await client.post('/rewards/1/redeem', { customer_id: 1 }), 'location_id: is required (or location_code)');
  });

  it('names the missing field of one sent without the field it needs, the one sent after "with"', async () => {
    const { client } = server;
    expect400(await client.get('/rewards', { query: { restricted_by: 'tiers' } }), 'customer_id: is required (or customer_code) with restricted_by');
    expect400(await client.get('/rewards', { query: { store: 'usual' } }), 'customer_id: is required (or customer_code) with store');
    expect400(await client.get('/discounts', { query: { selected: 'true' } }), 'customer_id: is required (or customer_code) with selected');
    expect400(await client.post('/trigger', { trigger: 'bonus', customer_id: 1, score_overwrite: 5 }), 'loyalty_rule_id: is required with score_overwrite');
    const prize = { name: 'Mug', description: 'A mug', outcome: { promotion_id: 1 }, weight: 1, stock: -1 };
    const prizeField = 'instant_win.instant_win_prizes[0].outcome';
    expect400(
      await client.post('/instant_wins', { rule_params: { name: 'Scratch card', select_customers: 'loyalty' }, instant_win: { instant_win_prizes: [prize] } }),
      `${prizeField}.promotion_type: is required with ${prizeField}.promotion_id`,
    );
    // The engine's rule compiler, nested fields by their full name.
    const at = 'rule_params.rule_conditions.conditions.and[0]';
    const campaign = (condition: unknown) => ({ rule_params: { name: 'Ten off', rule_conditions: { conditions: { and: [condition] } }, rule_effects: [{ type: 'percentage', value: 10 }] } });
    expect400(await client.post('/discounts', campaign({ array_field: 'lines', conditions: [], operator: 'gte', value: 1 })), `${at}.field: is required with ${at}.operator`);
    expect400(await client.post('/discounts', campaign({ array_field: 'lines', conditions: [], grouped: true })), `${at}.field: is required with ${at}.grouped`);
    expect400(await client.post('/discounts', campaign({ field: 'channel', operator: 'eq' })), `${at}.value: is required`);
    expect400(await client.post('/discounts', campaign({ field: 'channel', operator: 'eq', value: 'web', colour: 'red' })), `${at}.colour: is not an accepted field`);
    expect((await client.get('/discounts')).body.data).toEqual([]);
  });

  it('words a length, a count and an enum one way, whoever checks them, and lists an enum\'s values when few', async () => {
    const { client } = server;
    const long = 'x'.repeat(256);
    // A query reader, the router (a path value), the Idempotency-Key check and a schema's maxLength.
    expect400(await client.get('/carts', { query: { customer_code: long } }), 'customer_code: must be at most 255 characters');
    expect400(await client.get(`/customers/${long}`), 'value: must be at most 255 characters');
    expect400(await client.post('/locations', { id: 2, code: 'MAD', name: 'Madrid', country: 'ES' }, { headers: { 'Idempotency-Key': long } }), 'Idempotency-Key: must be at most 255 characters');
    expect400(await client.post('/locations', { id: 2, code: long, name: 'Madrid', country: 'ES' }), 'code: must be at most 64 characters');
    expect400(await client.post('/locations', { id: 2, code: 'MAD', name: '', country: 'ES' }), 'name: must not be empty');
    const cart = { creation_date: '2026-11-20T10:00:00Z', total: 10, lines: [{ order: 1, product_id: 1, total: 10, quantity: 1 }] };
    expect400(await client.post('/carts/simulate', { ...cart, lines: [] }), 'lines: must not be empty');
    expect400(await client.post('/carts/simulate', { ...cart, coupons_desired: 'some' }), 'coupons_desired: must be one of all, selected');
    expect400(await client.patch('/company', { languages: ['es', 'es'] }), 'languages: must not have duplicate items (items 0 and 1 are identical)');
    // Fifteen event types: too many to list in a message.
    expect400(await client.post('/webhooks', { url: 'https://example.com/hook', events: ['cart.lost'] }), 'events[0]: must be one of the allowed values');
    // An empty text among the values is written as "".
    const prize = { name: 'Mug', description: 'A mug', outcome: { promotion_type: 'coupon', promotion_id: 1 }, weight: 1, stock: -1 };
    expect400(
      await client.post('/instant_wins', { rule_params: { name: 'Scratch card', select_customers: 'loyalty' }, instant_win: { instant_win_prizes: [prize] } }),
      'instant_win.instant_win_prizes[0].outcome.promotion_type: must be one of points, reward, game, ""',
    );
    expect((await client.get('/locations/2')).status).toBe(404);
  });

  it("words a Company's schema's sizes and values as Tally's own (custom event data)", async () => {
    const { client } = server;
    const schema = {
      type: 'object',
      properties: {
        size: { const: 'XL' },
        note: { type: 'string', minLength: 3 },
        tags: { type: 'array', maxItems: 1 },
        extras: { type: 'object', minProperties: 2 },
        level: { enum: [1, 2, null] },
      },
    };
    expect((await client.post('/custom_event_definitions', { slug: 'fitting', schema })).status).toBe(200);
    const send = (data: unknown) => client.post('/custom_events', { customer_id: 1, slug: 'fitting', data });
    expect400(await send({ size: 'L' }), 'data.size: must be XL');
    expect400(await send({ note: 'ok' }), 'data.note: must be at least 3 characters');
    expect400(await send({ tags: ['a', 'b'] }), 'data.tags: must have at most 1 item');
    expect400(await send({ extras: { a: 1 } }), 'data.extras: must have at least 2 fields');
    expect400(await send({ level: 3 }), 'data.level: must be one of 1, 2, null');
    expect((await client.get('/custom_events', { query: { customer_id: '1' } })).body.data).toEqual([]);
  });

  it('answers what is wrong with the value of a field that null clears, not "must be null", and of any alternatives', async () => {
    const { client } = server;
    expect400(await client.patch('/customers/1', { surname_1: 'x'.repeat(256) }), 'surname_1: must be at most 255 characters');
    expect400(await client.patch('/customers/1', { code: 5 }), 'code: must be string or null');
    expect400(await client.patch('/customers/1', { email_unsubscribe: 'yes' }), 'email_unsubscribe: must be boolean or null');
    // The alternative is a $ref to another document (company_data#/$defs/code).
    expect400(await client.patch('/locations/1', { code: 5 }), 'code: must be string or null');
    // A type union (`["integer", "null"]`), as the answers write alternatives.
    expect400(await client.post('/rewards', { name: 'Mug', points: 1, type: 'physical', total_stock: 'many' }), 'total_stock: must be integer or null');
    // Any anyOf or oneOf: the alternative that failed inside the value answers, else the types are listed.
    const cart = { creation_date: '2026-11-20T10:00:00Z', total: 10, lines: [{ order: 1, product_id: 1, total: 10, quantity: 1 }] };
    expect400(await client.post('/carts/simulate', { ...cart, coupons_desired: [5] }), 'coupons_desired[0]: must be string');
    expect400(await client.post('/carts/simulate', { ...cart, attributes: { size: { cm: 3 } } }), 'attributes.size: must be string, number, boolean or null');
    // Nothing was changed by the refused updates.
    expect((await client.get('/customers/1', { query: { search_param: 'id' } })).body).toMatchObject({ code: 'C1' });
    expect((await client.get('/locations/1')).body).toMatchObject({ code: 'BCN' });
  });

  it('states the range of an integer beyond 2^53 declared in a $ref\'d document, and only for a number field', async () => {
    const { client } = server;
    // rewards.create is `allOf: [{$ref: rewards.params#/$defs/reward}]`: the bounds are that document's.
    expect400(await client.post('/rewards', '{"name": "Mug", "points": 9223372036854775807, "type": "physical"}'), 'points: is out of range: must be 0..2147483647');
    expect400(await client.post('/rewards', '{"name": "Mug", "points": 1, "type": "physical", "total_stock": 9223372036854775807}'), 'total_stock: is out of range: must be 0..2147483647');
    // A big number where text is wanted is a type error, not a range.
    expect400(await client.patch('/customers/1', '{"surname_1": 9223372036854775807}'), 'surname_1: must be string or null');
    expect((await client.get('/rewards')).body.data).toEqual([]);
  });
});
