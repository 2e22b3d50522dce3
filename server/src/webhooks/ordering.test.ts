/**
 * Ordering a Company environment's events (docs/webhooks.md, Delivery): `created_at` is whole seconds, so a
 * receiver orders by `sequence` (also `Tally-Event-Sequence`), allocated in the event's own transaction.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../testing/server.js';
import { freshReceiver, Receiver, subscribe } from './testing.js';

describe('webhook event sequence over HTTP', () => {
  let server: TestServer;
  let receiver: Receiver;

  beforeAll(async () => {
    server = await startServer({ env: { WEBHOOK_POLL_INTERVAL_MS: '50', WEBHOOK_TIMEOUT_MS: '2000' } });
  });
  afterAll(async () => {
    await server.dispose();
  });
  beforeEach(async () => {
    receiver = await freshReceiver(server.client);
    return () => receiver.close();
  });

  it('numbers two updates of one customer within a second in commit order, in the body and the header', async () => {
    await subscribe(server.client, receiver, ['customer.created', 'customer.updated']);
    expect((await server.client.post('/customers', { id: 1, name: 'First', registration_location_id: 1 })).status).toBe(200);
    expect((await server.client.patch('/customers/1', { name: 'Second' })).status).toBe(200);
    expect((await server.client.patch('/customers/1', { name: 'Third' })).status).toBe(200);
    const received = await receiver.waitFor(3);
    const byName = (name: string) => received.find((r) => r.event.data.name === name)!;
    const [first, second, third] = ['First', 'Second', 'Third'].map(byName);
    for (const r of received) {
      expect(r.event.sequence).toEqual(expect.any(Number));
      expect(r.headers['tally-event-sequence']).toBe(String(r.event.sequence));
    }
    expect(first.event.sequence).toBeLessThan(second.event.sequence);
    expect(second.event.sequence).toBeLessThan(third.event.sequence);
  });

  it('gives the update committed last the highest number, among concurrent ones of one second', async () => {
    await subscribe(server.client, receiver, ['customer.updated']);
    expect((await server.client.post('/customers', { id: 2, name: 'Start', registration_location_id: 1 })).status).toBe(200);
    const names = Array.from({ length: 8 }, (_, i) => `Name ${i}`);
    const answers = await Promise.all(names.map((name) => server.client.patch('/customers/2', { name })));
    for (const res of answers) expect(res.status, res.text).toBe(200);
    const received = await receiver.waitFor(8);
    const sequences = received.map((r) => r.event.sequence);
    expect(new Set(sequences).size).toBe(8);
    const last = received.reduce((a, b) => (a.event.sequence > b.event.sequence ? a : b));
    // What GET answers is what the last committed update wrote: its event is numbered last.
    expect(last.event.data.name).toBe((await server.client.get('/customers/2', { query: { search_param: 'id' } })).body.name);
  });
});
