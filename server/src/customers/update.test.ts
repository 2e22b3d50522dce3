import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cartBody } from '../testing/carts.js';
import { startServer, type TestServer } from '../testing/server.js';

const schema = {
  type: 'object',
  required: ['level'],
  properties: {
    level: { type: 'string', enum: ['bronze', 'silver', 'gold'] },
    age: { type: 'integer', minimum: 0 },
    Pets: { type: 'integer' },
    note: { type: 'string' },
    nickname: { type: ['string', 'null'] },
    ratio: { type: 'number' },
    tag: { type: 'string', pattern: '^(a+)+$' },
    ...Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`a${i}`, { type: 'string' }])),
  },
};

describe('updating customers and their attributes', () => {
  let server: TestServer;
  const get = async (id: number | string) => (await server.client.get(`/customers/${id}`, { query: { search_param: 'id' } })).body;
  const create = (body: Record<string, unknown>) => server.client.post('/customers', { name: 'N', registration_location_id: 1, ...body });

  beforeAll(async () => {
    server = await startServer();
    expect((await server.client.patch('/company', { customer_attribute_schema: schema })).status).toBe(200);
  });
  afterAll(() => server.dispose());

  it('validates attributes on create against the schema, discarding undefined properties', async () => {
    const missing = await create({ id: 1, attributes: { age: 3 } });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatch(/^attributes\.level: /);
    const wrongType = await create({ id: 1, attributes: { level: 'gold', age: 'old' } });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.error).toMatch(/^attributes\.age: /);
    // Undefined properties are discarded without error, whatever their value (nested ones too: flatness is the defined attributes' rule).
    expect((await create({ id: 1, attributes: { level: 'gold', age: 40, pets: 2, unknown: 'x', shape: { deep: 1 } } })).status).toBe(200);
    // Names are case-sensitive: `pets` is not the schema's `Pets`.
    expect((await get(1)).attributes).toEqual({ level: 'gold', age: 40 });
  });

  // A backtracking engine would take minutes on this pattern (ReDoS), stalling the whole server: the test's timeout is the guard.
  it('matches attribute patterns in time linear in the value', { timeout: 10_000 }, async () => {
    const attack = await create({ id: 9, attributes: { level: 'gold', tag: `${'a'.repeat(40)}!` } });
    expect(attack.status).toBe(400);
    expect(attack.body.error).toBe('attributes.tag: must match the pattern ^(a+)+$');
    expect((await create({ id: 9, attributes: { level: 'gold', tag: 'aaaa' } })).status).toBe(200);
    expect((await get(9)).attributes).toEqual({ level: 'gold', tag: 'aaaa' });
  });

  it('merges attributes on update as a JSON Merge Patch, validating only what is sent', async () => {
    await create({ id: 2, attributes: { level: 'silver', age: 30, note: 'hi' } });
    const res = await server.client.patch('/customers/2', { attributes: { age: 31, note: null, Pets: 1, ghost: 1, shape: [1, 2] } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'success' });
    expect((await get(2)).attributes).toEqual({ level: 'silver', age: 31, Pets: 1 });
    // `level` is required by the schema but not sent: stored attributes are not re-validated.
    const invalid = await server.client.patch('/customers/2', { attributes: { age: -1 } });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error).toMatch(/^attributes\.age: /);
    expect((await get(2)).attributes.age).toBe(31);
  });

  it('takes integers beyond 2^53 against the schema as numbers and keeps every digit, beyond int64 too', async () => {
    const created = await create({ id: 11, attributes: { level: 'gold', age: 9223372036854775807n } });
    expect(created.status, created.text).toBe(200);
    expect((await get(11)).attributes).toEqual({ level: 'gold', age: 9223372036854775807n });
    const entries = await server.client.get('/customers/11/attributes', { query: { name: 'age' } });
    expect(entries.body.data).toEqual([expect.objectContaining({ name: 'age', value: '9223372036854775807', data_type: 'integer' })]);
    const negative = await server.client.patch('/customers/11', { attributes: { age: -9223372036854775807n } });
    expect(negative.body).toEqual({ code: 'invalid_request', error: 'attributes.age: must be an integer of at least 0' });
    const beyond = await server.client.patch('/customers/11', { attributes: { age: 123456789012345678901234567890n } });
    expect(beyond.status, beyond.text).toBe(200);
    expect((await get(11)).attributes.age).toBe(123456789012345678901234567890n);
    const listed = await server.client.get('/customers/11/attributes', { query: { name: 'age' } });
    expect(listed.body.data).toEqual([expect.objectContaining({ value: '123456789012345678901234567890', data_type: 'integer' })]);
  });

  it('lists a null attribute with data_type null, apart from the text "null"', async () => {
    const created = await create({ id: 13, attributes: { level: 'gold', nickname: null, note: 'null' } });
    expect(created.status, created.text).toBe(200);
    const entries = await server.client.get('/customers/13/attributes');
    expect(entries.body.data.map((e: { name: string; value: string; data_type: string }) => [e.name, e.value, e.data_type])).toEqual([['level', 'gold', 'string'], ['nickname', 'null', 'null'], ['note', 'null', 'string']]);
  });

  it('lists a number beyond 2^53 that is no exact integer (1e308) as a float', async () => {
    expect((await create({ id: 12, attributes: { level: 'gold', ratio: 1e308 } })).status).toBe(200);
    const entries = await server.client.get('/customers/12/attributes', { query: { name: 'ratio' } });
    expect(entries.body.data).toEqual([expect.objectContaining({ name: 'ratio', data_type: 'float' })]);
    // An integer beyond int64 in a number field keeps every digit, as in an integer field (above).
    const beyond = await server.client.patch('/customers/12', { attributes: { ratio: -9223372036854775809n } });
    expect(beyond.status, beyond.text).toBe(200);
    expect((await get(12)).attributes.ratio).toBe(-9223372036854775809n);
  });

  it('refuses nested attributes, more than 50, or more than 10 KB', async () => {
    await create({ id: 3, attributes: { level: 'gold' } });
    const nested = await server.client.patch('/customers/3', { attributes: { note: { deep: 1 } } });
    expect(nested.status).toBe(400);
    expect(nested.body.error).toMatch(/^attributes\.note: /);
    const many = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`a${i}`, 'v']));
    const tooMany = await server.client.patch('/customers/3', { attributes: many });
    expect([tooMany.status, tooMany.body.error]).toEqual([400, 'attributes: must have at most 50 fields']);
    const big = await server.client.patch('/customers/3', { attributes: { note: 'x'.repeat(10 * 1024) } });
    expect(big.status).toBe(400);
    expect(big.body.error).toMatch(/^attributes: /);
    expect((await get(3)).attributes).toEqual({ level: 'gold' });
    const fortyNine = Object.fromEntries(Array.from({ length: 49 }, (_, i) => [`a${i}`, 'v']));
    expect((await server.client.patch('/customers/3', { attributes: fortyNine })).status).toBe(200);
  });

  it('replaces fields, clears them with null, canonicalises email and dni, and sets updated_at', async () => {
    await create({ id: 4, code: 'K4', surname_1: 'Old', city: 'Madrid', attributes: { level: 'gold' } });
    const before = (await get(4)).updated_at;
    await new Promise((r) => setTimeout(r, 1100));
    const res = await server.client.patch('/customers/K4', { surname_1: 'New', city: null, email: 'Mixed@Case.ORG', dni: 'ab12', updated_at: '2000-01-01T00:00:00Z' }, { query: { search_param: 'code' } });
    expect(res.status).toBe(200);
    const after = await get(4);
    expect(after).toMatchObject({ surname_1: 'New', email: 'mixed@case.org', dni: 'AB12' });
    expect(after).not.toHaveProperty('city');
    expect(after.updated_at > before).toBe(true);
    expect((await server.client.get('/customers/mixed@case.org', { query: { search_param: 'email' } })).body.id).toBe(4);
  });

  it('changes creation_date (Update column O), read in UTC; null is refused: a customer always has one', async () => {
    await create({ id: 40, creation_date: '2020-01-01T00:00:00Z', attributes: { level: 'gold' } });
    expect((await server.client.patch('/customers/40', { creation_date: '2019-05-05T10:00:00-0500' })).status).toBe(200);
    expect((await get(40)).creation_date).toBe('2019-05-05T15:00:00Z');
    const cleared = await server.client.patch('/customers/40', { creation_date: null });
    expect(cleared.status).toBe(400);
    expect(cleared.body.error).toMatch(/^creation_date: /);
    expect((await get(40)).creation_date).toBe('2019-05-05T15:00:00Z');
  });

  it('keeps a registration location: one of registration_location_id and registration_location_code may be cleared while the other remains, not both', async () => {
    await create({ id: 41, registration_location_code: 'SHOP-41', attributes: { level: 'gold' } });
    const keepsOne = 'registration_location_id: is required (or registration_location_code): an update cannot clear both';
    const both = await server.client.patch('/customers/41', { name: 'Renamed', registration_location_id: null, registration_location_code: null });
    expect(both.body).toEqual({ code: 'invalid_request', error: keepsOne });
    expect(await get(41)).toMatchObject({ name: 'N', registration_location_id: 1, registration_location_code: 'SHOP-41' });
    // The code remains: the id may go.
    expect((await server.client.patch('/customers/41', { registration_location_id: null })).status).toBe(200);
    expect(await get(41)).not.toHaveProperty('registration_location_id');
    // Now the code is the last one (the stored record decides, not the body).
    const last = await server.client.put('/customers/41', { registration_location_code: null });
    expect(last.body).toEqual({ code: 'invalid_request', error: keepsOne });
    expect((await get(41)).registration_location_code).toBe('SHOP-41');
    // Replaced in the same update: the customer keeps one.
    expect((await server.client.patch('/customers/41', { registration_location_id: 7, registration_location_code: null })).status).toBe(200);
    const after = await get(41);
    expect(after.registration_location_id).toBe(7);
    expect(after).not.toHaveProperty('registration_location_code');
  });

  // Fields naming one thing two ways: the stored one of the pair was kept beside the new one and refused it (collective) or outweighed it (location).
  it('replaces a collective or a registration location sent the other way: the pair\'s stored field goes', async () => {
    await create({ id: 42, collective_slug: 'staff', attributes: { level: 'gold' } });
    expect((await server.client.patch('/customers/42', { collective_id: 12 })).status).toBe(200);
    expect(await get(42)).toMatchObject({ collective_id: 12 });
    expect(await get(42)).not.toHaveProperty('collective_slug');
    expect((await server.client.patch('/customers/42', { collective_slug: 'vip' })).status).toBe(200);
    expect(await get(42)).toMatchObject({ collective_slug: 'vip' });
    expect(await get(42)).not.toHaveProperty('collective_id');
    const both = await server.client.patch('/customers/42', { collective_id: 3, collective_slug: 'staff' });
    expect(both.body).toEqual({ code: 'invalid_request', error: 'collective_slug: cannot be sent with collective_id' });

    for (const location of [{ id: 50, code: 'ES-50', name: 'Madrid', country: 'ES' }, { id: 51, code: 'GB-51', name: 'London', country: 'GB' }]) {
      expect((await server.client.post('/locations', location)).status).toBe(200);
    }
    const international = async () => (await server.client.post('/carts/simulate', cartBody(10, { customer_id: 43, currency: 'EUR' }))).body.international;
    await create({ id: 43, registration_location_id: 51, attributes: { level: 'gold' } });
    expect(await international()).toBe(true);
    expect((await server.client.patch('/customers/43', { registration_location_code: 'ES-50' })).status).toBe(200);
    expect(await get(43)).toMatchObject({ registration_location_code: 'ES-50' });
    expect(await get(43)).not.toHaveProperty('registration_location_id');
    expect(await international()).toBeUndefined();
  });

  it('refuses a registration location id and code naming two stored locations, on create and update; one not stored is taken as sent', async () => {
    const mismatch = { code: 'invalid_request', error: 'registration_location_code: is not the code of location 50' };
    expect((await create({ id: 44, registration_location_id: 50, registration_location_code: 'GB-51', attributes: { level: 'gold' } })).body).toEqual(mismatch);
    expect((await server.client.get('/customers/44', { query: { search_param: 'id' } })).status).toBe(404);
    expect((await create({ id: 44, registration_location_id: 50, registration_location_code: 'ES-50', attributes: { level: 'gold' } })).status).toBe(200);
    const before = await get(44);
    expect((await server.client.patch('/customers/44', { registration_location_id: 50, registration_location_code: 'GB-51' })).body).toEqual(mismatch);
    expect(await get(44)).toEqual(before);
    expect((await server.client.patch('/customers/44', { registration_location_id: 999, registration_location_code: 'GB-51' })).status).toBe(200);
  });

  it('moves the indexes: the old email and code no longer find the customer', async () => {
    await create({ id: 5, code: 'K5', email: 'five@example.com', attributes: { level: 'gold' } });
    await server.client.patch('/customers/5', { code: 'K5b', email: 'five.b@example.com' });
    expect((await server.client.get('/customers/K5', { query: { search_param: 'code' } })).status).toBe(404);
    expect((await server.client.get('/customers/five@example.com', { query: { search_param: 'email' } })).status).toBe(404);
    expect((await server.client.get('/customers/K5b', { query: { search_param: 'code' } })).body.id).toBe(5);
    // The freed email can be taken by another customer.
    expect((await create({ id: 6, email: 'five@example.com', attributes: { level: 'gold' } })).status).toBe(200);
  });

  it('refuses an email held by another customer unless allow_duplicate_email', async () => {
    const res = await server.client.patch('/customers/6', { email: 'five.b@example.com' });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatch(/^email: /);
    const allowed = await server.client.patch('/customers/6', { email: 'five.b@example.com' }, { query: { allow_duplicate_email: 'true' } });
    expect(allowed.status).toBe(200);
    expect((await get(6)).duplicated_email).toBe('five.b@example.com');
    // Re-sending the same email (a full-profile PUT, say) keeps the marker; another email clears it.
    expect((await server.client.put('/customers/6', { email: 'FIVE.B@example.com', name: 'Six' })).status).toBe(200);
    expect((await get(6)).duplicated_email).toBe('five.b@example.com');
    expect((await server.client.patch('/customers/6', { email: 'six@example.com' })).status).toBe(200);
    expect((await get(6)).duplicated_email).toBeUndefined();
  });

  it('sets status active or inactive only, and stores an out-of-range birth year as null', async () => {
    expect((await server.client.patch('/customers/6', { status: 'inactive', birth: '1850-06-01' })).status).toBe(200);
    expect(await get(6)).toMatchObject({ status: 'inactive', birth: null });
    const merged = await server.client.patch('/customers/6', { status: 'merged' });
    expect(merged.status).toBe(400);
    expect(merged.body.error).toMatch(/^status: /);
    expect((await get(6)).status).toBe('inactive');
  });

  it('accepts PUT as PATCH', async () => {
    const res = await server.client.put('/customers/6', { kind: 'vip' });
    expect(res.status).toBe(200);
    expect((await get(6)).kind).toBe('vip');
  });

  it('refuses fields the update column does not accept, and phone without a prefix', async () => {
    for (const field of ['id', 'password', 'referred_by', 'card_id']) {
      const res = await server.client.patch('/customers/6', { [field]: 1 });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(new RegExp(`^${field}: `));
    }
    const phone = await server.client.patch('/customers/6', { phone: '611222333' });
    expect(phone.status).toBe(400);
    expect(phone.body.error).toMatch(/^phone_prefix: /);
  });

  it('refuses a dni of spaces or a phone without 4 digits, on create and update, storing nothing', async () => {
    const blankDni = await create({ id: 30, dni: '   ', attributes: { level: 'gold' } });
    expect(blankDni.body).toEqual({ code: 'invalid_request', error: 'dni: must have a character other than spaces' });
    const blankPhone = await create({ id: 30, phone: '----', phone_prefix: '34', attributes: { level: 'gold' } });
    expect(blankPhone.body).toEqual({ code: 'invalid_request', error: 'phone: must have at least 4 digits' });
    expect((await server.client.get('/customers/30', { query: { search_param: 'id' } })).status).toBe(404);

    expect((await create({ id: 31, dni: ' x1 ', phone: '(61) 1-2', phone_prefix: '34', attributes: { level: 'gold' } })).status).toBe(200);
    for (const [body, error] of [
      [{ dni: ' ' }, 'dni: must have a character other than spaces'],
      [{ phone: '(1) --' }, 'phone: must have at least 4 digits'],
    ] as const) {
      expect((await server.client.patch('/customers/31', body)).body).toEqual({ code: 'invalid_request', error });
    }
    expect(await get(31)).toMatchObject({ dni: 'X1', phone: '6112' });
    // Another customer's blank dni is refused as blank, not as a conflict over an empty slot.
    expect((await create({ id: 32, dni: ' ', attributes: { level: 'gold' } })).status).toBe(400);
  });

  describe('duplicate suppression keys on the customer, however the path names it', () => {
    const patch = (value: string, body: Record<string, unknown>, search_param = 'id') =>
      server.client.patch(`/customers/${value}`, body, { query: { search_param } });

    it('runs A again after B through the code, then the id (A, B, A)', async () => {
      expect((await create({ id: 102, code: 'c102', attributes: { level: 'gold' } })).status).toBe(200);
      expect((await patch('c102', { city: 'A' }, 'code')).status).toBe(200);
      expect((await patch('102', { city: 'B' })).status).toBe(200);
      expect((await patch('c102', { city: 'A' }, 'code')).status).toBe(200);
      expect((await get(102)).city).toBe('A');
      // 007 and 7 name one customer.
      expect((await patch('0102', { city: 'C' })).status).toBe(200);
      expect((await patch('102', { city: 'D' })).status).toBe(200);
      expect((await patch('0102', { city: 'C' })).status).toBe(200);
      expect((await get(102)).city).toBe('C');
    });

    it('answers a repeat through a code the first change gave up as the first, unless the customer changed since', async () => {
      expect((await create({ id: 103, code: 'c103', attributes: { level: 'gold' } })).status).toBe(200);
      const first = await patch('c103', { code: 'c103b' }, 'code');
      expect(first.status).toBe(200);
      const repeat = await patch('c103', { code: 'c103b' }, 'code');
      expect(repeat.status).toBe(200);
      expect(repeat.text).toBe(first.text);
      expect((await patch('103', { city: 'B' })).status).toBe(200);
      const afterB = await patch('c103', { code: 'c103b' }, 'code');
      expect(afterB.status).toBe(404);
      expect(afterB.body.code).toBe('customer_not_found');
    });
  });

  it('answers 404 for an unknown customer', async () => {
    const res = await server.client.patch('/customers/404', { kind: 'x' });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('customer_not_found');
  });

  describe('GET /customers/{id}/attributes', () => {
    it('lists attributes as entries, in name order, with filters and cursor pagination', async () => {
      await create({ id: 10, attributes: { level: 'gold', age: 40, Pets: 2, note: 'n' } });
      const all = await server.client.get('/customers/10/attributes', { query: { per_page: '3' } });
      expect(all.status).toBe(200);
      expect(all.body.data.map((e: { name: string }) => e.name)).toEqual(['Pets', 'age', 'level']);
      expect(all.body.data[1]).toMatchObject({ name: 'age', value: '40', data_type: 'integer', attribute_type: 'custom', slug: 'age', system: false });
      expect(typeof all.body.data[1].id).toBe('number');
      const next = await server.client.get('/customers/10/attributes', { query: { per_page: '3', starting_after: all.body.next_token_starts_after } });
      expect(next.body.data.map((e: { name: string }) => e.name)).toEqual(['note']);
      expect(next.body).not.toHaveProperty('next_token_starts_after');
      // A token this list did not issue is refused, as by every list (docs/http.md).
      const forged = await server.client.get('/customers/10/attributes', { query: { starting_after: 'bm90LWEtdG9rZW4' } });
      expect([forged.status, forged.body.error.startsWith('starting_after')]).toEqual([400, true]);

      const byName = await server.client.get('/customers/10/attributes', { query: { name: 'PET' } });
      expect(byName.body.data.map((e: { name: string }) => e.name)).toEqual(['Pets']);
      const byId = await server.client.get('/customers/10/attributes', { query: { attribute_id: String(all.body.data[2].id) } });
      expect(byId.body.data.map((e: { name: string }) => e.name)).toEqual(['level']);
      expect((await server.client.get('/customers/10/attributes', { query: { system: 'true' } })).body.data).toEqual([]);
      expect((await server.client.get('/customers/10/attributes', { query: { attribute_type: 'calculation' } })).body.data).toEqual([]);
    });

    it('refuses attribute_type with attribute_id, and answers 404 for an unknown customer', async () => {
      const both = await server.client.get('/customers/10/attributes', { query: { attribute_type: 'custom', attribute_id: '1' } });
      expect(both.status).toBe(400);
      expect(both.body.error).toMatch(/^attribute_id: /);
      expect((await server.client.get('/customers/404/attributes')).status).toBe(404);
    });
  });
});
