/**
 * A customer's delete erases its personal data from webhook deliveries (docs/webhooks.md, Deleted customers):
 * pending and settled bodies naming it keep their event's id, type and sequence and lose `data`; the
 * customer.deleted event itself is sent whole; other customers' deliveries are untouched.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../testing/server.js';
import { deliveriesOf, freshReceiver, Receiver, sleep, subscribe } from './testing.js';

const json = { 'Content-Type': 'application/json' };

describe('webhook deliveries of a deleted customer over HTTP', () => {
  let server: TestServer;
  let receiver: Receiver;

  beforeAll(async () => {
    // A failed attempt is retried 1 s later: long enough to delete the customer meanwhile.
    server = await startServer({ env: { WEBHOOK_POLL_INTERVAL_MS: '50', WEBHOOK_RETRY_SECONDS: '1,1', WEBHOOK_TIMEOUT_MS: '2000' } });
    const definition = { slug: 'review', name: 'Review', schema: { type: 'object', properties: { note: { type: 'string' } } } };
    expect((await server.client.post('/custom_event_definitions', definition)).status).toBe(200);
  });
  afterAll(async () => {
    await server.dispose();
  });
  beforeEach(async () => {
    receiver = await freshReceiver(server.client);
    return () => receiver.close();
  });

  for (const hard of [false, true]) {
    it(`erases the settled and pending bodies naming a ${hard ? 'hard' : 'soft'}-deleted customer and keeps its customer.deleted`, async () => {
      const id = hard ? 21 : 20;
      const { id: webhook } = await subscribe(server.client, receiver, ['customer.created', 'customer.updated', 'customer.deleted']);
      const secret = `Ana Secret ${id}`;
      expect((await server.client.post('/customers', { id, code: `ana-${id}`, name: secret, email: `ana${id}@example.com`, registration_location_id: 1 })).status).toBe(200);
      expect((await server.client.post('/customers', { id: id + 100, name: 'Other Person', registration_location_id: 1 })).status).toBe(200);
      const [created] = await receiver.waitFor(2);
      expect(created.event.data.name).toBe(secret);
      // The update's first attempt fails: it is pending when the customer is deleted.
      receiver.answers = [500];
      expect((await server.client.patch(`/customers/${id}`, { name: `${secret} changed` })).status).toBe(200);
      await receiver.waitFor(3);
      const deleted = await server.client.delete(`/customers/${id}`, { query: { hard: String(hard) }, headers: json });
      expect(deleted.status, deleted.text).toBe(200);

      // The pending update is sent again, redacted; the delete's own event whole.
      const received = await receiver.waitFor(5);
      const after = received.slice(3);
      const update = after.find((r) => r.event.type === 'customer.updated')!;
      const updateFirst = received[2];
      expect(update.event).toEqual({ ...updateFirst.event, data: null, redacted: { at: expect.any(String), reason: 'customer_deleted' } });
      expect(after.find((r) => r.event.type === 'customer.deleted')!.event).toMatchObject({
        data: { id, code: `ana-${id}`, deleted: hard ? 'hard' : 'soft' }, redacted: null,
      });
      for (const r of after) expect(r.text).not.toContain('Ana Secret');

      // A settled delivery's body is erased too: retried, it sends the redacted body.
      const listed = await deliveriesOf(server.client, webhook);
      const settled = listed.find((d) => d.event_id === created.event.id)!;
      expect((await server.client.post(`/webhooks/${webhook}/deliveries/${settled.id}/retry`)).status).toBe(200);
      const [again] = (await receiver.waitFor(6)).slice(5);
      expect(again.event).toEqual({ ...created.event, data: null, redacted: { at: expect.any(String), reason: 'customer_deleted' } });

      // The other customer's delivery keeps its body.
      const other = listed.find((d) => d.event_id === received[1].event.id)!;
      expect((await server.client.post(`/webhooks/${webhook}/deliveries/${other.id}/retry`)).status).toBe(200);
      const [otherAgain] = (await receiver.waitFor(7)).slice(6);
      expect(otherAgain.event).toEqual(received[1].event);
      expect(otherAgain.event.data.name).toBe('Other Person');
    });
  }

  it('erases a custom event naming it, raised before the delete, as its customer.created', async () => {
    const { id: webhook } = await subscribe(server.client, receiver, ['customer.created', 'custom_event.created']);
    receiver.answers = [500, 500];
    expect((await server.client.post('/customers', { id: 30, name: 'Bea Secret', registration_location_id: 1 })).status).toBe(200);
    expect((await server.client.post('/custom_events', { customer_id: 30, slug: 'review', data: { note: 'Bea Secret wrote' } })).status).toBe(200);
    await receiver.waitFor(2);
    expect((await server.client.delete('/customers/30', { query: { hard: 'true' }, headers: json })).status).toBe(200);
    const again = (await receiver.waitFor(4)).slice(2);
    expect(again.map((r) => r.event.type).sort()).toEqual(['custom_event.created', 'customer.created']);
    for (const r of again) expect(r.event).toMatchObject({ data: null, redacted: { reason: 'customer_deleted' } });
    await sleep(200);
    expect((await deliveriesOf(server.client, webhook)).map((d) => d.status)).toEqual(['delivered', 'delivered']);
  });
});
