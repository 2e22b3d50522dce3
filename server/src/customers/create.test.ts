import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../testing/server.js';

const base = { name: 'Ana', registration_location_id: 1 };

describe('POST /customers', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.dispose());

  const get = (value: string, searchParam = 'id') => server.client.get(`/customers/${encodeURIComponent(value)}`, { query: { search_param: searchParam } });

  it('creates a customer and answers status success with its id', async () => {
    const res = await server.client.post('/customers', { ...base, id: 100, surname_1: 'Ruiz', country: 'ES' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'success', id: 100 });
    const read = await get('100');
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ id: 100, name: 'Ana', surname_1: 'Ruiz', country: 'ES', status: 'active', merged: false });
  });

  it('requires name, and id or code, and registration_location_id or its code', async () => {
    const noName = await server.client.post('/customers', { id: 101, registration_location_id: 1 });
    expect(noName.status).toBe(400);
    expect(noName.body).toEqual({ code: 'invalid_request', error: expect.stringContaining('name') });
    const noId = await server.client.post('/customers', base);
    expect(noId.status).toBe(400);
    expect(noId.body.error).toMatch(/^id: /);
    const noLocation = await server.client.post('/customers', { id: 101, name: 'X' });
    expect(noLocation.status).toBe(400);
    expect(noLocation.body.error).toMatch(/^registration_location_id: /);
    expect((await get('101')).status).toBe(404);

    const byCodes = await server.client.post('/customers', { name: 'X', code: 'C-101', registration_location_code: 'BCN' });
    expect(byCodes.status).toBe(200);
    const read = await get('C-101', 'code');
    expect(read.body).toMatchObject({ id: byCodes.body.id, code: 'C-101', registration_location_code: 'BCN' });
  });

  it('refuses an existing id with 409 duplicate_id, and an existing code', async () => {
    await server.client.post('/customers', { ...base, id: 102, code: 'C-102' });
    const again = await server.client.post('/customers', { ...base, id: 102, name: 'Other' });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('duplicate_id');
    const code = await server.client.post('/customers', { ...base, id: 103, code: 'C-102' });
    expect(code.status).toBe(409);
    expect(code.body).toMatchObject({ code: 'duplicate_id', error: expect.stringMatching(/^code: /) });
    expect((await get('103')).status).toBe(404);
  });

  it('refuses a code that is a path of its own under /customers (search, transfer, transfer-new), on create and on update', async () => {
    for (const reserved of ['search', 'transfer', 'transfer-new']) {
      const res = await server.client.post('/customers', { ...base, id: 104, code: reserved });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'invalid_request', error: expect.stringMatching(/^code: /) });
    }
    expect((await get('104')).status).toBe(404);
    expect((await server.client.post('/customers', { ...base, id: 104, code: 'searching' })).status).toBe(200);
    expect((await server.client.patch('/customers/104', { code: 'transfer' })).status).toBe(400);
    expect((await server.client.get('/customers/searching', { query: { search_param: 'code' } })).body.id).toBe(104);
  });

  it('stores email in lowercase and refuses a repeated email unless allow_duplicate_email', async () => {
    expect((await server.client.post('/customers', { ...base, id: 110, email: 'Ana.Ruiz@Example.COM' })).status).toBe(200);
    expect((await get('110')).body.email).toBe('ana.ruiz@example.com');
    expect((await get('ANA.RUIZ@example.com', 'email')).body.id).toBe(110);

    const repeated = await server.client.post('/customers', { ...base, id: 111, email: 'ana.ruiz@EXAMPLE.com' });
    expect(repeated.status).toBe(409);
    expect(repeated.body).toMatchObject({ code: 'conflict', error: expect.stringMatching(/^email: /) });
    expect((await get('111')).status).toBe(404);

    const allowed = await server.client.post('/customers', { ...base, id: 111, email: 'ana.ruiz@EXAMPLE.com' }, { query: { allow_duplicate_email: 'true' } });
    expect(allowed.status).toBe(200);
    expect((await get('111')).body).toMatchObject({ email: 'ana.ruiz@example.com', duplicated_email: 'ana.ruiz@example.com' });
    // The email still finds its first holder.
    expect((await get('ana.ruiz@example.com', 'email')).body.id).toBe(110);
  });

  it('stores dni in uppercase and refuses a repeated dni unless allow_duplicate_dni', async () => {
    expect((await server.client.post('/customers', { ...base, id: 120, dni: '12345678z' })).status).toBe(200);
    expect((await get('120')).body.dni).toBe('12345678Z');
    expect((await get('12345678z', 'dni')).body.id).toBe(120);
    const repeated = await server.client.post('/customers', { ...base, id: 121, dni: '12345678Z' });
    expect(repeated.status).toBe(409);
    expect(repeated.body.error).toMatch(/^dni: /);
    const allowed = await server.client.post('/customers', { ...base, id: 121, dni: '12345678Z' }, { query: { allow_duplicate_dni: 'true' } });
    expect(allowed.status).toBe(200);
    expect((await get('121')).body).toMatchObject({ dni: '12345678Z', duplicated_dni: '12345678Z' });
  });

  it('stores a birth date with a year outside 1900..9999 as null', async () => {
    await server.client.post('/customers', { ...base, id: 130, birth: '1899-12-31' });
    await server.client.post('/customers', { ...base, id: 131, birth: '1900-01-01' });
    expect((await get('130')).body.birth).toBeNull();
    expect((await get('131')).body.birth).toBe('1900-01-01');
    const notADate = await server.client.post('/customers', { ...base, id: 132, birth: '1990-02-30' });
    expect(notADate.status).toBe(400);
    expect(notADate.body.error).toMatch(/^birth: /);
  });

  it('requires phone_prefix whenever phone is filled', async () => {
    const res = await server.client.post('/customers', { ...base, id: 140, phone: '600 111 222' });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/^phone_prefix: /);
    expect((await server.client.post('/customers', { ...base, id: 140, phone: '600 111 222', phone_prefix: '+34' })).status).toBe(200);
    expect((await get('140')).body).toMatchObject({ phone: '600111222', phone_prefix: '+34' });
  });

  it('checks password_confirmation against password', async () => {
    const res = await server.client.post('/customers', { ...base, id: 150, password: 'secret-1', password_confirmation: 'secret-2' });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/^password_confirmation: /);
    expect((await server.client.post('/customers', { ...base, id: 150, password: 'secret-1', password_confirmation: 'secret-1' })).status).toBe(200);
    const read = await get('150');
    expect(JSON.stringify(read.body)).not.toContain('secret-1');
    expect(read.body).not.toHaveProperty('password');
  });

  it('sets updated_at to the server time, whatever creation_date says', async () => {
    const before = Date.now();
    await server.client.post('/customers', { ...base, id: 160, creation_date: '2001-02-03T04:05:06-0500' });
    const read = (await get('160')).body;
    expect(read.creation_date).toBe('2001-02-03T09:05:06Z');
    expect(Date.parse(read.updated_at)).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
  });

  it('refuses fields the create column does not accept, and collective_slug with collective_id', async () => {
    const unknown = await server.client.post('/customers', { ...base, id: 180, nickname: 'x' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatch(/^nickname: /);
    const both = await server.client.post('/customers', { ...base, id: 180, collective_id: 3, collective_slug: 'staff' });
    expect(both.status).toBe(400);
    expect(both.body.error).toMatch(/^collective_slug: /);
  });

  it('requires referred_by to be an existing customer', async () => {
    const res = await server.client.post('/customers', { ...base, id: 190, referred_by: 999999 });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/^referred_by: /);
    expect((await get('190')).status).toBe(404);
    expect((await server.client.post('/customers', { ...base, id: 190, referred_by: 100 })).status).toBe(200);
  });

  // They were 1, 2, ...: a till numbering its customers from 1 then met them, and its new customer was refused 409.
  it('gives a customer created by code alone an id counted down from 2^53 - 1, skipping ids taken, never one a till numbers from 1', async () => {
    const first = await server.client.post('/customers', { ...base, code: 'WEB-1' });
    const id: number = first.body.id;
    expect(id).toBeLessThanOrEqual(Number.MAX_SAFE_INTEGER);
    expect(id).toBeGreaterThan(Number.MAX_SAFE_INTEGER - 100);
    expect(first.text).toBe(`{"status":"success","id":${id}}`);
    expect((await server.client.post('/customers', { ...base, id: id - 1 })).status).toBe(200);
    expect((await server.client.post('/customers', { ...base, code: 'WEB-2' })).body).toEqual({ status: 'success', id: id - 2 });
    expect((await get('WEB-2', 'code')).body.id).toBe(id - 2);
    for (const id of [1, 2]) expect((await server.client.post('/customers', { ...base, id })).status).toBe(200);
  });

  it('keeps an id above 2^53 exact', async () => {
    const id = 9223372036854775807n;
    expect((await server.client.post('/customers', { ...base, id })).status).toBe(200);
    const read = await get('09223372036854775807');
    expect(read.status).toBe(200);
    expect(read.body.id).toBe(id);
    expect(read.text).toContain('"id":9223372036854775807');
  });

  it('rejects ids 0 and above the int64 range', async () => {
    for (const id of [0, '9223372036854775808', -4]) {
      const res = await server.client.post('/customers', { ...base, id });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(/^id: /);
    }
  });

  it('suppresses an identical create within the window and answers as the first', async () => {
    const body = { ...base, id: 200, email: 'dup@example.com' };
    const first = await server.client.post('/customers', body);
    const second = await server.client.post('/customers', body);
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.text).toBe(first.text);
  });
});
