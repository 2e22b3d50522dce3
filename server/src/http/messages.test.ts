/**
 * One wording for each kind of bad-input message, whoever finds it (a route, the engine, a schema): two fields
 * sent where one is allowed, `<second>: cannot be sent with <first>`; none of them, `<first>: is required (or
 * <second>)`; one sent without the field it needs, `<missing>: is required with <sent>`; a text too long, `must be at
 * most <n> characters`; a value outside an enum, its values listed; a type, each with its article and null last
 * (`must be a string or null`); a format or a pattern in words (`must be an email address`); alternatives of an
 * anyOf/oneOf by what they take; a field that null clears answers what is wrong with the value, never "must be
 * null"; a number's range stated whole, in words (`must be an integer between 1 and 2147483647`) (docs/http.md,
 * Errors).
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
    // A recurrence that needs its days, named with the value that needs them.
    const recurrence = (fields: Record<string, unknown>) => ({ rule_params: { name: 'Ten off', rule_effects: [{ type: 'percentage', value: 10 }], ...fields } });
    expect400(await client.post('/discounts', recurrence({ recurrence_type: 'weekly' })), 'rule_params.recurrence_days: is required with rule_params.recurrence_type weekly');
    expect400(await client.post('/discounts', recurrence({ recurrence_type: 'monthly', recurrence_days: [] })), 'rule_params.recurrence_days: must not be empty');
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
        fit: { type: 'object', dependencies: { chest: ['waist'] } },
        legacy: false,
        made: { type: 'string', format: 'date', formatMaximum: '2026-12-31' },
        pair: { type: 'array', items: [{ type: 'string' }], minItems: 1, additionalItems: false },
      },
    };
    expect((await client.post('/custom_event_definitions', { slug: 'fitting', schema })).status).toBe(200);
    const send = (data: unknown) => client.post('/custom_events', { customer_id: 1, slug: 'fitting', data });
    expect400(await send({ size: 'L' }), 'data.size: must be XL');
    expect400(await send({ note: 'ok' }), 'data.note: must be at least 3 characters');
    expect400(await send({ tags: ['a', 'b'] }), 'data.tags: must have at most 1 item');
    expect400(await send({ extras: { a: 1 } }), 'data.extras: must have at least 2 fields');
    expect400(await send({ level: 3 }), 'data.level: must be one of 1, 2, null');
    // A field that needs another, as the routes word it; a field the schema refuses; a format's bound; a tuple's size.
    expect400(await send({ fit: { chest: 90 } }), 'data.fit.waist: is required with data.fit.chest');
    expect400(await send({ legacy: 1 }), 'data.legacy: is not accepted');
    expect400(await send({ made: '2027-01-01' }), 'data.made: must be on or before 2026-12-31');
    expect400(await send({ pair: ['a', 'b'] }), 'data.pair: must have at most 1 item');
    expect((await client.get('/custom_events', { query: { customer_id: '1' } })).body.data).toEqual([]);
  });

  it('answers what is wrong with the value of a field that null clears, not "must be null", and of any alternatives', async () => {
    const { client } = server;
    expect400(await client.patch('/customers/1', { surname_1: 'x'.repeat(256) }), 'surname_1: must be at most 255 characters');
    expect400(await client.patch('/customers/1', { code: 5 }), 'code: must be a string or null');
    expect400(await client.patch('/customers/1', { email_unsubscribe: 'yes' }), 'email_unsubscribe: must be a boolean or null');
    // The alternative is a $ref to another document (company_data#/$defs/code).
    expect400(await client.patch('/locations/1', { code: 5 }), 'code: must be a string or null');
    // A type union (`["integer", "null"]`), as the answers write alternatives.
    expect400(await client.post('/rewards', { name: 'Mug', points: 1, type: 'physical', total_stock: 'many' }), 'total_stock: must be an integer or null');
    // A text of the alternative's type answers for it; a value of no alternative's type lists them, null last.
    expect400(await client.patch('/customers/1', { code: 'a b' }), 'code: must be a slug (letters, digits, underscores, hyphens)');
    expect400(await client.patch('/customers/1', { birth: 'soon' }), 'birth: must be a date YYYY-MM-DD');
    expect400(await client.patch('/customers/1', { birth: 5 }), 'birth: must be a date YYYY-MM-DD or null');
    expect400(await client.patch('/customers/1', { registration_location_id: true }), 'registration_location_id: must be an integer between 1 and 9223372036854775807 or null');
    // Any anyOf or oneOf: the alternative that failed inside the value answers, else the types are listed.
    const cart = { creation_date: '2026-11-20T10:00:00Z', total: 10, lines: [{ order: 1, product_id: 1, total: 10, quantity: 1 }] };
    expect400(await client.post('/carts/simulate', { ...cart, coupons_desired: [5] }), 'coupons_desired[0]: must be a string');
    expect400(await client.post('/carts/simulate', { ...cart, attributes: { size: { cm: 3 } } }), 'attributes.size: must be a string, a number, a boolean or null');
    // Nothing was changed by the refused updates.
    expect((await client.get('/customers/1', { query: { search_param: 'id' } })).body).toMatchObject({ code: 'C1' });
    expect((await client.get('/locations/1')).body).toMatchObject({ code: 'BCN' });
  });

  it('states the range of an integer beyond 2^53 declared in a $ref\'d document, and only for a number field', async () => {
    const { client } = server;
    // An int64 of the contract that Tally bounds (docs/decisions.md): the range, not "must be integer".
    expect400(await client.post('/points/redeem_cart', '{"activity_id": 1, "customer_id": 1, "location_id": 1, "amount": 9223372036854775807}'), 'amount: must be an integer between 1 and 2147483647');
    // rewards.create is `allOf: [{$ref: rewards.params#/$defs/reward}]`: the bounds are that document's.
    expect400(await client.post('/rewards', '{"name": "Mug", "points": 9223372036854775807, "type": "physical"}'), 'points: must be an integer between 0 and 2147483647');
    expect400(await client.post('/rewards', '{"name": "Mug", "points": 1, "type": "physical", "total_stock": 9223372036854775807}'), 'total_stock: must be an integer between 0 and 2147483647');
    // A big number where text is wanted is a type error, not a range.
    expect400(await client.patch('/customers/1', '{"surname_1": 9223372036854775807}'), 'surname_1: must be a string or null');
    expect((await client.get('/rewards')).body.data).toEqual([]);
  });

  it('names each type with its article, whoever checks it (a schema, a route, the engine), and lists types null last', async () => {
    const { client } = server;
    const location = { id: 2, code: 'MAD', name: 'Madrid', country: 'ES' };
    const cart = { creation_date: '2026-11-20T10:00:00Z', total: 10, lines: [{ order: 1, product_id: 1, total: 10, quantity: 1 }] };
    const params = (fields: Record<string, unknown>) => ({ rule_params: { name: 'Ten off', rule_effects: [{ type: 'percentage', value: 10 }], ...fields } });
    expect400(await client.post('/locations', { ...location, name: 5 }), 'name: must be a string');
    expect400(await client.post('/rewards', { name: 'Mug', points: 'many', type: 'physical' }), 'points: must be an integer');
    expect400(await client.post('/carts/simulate', { ...cart, total: 'ten' }), 'total: must be a number');
    expect400(await client.post('/discounts', params({ active: 'yes' })), 'rule_params.active: must be a boolean or null');
    expect400(await client.post('/discounts', { rule_params: 5 }), 'rule_params: must be an object');
    expect400(await client.post('/discounts', params({ recurrence_days: 5 })), 'rule_params.recurrence_days: must be an array or null');
    expect((await client.post('/custom_event_definitions', { slug: 'nothing', schema: { type: 'object', properties: { none: { type: 'null' } } } })).status).toBe(200);
    expect400(await client.post('/custom_events', { customer_id: 1, slug: 'nothing', data: { none: 0 } }), 'data.none: must be null');
    // More than two types, null last; a route's check of the body and the engine's of a rule word the same faults alike.
    expect400(await client.post('/discounts', params({ rule_conditions: 5 })), 'rule_params.rule_conditions: must be an object, an array, a string or null');
    expect400(await client.post('/locations', '[1]'), 'body: must be an object');
    const at = 'rule_params.rule_conditions.conditions.and[0]';
    expect400(await client.post('/discounts', params({ rule_conditions: { conditions: { and: [{ field: 5, operator: 'eq', value: 'web' }] } } })), `${at}.field: must be a string`);
    expect400(await client.post('/discounts', params({ rule_conditions: { conditions: { and: {} } } })), 'rule_params.rule_conditions.conditions.and: must be an array');
    expect((await client.get('/discounts')).body.data).toEqual([]);
    expect((await client.get('/locations/2')).status).toBe(404);
  });

  it('words each format a Company\'s schema may use, as Tally words the same check of its own fields', async () => {
    const { client } = server;
    // format, a value it refuses, the message: every ajv-formats format that can fail (float, double, password and
    // binary take any value of their type; url is refused in a Company's schema).
    const formats: [string, unknown, string][] = [
      ['date', '2026-02-30', 'must be a date YYYY-MM-DD'],
      ['time', '10:00:00', 'must be a time (hh:mm:ssZ or with an offset such as -0500)'],
      ['date-time', '2026-11-20T10:00:00', 'must be an ISO 8601 datetime (YYYY-MM-DDThh:mm:ssZ or with an offset such as -0500)'],
      ['iso-time', '10:00', 'must be a time (hh:mm:ss, optionally with Z or an offset such as -0500)'],
      ['iso-date-time', '2026-11-20', 'must be an ISO 8601 datetime (YYYY-MM-DDThh:mm:ss, optionally with Z or an offset such as -0500)'],
      ['duration', '1 day', 'must be an ISO 8601 duration (such as P1D or PT1H30M)'],
      ['uri', '/relative', 'must be an absolute URI (such as https://example.com/page)'],
      ['uri-reference', 'a b', 'must be a URI or a relative reference'],
      ['uri-template', '{unclosed', 'must be a URI template (RFC 6570)'],
      ['email', 'ann', 'must be an email address'],
      ['hostname', '-bad', 'must be a hostname'],
      ['ipv4', '256.1.1.1', 'must be an IPv4 address'],
      ['ipv6', 'gggg::1', 'must be an IPv6 address'],
      ['regex', '(', 'must be a regular expression'],
      ['uuid', '1234', 'must be a UUID'],
      ['json-pointer', 'a/b', 'must be a JSON pointer (such as /a/0)'],
      ['json-pointer-uri-fragment', '/a', 'must be a JSON pointer URI fragment (such as #/a/0)'],
      ['relative-json-pointer', '/a', 'must be a relative JSON pointer (such as 1/a)'],
      ['byte', 'not base64!', 'must be base64-encoded bytes'],
      ['int32', 3000000000, 'must be an integer between -2147483648 and 2147483647'],
      ['int64', 1.5, 'must be an integer'],
    ];
    const properties = Object.fromEntries(formats.map(([format]) => [format, { format }]));
    expect((await client.post('/custom_event_definitions', { slug: 'formats', schema: { type: 'object', properties } })).status).toBe(200);
    for (const [format, value, message] of formats) {
      expect400(await client.post('/custom_events', { customer_id: 1, slug: 'formats', data: { [format]: value } }), `data.${format}: ${message}`);
    }
    // Tally's own checks of a date, a datetime and an email address: the same words.
    const cart = { creation_date: '2026-11-20T10:00:00Z', total: 10, lines: [{ order: 1, product_id: 1, total: 10, quantity: 1 }] };
    expect400(await client.patch('/customers/1', { birth: '2026-02-30' }), 'birth: must be a date YYYY-MM-DD');
    expect400(await client.post('/carts/simulate', { ...cart, creation_date: '2026-11-20 10:00' }), 'creation_date: must be an ISO 8601 datetime (YYYY-MM-DDThh:mm:ssZ or with an offset such as -0500)');
    expect400(await client.patch('/customers/1', { email: 'ann' }), 'email: must be an email address');
    const transfer = { from_customer_id: 1, to_customer_id: 2, score: 1 };
    expect400(await client.post('/points/transfer', transfer, { headers: { 'X-Author-Email': 'ann' } }), 'X-Author-Email: must be an email address');
    expect((await client.get('/custom_events', { query: { customer_id: '1' } })).body.data).toEqual([]);
  });

  it('words each pattern of the schemas by what it means (patternDescription), and any other by the pattern', async () => {
    const { client } = server;
    const customer = { id: 2, name: 'Bo', registration_location_id: 1 };
    expect400(await client.post('/customers', { ...customer, code: 'B 2' }), 'code: must be a slug (letters, digits, underscores, hyphens)');
    // The slug wire type says the same of the same form.
    expect400(await client.patch('/customers/1', { collective_slug: 'B 2' }), 'collective_slug: must be a slug (letters, digits, underscores, hyphens)');
    expect400(await client.post('/customers', { ...customer, email: 'bo' }), 'email: must be an email address');
    expect400(await client.post('/customers', { ...customer, phone: 'none' }), 'phone: must be a phone number (4 to 30 digits, spaces, brackets and hyphens)');
    expect400(await client.patch('/customers/1', { phone_prefix: '0034x' }), 'phone_prefix: must be a phone prefix (1 to 4 digits, optionally after a +)');
    expect400(await client.patch('/customers/1', { preferred_language: 'EN' }), 'preferred_language: must be an ISO 639-1 code in lower case');
    expect400(await client.post('/products', { id: 1, name: 'Mug', ean: '123' }), 'ean: must be an EAN (8 to 14 digits)');
    const location = { id: 2, code: 'MAD', name: 'Madrid', country: 'ES' };
    expect400(await client.post('/locations', { ...location, name: 'Mad\u0007rid' }), 'name: must be a text without control characters (U+0000-U+001F, U+007F)');
    expect400(await client.post('/locations', { ...location, country: 'es' }), 'country: must be an ISO 3166-1 alpha-2 code in capitals');
    // A query's country filter names the value, as a list's items are named (`countries=ES,fr`): one check, countryCode.
    expect400(await client.get('/challenges', { query: { country: 'es' } }), 'country: es is not an ISO 3166-1 alpha-2 code in capitals');
    expect400(await client.get('/carts', { query: { country: 'es' } }), 'country: es is not an ISO 3166-1 alpha-2 code in capitals');
    expect400(await client.post('/locations', { ...location, code: 'MAD/1' }), 'code: must be a text without control characters (U+0000-U+001F, U+007F) or /');
    // DEL too, as names refuse it: codes go into carts and receipts.
    expect400(await client.post('/products', { id: 77, name: 'P', code: 'P\u007f' }), 'code: must be a text without control characters (U+0000-U+001F, U+007F) or /');
    const cart = { creation_date: '2026-11-20T10:00:00Z', total: 10, lines: [{ order: 1, product_id: 1, total: 10, quantity: 1 }] };
    expect400(await client.post('/carts/simulate', { ...cart, currency: 'eur' }), 'currency: must be an ISO 4217 code in capitals');
    const params = (fields: Record<string, unknown>) => ({ rule_params: { name: 'Ten off', rule_effects: [{ type: 'percentage', value: 10 }], ...fields } });
    expect400(await client.post('/discounts', params({ budget_value: '1,5' })), 'rule_params.budget_value: must be a decimal number as text (up to 12 digits, optionally a point and up to 12 more)');
    expect400(await client.post('/webhooks', { url: 'ftp://example.com/hook', events: ['cart.created'] }), 'url: must be an http or https URL');
    // A key that propertyNames refuses is named as an unknown field is, with what a key must be.
    expect400(await client.post('/discounts', params({ name: { EN: 'Ten off' } })), 'rule_params.name.EN: is not an accepted field (a key must be an ISO 639-1 code in lower case)');
    // A Company's pattern: its own description when it gives one, else the pattern itself.
    const schema = { type: 'object', properties: { ref: { type: 'string', pattern: '^R[0-9]+$' }, sku: { type: 'string', pattern: '^S[0-9]+$', patternDescription: 'an S and digits' } } };
    expect((await client.post('/custom_event_definitions', { slug: 'patterns', schema })).status).toBe(200);
    expect400(await client.post('/custom_events', { customer_id: 1, slug: 'patterns', data: { ref: 'X1' } }), 'data.ref: must match the pattern ^R[0-9]+$');
    expect400(await client.post('/custom_events', { customer_id: 1, slug: 'patterns', data: { sku: 'X1' } }), 'data.sku: must be an S and digits');
    expect((await client.get('/customers/2', { query: { search_param: 'id' } })).status).toBe(404);
    expect((await client.get('/locations/2')).status).toBe(404);
    expect((await client.get('/discounts')).body.data).toEqual([]);
  });

  it('names what the alternatives of an anyOf or oneOf take, not "must match a schema in anyOf"', async () => {
    const { client } = server;
    const params = (fields: Record<string, unknown>) => ({ rule_params: { name: 'Ten off', rule_effects: [{ type: 'percentage', value: 10 }], ...fields } });
    // Two wire types (a date or a datetime): a text of neither, or a value of neither type, lists both.
    const when = 'must be a date YYYY-MM-DD or an ISO 8601 datetime (YYYY-MM-DDThh:mm:ssZ or with an offset such as -0500)';
    expect400(await client.post('/discounts', params({ available_from: 'soon' })), `rule_params.available_from: ${when}`);
    // A value of neither type lists every alternative, null (which removes the field) last.
    expect400(
      await client.post('/discounts', params({ available_to: 20261120 })),
      'rule_params.available_to: must be a date YYYY-MM-DD, an ISO 8601 datetime (YYYY-MM-DDThh:mm:ssZ or with an offset such as -0500) or null',
    );
    // A number or a decimal text: the one of the value's type answers; a value of neither type lists both types.
    expect400(await client.post('/discounts', params({ budget_value: -1 })), 'rule_params.budget_value: must be a number between 0 and 90071992547409');
    expect400(await client.post('/discounts', params({ budget_value: true })), 'rule_params.budget_value: must be a number, a string or null');
    // A text or a text per language.
    expect400(await client.post('/discounts', params({ description: 5 })), 'rule_params.description: must be a string, an object or null');
    expect400(await client.post('/discounts', params({ name: {} })), 'rule_params.name: must not be empty');
    // An enum or an array (a oneOf): a text outside the enum gets its values, a value of neither kind everything.
    const cart = { creation_date: '2026-11-20T10:00:00Z', total: 10, lines: [{ order: 1, product_id: 1, total: 10, quantity: 1 }] };
    expect400(await client.post('/carts/simulate', { ...cart, coupons_desired: 'some' }), 'coupons_desired: must be one of all, selected');
    expect400(await client.post('/carts/simulate', { ...cart, coupons_desired: 5 }), 'coupons_desired: must be all, selected or an array');
    // A Company's schema: alternatives of one type listed by format; a oneOf more than one alternative holds.
    const schema = {
      type: 'object',
      properties: {
        contact: { anyOf: [{ type: 'string', format: 'email' }, { type: 'string', format: 'uuid' }] },
        amount: { oneOf: [{ type: 'integer' }, { type: 'number', multipleOf: 0.5 }] },
      },
    };
    expect((await client.post('/custom_event_definitions', { slug: 'either', schema })).status).toBe(200);
    const send = (data: unknown) => client.post('/custom_events', { customer_id: 1, slug: 'either', data });
    expect400(await send({ contact: 'ann' }), 'data.contact: must be an email address or a UUID');
    expect400(await send({ amount: 2 }), 'data.amount: must match exactly one alternative (it matches alternatives 1 and 2)');
    expect400(await send({ amount: 0.3 }), 'data.amount: must be a multiple of 0.5');
    expect((await client.get('/discounts')).body.data).toEqual([]);
    expect((await client.get('/custom_events', { query: { customer_id: '1' } })).body.data).toEqual([]);
  });

  it("states a number's range one way, whoever checks it, whichever bound fails, and a date's in words of time", async () => {
    const { client } = server;
    const cart = { creation_date: '2026-11-20T10:00:00Z', total: 10, lines: [{ order: 1, product_id: 1, total: 10, quantity: 1 }] };
    const params = (fields: Record<string, unknown>) => ({ rule_params: { name: 'Ten off', rule_effects: [{ type: 'percentage', value: 10 }], ...fields } });
    // A schema's minimum and maximum: the field's whole range, from its schema, not ajv's `must be >= 1` alone.
    expect400(await client.post('/rewards', { name: 'Mug', points: -1, type: 'physical' }), 'points: must be an integer between 0 and 2147483647');
    expect400(await client.post('/carts/simulate', { ...cart, cashbacks: [{ line_order: 1, score: 0 }] }), 'cashbacks[0].score: must be an integer between 1 and 2147483647');
    expect400(await client.post('/carts/simulate', { ...cart, cashbacks: [{ line_order: 1, score: 2147483648 }] }), 'cashbacks[0].score: must be an integer between 1 and 2147483647');
    // Beyond 2^53 (a bigint): the schema's bounds; where it sets none, what a number field holds exactly.
    expect400(await client.post('/carts/simulate', { ...cart, lines: [{ ...cart.lines[0], order: 9007199254740993n }] }), 'lines[0].order: must be an integer between 1 and 2147483647');
    expect400(await client.post('/carts/simulate', { ...cart, returns: [{ line_order: 1, quantity: 9223372036854775807n }] }), 'returns[0].quantity: must be a number between -9007199254740991 and 9007199254740991 other than 0');
    // A line's quantity: a number other than 0 (the engine divides the total by it), one wording whichever check
    // fails, the schema's bounds or its `not: {const: 0}` (the engine's words for raw carts too).
    const quantity = 'lines[0].quantity: must be a number between -9007199254740991 and 9007199254740991 other than 0';
    for (const value of [0, 1e300, -1e300, 9223372036854775807n, -9007199254740992n]) {
      expect400(await client.post('/carts/simulate', { ...cart, lines: [{ ...cart.lines[0], quantity: value }] }), quantity);
    }
    expect400(await client.post('/carts/simulate', { ...cart, lines: [{ ...cart.lines[0], quantity: 'x' }] }), 'lines[0].quantity: must be a number');
    // Money (common#/$defs/money): the amounts whose cents stay exact, one range whichever bound fails, beyond 2^53
    // too, in the words of the engine's toCents; a budget or a reward's extra money from 0 (a number or a decimal text).
    const amount = 'must be a number between -90071992547409 and 90071992547409';
    for (const total of [1e14, -1e14, 1e300, 9223372036854775807n]) expect400(await client.post('/carts/simulate', { ...cart, total }), `total: ${amount}`);
    expect400(await client.post('/carts/simulate', { ...cart, lines: [{ ...cart.lines[0], total: 1e300 }] }), `lines[0].total: ${amount}`);
    expect400(await client.post('/carts/simulate', { ...cart, additional_costs: { shipping: 1e14 } }), `additional_costs.shipping: ${amount}`);
    expect400(await client.post('/carts/simulate', { ...cart, payments: [{ amount: 10, change: -1e300 }] }), `payments[0].change: ${amount}`);
    for (const budget_value of [-0.5, 1e14, 1e300]) {
      expect400(await client.post('/discounts', params({ budget_value })), 'rule_params.budget_value: must be a number between 0 and 90071992547409');
    }
    expect400(await client.post('/rewards', { name: 'Mug', points: 1, type: 'physical', extra_money: 1e14 }), 'extra_money: must be a number between 0 and 90071992547409');
    // The bound itself is an amount, as it was.
    const largest = 90071992547409;
    const simulated = await client.post('/carts/simulate', { ...cart, total: largest, original_total: largest, lines: [{ ...cart.lines[0], total: largest }] });
    expect(simulated.status).toBe(200);
    expect(simulated.body.total).toBe(largest);
    // A Company's schema: a minimum only, a maximum only, exclusive bounds (an integer's said as the inclusive ones
    // they mean), and the bounds of a date.
    const schema = {
      type: 'object',
      properties: {
        visits: { type: 'integer', minimum: 1 },
        rating: { type: 'integer', maximum: 10 },
        share: { type: 'number', exclusiveMaximum: 1 },
        weight: { type: 'number', exclusiveMinimum: 0, maximum: 5 },
        level: { type: 'integer', exclusiveMinimum: 0, exclusiveMaximum: 10 },
        made: { type: 'string', format: 'date', formatMinimum: '2026-01-01', formatMaximum: '2026-12-31' },
        sold: { type: 'string', format: 'date', formatExclusiveMinimum: '2026-01-01' },
      },
    };
    expect((await client.post('/custom_event_definitions', { slug: 'ranges', schema })).status).toBe(200);
    const send = (data: unknown) => client.post('/custom_events', { customer_id: 1, slug: 'ranges', data });
    expect400(await send({ visits: 0 }), 'data.visits: must be an integer of at least 1');
    expect400(await send({ rating: 11 }), 'data.rating: must be an integer of at most 10');
    expect400(await send({ share: 1 }), 'data.share: must be a number less than 1');
    expect400(await send({ weight: 0 }), 'data.weight: must be a number greater than 0 and at most 5');
    expect400(await send({ weight: 5.5 }), 'data.weight: must be a number greater than 0 and at most 5');
    expect400(await send({ level: 10 }), 'data.level: must be an integer between 1 and 9');
    expect400(await send({ made: '2025-12-31' }), 'data.made: must be between 2026-01-01 and 2026-12-31');
    expect400(await send({ sold: '2026-01-01' }), 'data.sold: must be after 2026-01-01');
    // The engine's checks: a cart's (which offline previews run too) and a campaign's.
    expect400(await client.post('/carts/simulate', { ...cart, cashback_score_desired: -2 }), 'cashback_score_desired: must be an integer between -1 and 2147483647');
    // Beyond the range or beyond 2^53: the schema's words, the same.
    expect400(await client.post('/carts/simulate', { ...cart, cashback_score_desired: 2147483648 }), 'cashback_score_desired: must be an integer between -1 and 2147483647');
    expect400(await client.post('/carts/simulate', { ...cart, cashback_score_desired: 1e20 }), 'cashback_score_desired: must be an integer between -1 and 2147483647');
    expect400(await client.post('/carts/simulate', { ...cart, cashback_score_desired: 2.5 }), 'cashback_score_desired: must be an integer');
    expect400(
      await client.post('/discounts', params({ rule_effects: [{ type: 'percentage', value: 120 }] })),
      'rule_params.rule_effects[0].value: must be a number greater than 0 and at most 100',
    );
    expect400(
      await client.post('/discounts', params({ rule_effects: [{ type: 'direct_value', value: -5 }] })),
      'rule_params.rule_effects[0].value: must be a number between 0 and 90071992547409',
    );
    // A route's checks: a query's per_page, a redemption's score_overwrite.
    expect400(await client.get('/discounts', { query: { per_page: '0' } }), 'per_page: must be an integer between 1 and 100');
    const reward = await client.post('/rewards', { name: 'Mug', points: 1, type: 'physical' });
    expect(reward.status, reward.text).toBe(200);
    // Its real range whichever bound fails, as a number or as the string of digits it may also be.
    for (const score_overwrite of [2147483648, 0, '2147483648', '0', 9223372036854775808n, 'many']) {
      const redeem = { customer_id: 1, location_id: 1, score_overwrite };
      expect400(await client.post(`/rewards/${reward.body.id}/redeem`, redeem), 'score_overwrite: must be an integer between 1 and 2147483647');
    }
    expect((await client.get('/discounts')).body.data).toEqual([]);
    expect((await client.get('/custom_events', { query: { customer_id: '1' } })).body.data).toEqual([]);
  });
});
