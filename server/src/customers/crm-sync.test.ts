/**
 * A CRM's batch job over HTTP: a request that timed out on the client is sent
 * again while the first is still running (common rule 8). Each change must be
 * done once, every copy answered as the first, and the CRM's webhook receiver
 * told once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../testing/server.js';
import { Receiver, sleep } from '../webhooks/testing.js';

const json = { headers: { 'Content-Type': 'application/json' } };

describe('a CRM batch job resending requests still in flight', () => {
  let server: TestServer;
  let receiver: Receiver;
  beforeAll(async () => {
    server = await startServer({ env: { WEBHOOK_POLL_INTERVAL_MS: '50' } });
    receiver = await new Receiver().listen();
  });
  afterAll(async () => {
    await receiver.close();
    await server.dispose();
  });

  /** Sends the same request three times at once and expects one answer for all. */
  async function thrice(send: () => Promise<{ status: number; text: string }>): Promise<string> {
    const answers = await Promise.all([send(), send(), send()]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(new Set(answers.map((a) => a.text)).size).toBe(1);
    return answers[0]!.text;
  }

  it('creates, attaches, associates, merges and deletes once; the receiver gets one event per change', async () => {
    const c = server.client;
    const events = ['customer.created', 'customer.merged', 'customer.deleted'];
    expect((await c.post('/webhooks', { url: receiver.url, events })).status).toBe(200);

    expect(JSON.parse(await thrice(() => c.post('/customers', { id: 1, code: 'CRM-1', name: 'Ana', email: 'ana@example.com', registration_location_id: 1 })))).toEqual({ status: 'success', id: 1 });
    // A create by code alone allocates the id: one customer, the same id answered to every copy.
    const { id } = JSON.parse(await thrice(() => c.post('/customers', { code: 'CRM-2', name: 'Bea', registration_location_id: 1 })));
    expect((await c.post('/customers/search', { code: 'CRM-2' })).body.id).toBe(id);
    expect((await c.get('/customers', { query: { ids: `1,${id},${id + 1}` } })).body.list.map((customer: { id: number }) => customer.id)).toEqual([1, id]);

    await thrice(() => c.post('/customers/1/cards', { id: 5001, main: true }));
    const association = JSON.parse(await thrice(() => c.post('/associations', { customer_id: 1, associate_customer_id: id, relationship_type: 'family' })));
    expect((await c.get('/customers/1/associates', json)).body.list).toEqual([association]);

    await thrice(() => c.post('/customers/transfer', { old_customer_code: 'CRM-2', new_customer_id: 1, relationship_type: 'duplicate' }));
    expect((await c.get(`/customers/${id}`, { query: { search_param: 'id' } })).body).toMatchObject({ status: 'merged', merged: true, merged_to: 1 });
    // One merge: the family association made inactive by it, the merge's own active.
    const associations = (await c.get('/customers/1/export', { query: { search_param: 'id' } })).body.associations;
    expect(associations).toEqual([
      { ...association, active: false, updated_at: expect.any(String) },
      expect.objectContaining({ customer_id: 1, associate_customer_id: id, relationship_type: 'duplicate', active: true, merge_id: expect.any(Number) }),
    ]);

    // Delivered before the delete: a delivery still pending when its customer is deleted is sent redacted, `data: null`
    // (docs/webhooks.md, Deleted customers), which a slow machine's poll can leave it.
    await receiver.waitFor(3);
    await thrice(() => c.post(`/customers/${id}/unmerge`, undefined, { query: { with_activites: 'true' }, ...json }));
    expect(JSON.parse(await thrice(() => c.delete(`/customers/${id}`, { query: { hard: 'true', search_param: 'id' }, ...json })))).toEqual({ status: 'success', deleted: 'hard' });
    expect((await c.get(`/customers/${id}`, { query: { search_param: 'id' } })).status).toBe(404);

    await receiver.waitFor(4);
    await sleep(300);
    expect(receiver.received.map((r) => [r.event.type, r.event.data.id ?? r.event.data.old_customer_id])).toEqual(
      expect.arrayContaining([['customer.created', 1], ['customer.created', id], ['customer.merged', id], ['customer.deleted', id]]),
    );
    expect(receiver.received).toHaveLength(4);
  });
});

describe('a CRM resending a change through a code while the first is committing', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.dispose());

  /**
   * The first commits before it is remembered (its answer waits for the flush to disk): a copy that looks the
   * code up in between finds what the first made (the customer created, the code gone), not what the first
   * found. Copies spread over a few ms land in that window in most rounds; each round must answer all alike.
   */
  async function copiesOf(send: () => Promise<{ status: number; text: string }>): Promise<string> {
    const answers = await Promise.all([send(), ...[1, 2, 3, 4, 6, 8, 12].map(async (ms) => (await sleep(ms), send()))]);
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
    expect(new Set(answers.map((a) => a.text)).size).toBe(1);
    return answers[0]!.text;
  }
  const rounds = Array.from({ length: 20 }, (_, round) => round);

  it('creates by code alone, changes the code and deletes by code once, answering every copy as the first', async () => {
    const c = server.client;
    const byCode = { query: { search_param: 'code' }, ...json };
    for (const round of rounds) {
      const { id } = JSON.parse(await copiesOf(() => c.post('/customers', { code: `A-${round}`, name: 'Ana', registration_location_id: 1 })));
      expect((await c.post('/customers/search', { code: `A-${round}` })).body.id).toBe(id);
      await copiesOf(() => c.patch(`/customers/A-${round}`, { code: `B-${round}` }, byCode));
      expect((await c.get(`/customers/${id}`, { query: { search_param: 'id' } })).body.code).toBe(`B-${round}`);
      await copiesOf(() => c.delete(`/customers/B-${round}`, { query: { hard: 'true', search_param: 'code' }, ...json }));
      expect((await c.get(`/customers/${id}`, { query: { search_param: 'id' } })).status).toBe(404);
    }
    // One customer per round: no copy created another (server ids count down from 2^53 - 1).
    expect((await c.post('/customers', { code: 'last', name: 'Eva', registration_location_id: 1 })).body.id).toBe(Number.MAX_SAFE_INTEGER - rounds.length);
  }, 60_000);
});

