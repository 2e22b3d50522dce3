import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, TEST_KEY, type TestServer } from '../testing/server.js';
import { auditEntries, succeeds } from './testing.js';

const json = { 'Content-Type': 'application/json' };
const AUTHOR = { headers: { 'X-Author-Email': 'ops@example.com' } };

/** A customer's personal data, every value distinct enough to be found in any JSON text. */
const person = (n: number) => ({
  name: `Ana${n} Quintanilla`, surname_1: `Zubizarreta${n}`, email: `ana${n}.private@example.com`, dni: `${n}1234Z`,
  phone: `6001${n}22`, address: `Calle Secreta ${n}`, city: `Villaoculta${n}`, code: `ana-code-${n}`,
});
/** What a create sends: the personal data, and the prefix its phone requires. */
const profile = (n: number) => ({ registration_location_id: 1, phone_prefix: '34', ...person(n) });

describe('a customer\'s delete erases it from the audit log', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.dispose());

  const entries = (query: Record<string, string> = {}) => auditEntries(server.client, query);
  const ok = succeeds;
  const traceOf = (text: string, data: Record<string, string>, card: string) =>
    [...Object.values(data), card, 'Spouse of record'].filter((value) => text.toLowerCase().includes(value.toLowerCase()));

  /** Customer `id` with personal data, updated by code, a card attached, associated to `other` (each a recorded change). */
  async function customerWithHistory(id: number, other: number) {
    const data = person(id);
    const card = `88${id}01`;
    await ok(server.client.post('/customers', { id, ...profile(id), name: 'Draft' }, AUTHOR));
    await ok(server.client.patch(`/customers/${data.code}`, { name: data.name }, { query: { search_param: 'code' }, ...AUTHOR }));
    await ok(server.client.post(`/customers/${id}/cards`, { id: card }, AUTHOR));
    await ok(server.client.post('/associations', { customer_id: other, associate_customer_id: id, relationship_type: 'Spouse of record' }));
    return { data, card };
  }

  for (const hard of [false, true]) {
    it(`${hard ? 'hard' : 'soft'} delete: the customer's entries, its card's and its associations' keep who did what when, without its data`, async () => {
      const id = hard ? 9101 : 9001;
      const other = id + 1;
      await ok(server.client.post('/customers', { id: other, ...profile(other) }));
      const { data, card } = await customerWithHistory(id, other);
      const othersBefore = await entries({ target: `customer:${other}` });
      expect(traceOf(JSON.stringify(othersBefore), person(other), 'none')).toContain(person(other).email);

      const res = await server.client.delete(`/customers/${data.code}`, { query: { hard: String(hard), search_param: 'code' }, headers: { ...json, ...AUTHOR.headers } });
      expect(res.status, res.text).toBe(200);
      expect(res.body.deleted).toBe(hard ? 'hard' : 'soft');

      const own = await entries({ target: `customer:${id}` });
      // The card's entry moved under the customer: its number identifies the person as well.
      expect(own.map((entry) => [entry.operation, entry.method, entry.path])).toEqual([
        ['customers.delete', 'DELETE', '/customers/[redacted]'],
        ['customers.cards', 'POST', `/customers/${id}/cards`],
        ['customers.update', 'PATCH', '/customers/[redacted]'],
        ['customers.create', 'POST', '/customers'],
      ]);
      // The delete's time (an entry's `at` is its commit's, a second later at times).
      const at = own[0].redacted.at;
      for (const entry of own) {
        expect(entry).toMatchObject({
          id: expect.any(Number), company_id: 'default', environment: 'sandbox', actor: { api_key: TEST_KEY, author: 'ops@example.com' },
          target: `customer:${id}`, body: null, body_truncated: false, redacted: { at, reason: 'customer_deleted' }, status: 'committed',
        });
      }
      expect(await entries({ target: `card:${card}` })).toEqual([]);
      const [association] = await entries({ target: `association:${other}:${id}` });
      expect(association).toMatchObject({ operation: 'associations.create', path: '/associations', body: null, redacted: { at, reason: 'customer_deleted' } });

      // Nothing of it anywhere in the log, nor in what an export of the other customer answers.
      expect(traceOf(JSON.stringify(await entries()), data, card)).toEqual([]);
      // The other customer's own entries are untouched.
      expect(await entries({ target: `customer:${other}` })).toEqual(othersBefore);
      if (!hard) {
        // The soft-deleted customer's export (by id) holds nothing of it either.
        const exported = await server.client.get(`/customers/${id}/export`, { query: { search_param: 'id' } });
        expect(exported.status, exported.text).toBe(200);
        expect(traceOf(exported.text, data, card)).toEqual([]);
      }
    });
  }

  it('a hard-deleted id taken again: the new customer\'s entries are recorded in full', async () => {
    const id = 9201;
    await ok(server.client.post('/customers', { id, ...profile(id) }));
    await ok(server.client.delete(`/customers/${id}`, { query: { hard: 'true' }, headers: json }));
    await ok(server.client.post('/customers', { id, registration_location_id: 1, name: 'Newcomer' }));
    const [created, deleted, first] = await entries({ target: `customer:${id}` });
    expect(created).toMatchObject({ operation: 'customers.create', redacted: null, body: expect.stringContaining('Newcomer') });
    expect(deleted).toMatchObject({ operation: 'customers.delete', path: `/customers/${id}`, body: null });
    expect(first).toMatchObject({ operation: 'customers.create', body: null, redacted: { reason: 'customer_deleted' } });
  });

  it('the new customer of a merge, deleted once unmerged, leaves no trace in the old customer\'s merge entry', async () => {
    const [old, into] = [9301, 9302];
    await ok(server.client.post('/customers', { id: old, registration_location_id: 1, name: 'Old' }));
    await ok(server.client.post('/customers', { id: into, ...profile(into) }));
    await ok(server.client.post('/customers/transfer', { old_customer_id: String(old), new_customer_code: person(into).code, motive: 'lost card' }));
    await ok(server.client.post(`/customers/${old}/unmerge`, undefined, { headers: json, query: { with_activites: 'false' } }));
    await ok(server.client.delete(`/customers/${into}`, { query: { hard: 'false' }, headers: json }));
    const [unmerge, transfer, created] = await entries({ target: `customer:${old}` });
    expect(unmerge).toMatchObject({ operation: 'merges.unmerge', redacted: null });
    expect(transfer).toMatchObject({ operation: 'merges.transfer', path: '/customers/transfer', body: null, redacted: { reason: 'customer_deleted' } });
    expect(created).toMatchObject({ operation: 'customers.create', body: expect.stringContaining('Old'), redacted: null });
    expect(traceOf(JSON.stringify(await entries()), person(into), 'none')).toEqual([]);
  });

  it('a refused delete (409: a customer is merged into it) redacts nothing', async () => {
    const [old, into] = [9401, 9402];
    await ok(server.client.post('/customers', { id: old, ...profile(old) }));
    await ok(server.client.post('/customers', { id: into, ...profile(into) }));
    await ok(server.client.post(`/customers/${into}/cards`, { id: '8894021' }));
    await ok(server.client.post('/customers/transfer', { old_customer_id: old, new_customer_id: into }));
    const before = await entries();
    const res = await server.client.delete(`/customers/${into}`, { query: { hard: 'false' }, headers: json });
    expect(res.status, res.text).toBe(409);
    expect(res.body.code).toBe('conflict');
    expect(await entries()).toEqual(before);
    expect(traceOf(JSON.stringify(before), person(into), '8894021')).toContain(person(into).email);
  });
});
