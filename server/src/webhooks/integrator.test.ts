/**
 * An integrator's flows against webhooks (docs/webhooks.md), end to end over
 * HTTP: what a receiver gets, what the deliveries list says, across a
 * receiver down for a while, a deactivation and a server restart.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cartBody } from '../testing/carts.js';
import { runCli } from '../testing/cli.js';
import { startServer, type TestServer } from '../testing/server.js';
import { deliveriesOf, freshReceiver, Receiver, sleep, subscribe as subscribeReceiver } from './testing.js';

/** docs/webhooks.md, "Verifying a signature", as an integrator copies it. */
function verify(secret: string, header: string, rawBody: string, toleranceSeconds = 300) {
  const { t, v1 } = Object.fromEntries(header.split(',').map((part) => part.split('=')));
  const expected = createHmac('sha256', secret).update(`${t}.${rawBody}`).digest('hex');
  return Math.abs(Date.now() / 1000 - Number(t)) <= toleranceSeconds && v1.length === expected.length && timingSafeEqual(Buffer.from(v1), Buffer.from(expected));
}

describe('a webhook integrator over HTTP', () => {
  let server: TestServer;
  let receiver: Receiver;

  const subscribe = (events: string[], extra: Record<string, unknown> = {}) => subscribeReceiver(server.client, receiver, events, extra);
  const deliveries = (id: number) => deliveriesOf(server.client, id);
  const attempted = async (id: number, attempts: number) => {
    let listed = await deliveries(id);
    while (!(listed[0]?.attempts >= attempts)) {
      await sleep(25);
      listed = await deliveries(id);
    }
    return listed;
  };

  beforeAll(async () => {
    // A retry 1.5 s after a failed attempt: long enough to act on the subscription before it.
    server = await startServer({ env: { WEBHOOK_POLL_INTERVAL_MS: '50', WEBHOOK_RETRY_SECONDS: '1.5,1.5', WEBHOOK_TIMEOUT_MS: '2000' } });
    expect((await server.client.post('/points', { rule_params: { name: 'Ten per unit', rule_effects: [{ type: 'ratio', value: 10, distribution: 'individual_items' }] } })).status).toBe(200);
  });
  afterAll(async () => {
    await server.dispose();
  });
  beforeEach(async () => {
    receiver = await freshReceiver(server.client);
    return () => receiver.close();
  });

  it('sends every header the docs list, signed as the docs tell a receiver to verify, the next attempt on the retry schedule', async () => {
    const { id, secret } = await subscribe(['customer.created']);
    // A redirect is a failed attempt, never followed; the body is UTF-8, signed as sent.
    receiver.answers = [302];
    expect((await server.client.post('/customers', { id: 10, name: 'Zoë Ñandú 🎉', registration_location_id: 1 })).status).toBe(200);
    const [failed] = await attempted(id, 1);
    expect(failed).toMatchObject({ status: 'pending', attempts: 1, last_error: 'answered 302' });
    // Wire datetimes are whole seconds: 1.5 s later is 1 or 2 s later.
    expect([1000, 2000]).toContain(Date.parse(failed.next_attempt_at!) - Date.parse(failed.last_attempt_at!));
    const [first, second] = await receiver.waitFor(2);
    for (const received of [first, second]) {
      expect(received.headers).toMatchObject({
        'content-type': 'application/json', 'user-agent': 'Tally-Webhooks/1', 'tally-event-id': first.event.id, 'tally-event-type': 'customer.created',
        'tally-signature': expect.stringMatching(/^t=\d+,v1=[0-9a-f]{64}$/),
      });
      expect(verify(secret, String(received.headers['tally-signature']), received.text)).toBe(true);
    }
    expect(second.text).toBe(first.text);
    expect(first.event.data.name).toBe('Zoë Ñandú 🎉');
  });

  it('raises no event for an Idempotency-Key replay or a suppressed duplicate, one per change', async () => {
    const { id } = await subscribe(['customer.created', 'customer.updated', 'cart.created', 'points_transaction.created']);
    const key = { headers: { 'Idempotency-Key': 'integrator-create-11' } };
    for (let i = 0; i < 2; i++) expect((await server.client.post('/customers', { id: 11, name: 'Once', registration_location_id: 1 }, key)).status).toBe(200);
    for (let i = 0; i < 2; i++) expect((await server.client.patch('/customers/11', { name: 'Changed once' })).status).toBe(200);
    const cart = { ...cartBody(2, { customer_id: 11, id: 1101 }) };
    for (let i = 0; i < 2; i++) expect((await server.client.post('/carts/realtime', cart, { headers: { 'Idempotency-Key': 'integrator-cart-1101' } })).status).toBe(200);
    await receiver.waitFor(4);
    await sleep(400);
    expect(receiver.received.map((r) => r.event.type).sort()).toEqual(['cart.created', 'customer.created', 'customer.updated', 'points_transaction.created']);
    expect((await deliveries(id)).map((d) => d.status)).toEqual(['delivered', 'delivered', 'delivered', 'delivered']);
  });

  it('never sends the pending retries of a deactivated subscription, even when it is activated again before they are due', async () => {
    const { id } = await subscribe(['customer.created']);
    receiver.answers = [500];
    expect((await server.client.post('/customers', { id: 12, name: 'Deactivated', registration_location_id: 1 })).status).toBe(200);
    await attempted(id, 1);
    // Deactivated and activated again within the 1.5 s before the retry.
    expect((await server.client.patch(`/webhooks/${id}`, { active: false })).status).toBe(200);
    expect(await deliveries(id)).toEqual([expect.objectContaining({ status: 'failed', attempts: 1, last_error: 'webhook deactivated', next_attempt_at: null })]);
    expect((await server.client.patch(`/webhooks/${id}`, { active: true })).status).toBe(200);
    await sleep(2000);
    expect(receiver.received).toHaveLength(1);
    expect(await deliveries(id)).toEqual([expect.objectContaining({ status: 'failed', attempts: 1, last_error: 'webhook deactivated' })]);
    // Activated, it gets the new events.
    expect((await server.client.post('/customers', { id: 16, name: 'After', registration_location_id: 1 })).status).toBe(200);
    const [, after] = await receiver.waitFor(2);
    expect(after.event.data).toMatchObject({ id: 16 });
  });

  it('never sends the pending retries of an event type a PATCH removed from the subscription; those of the types kept are sent', async () => {
    const { id } = await subscribe(['customer.created', 'customer.updated']);
    receiver.answers = [500, 500];
    expect((await server.client.post('/customers', { id: 19, name: 'Unsubscribed', registration_location_id: 1 })).status).toBe(200);
    expect((await server.client.patch('/customers/19', { name: 'Still subscribed' })).status).toBe(200);
    await receiver.waitFor(2);
    while (!(await deliveries(id)).every((delivery) => delivery.attempts === 1)) await sleep(25);
    // customer.created unsubscribed within the 1.5 s before the retries.
    expect((await server.client.patch(`/webhooks/${id}`, { events: ['customer.updated'] })).status).toBe(200);
    expect(await deliveries(id)).toEqual([
      expect.objectContaining({ type: 'customer.updated', status: 'pending', attempts: 1 }),
      expect.objectContaining({ type: 'customer.created', status: 'failed', attempts: 1, last_error: 'event type unsubscribed', next_attempt_at: null }),
    ]);
    await receiver.waitFor(3);
    await sleep(2000);
    expect(receiver.received.map((r) => r.event.type)).toEqual(['customer.created', 'customer.updated', 'customer.updated']);
    expect((await deliveries(id)).map((d) => [d.type, d.status])).toEqual([['customer.updated', 'delivered'], ['customer.created', 'failed']]);
  });

  it('runs a manual retry repeated once the retried attempt failed again, or after a deactivation failed it: the first answer no longer holds', async () => {
    const { id } = await subscribe(['customer.created']);
    receiver.answers = [500, 500, 500, 500];
    expect((await server.client.post('/customers', { id: 17, name: 'Retried twice', registration_location_id: 1 })).status).toBe(200);
    const retry = (deliveryId: number) => server.client.post(`/webhooks/${id}/deliveries/${deliveryId}/retry`);
    const [delivery] = await attempted(id, 3);
    while ((await deliveries(id))[0].status !== 'failed') await sleep(25);
    // The receiver still fails: the retried attempt fails the delivery again (its schedule is spent).
    expect((await retry(delivery.id)).body).toMatchObject({ status: 'pending', attempts: 3 });
    await attempted(id, 4);
    while ((await deliveries(id))[0].status !== 'failed') await sleep(25);
    // Fixed now: the operator presses retry again, the same request, within 5 minutes.
    const again = await retry(delivery.id);
    expect(again.body).toMatchObject({ status: 'pending', attempts: 4 });
    const [, , , , fifth] = await receiver.waitFor(5, 5000);
    expect(fifth.event.id).toBe(delivery.event_id);
    while ((await deliveries(id))[0].status !== 'delivered') await sleep(25);

    // Retried, then failed by a deactivation while its attempt is in flight: activated, the same retry runs again.
    receiver.holdMs = 2500;
    expect((await retry(delivery.id)).body).toMatchObject({ status: 'pending' });
    await receiver.waitFor(6);
    expect((await server.client.patch(`/webhooks/${id}`, { active: false })).status).toBe(200);
    expect((await server.client.patch(`/webhooks/${id}`, { active: true })).status).toBe(200);
    receiver.holdMs = 0;
    await sleep(2600);
    expect((await deliveries(id))[0]).toMatchObject({ status: 'failed', last_error: 'webhook deactivated' });
    expect((await retry(delivery.id)).body).toMatchObject({ status: 'pending' });
    await receiver.waitFor(7, 5000);
    expect(receiver.received.map((r) => r.event.id)).toEqual(Array(7).fill(delivery.event_id));
  });

  it('keeps each Company environment to its own subscriptions: production events go to production\'s only, its webhooks unknown to sandbox', async () => {
    const made = await runCli(server.dataDir, 'key', 'create', '--company', 'default', '--environment', 'production', '--description', 'integrator');
    expect(made.code, JSON.stringify(made.error)).toBe(0);
    const production = server.clientFor({ key: made.output.key, secret: made.output.secret });
    const live = await new Receiver().listen();
    try {
      const { id } = await subscribe(['customer.created']);
      // Ids are per environment: production's subscription is made again until its id is not sandbox's.
      let prod = await production.post('/webhooks', { url: live.url, events: ['customer.created'] });
      if (prod.body.id === id) {
        expect((await server.client.get(`/webhooks/${id}`)).body.url).toBe(receiver.url);
        expect((await production.delete(`/webhooks/${id}`)).status).toBe(200);
        prod = await production.post('/webhooks', { url: live.url, events: ['customer.created'] });
      }
      expect(prod.status, prod.text).toBe(200);
      expect(prod.body.id).not.toBe(id);
      expect((await production.post('/customers', { id: 18, name: 'Live', registration_location_id: 1 })).status).toBe(200);
      const [received] = await live.waitFor(1);
      expect(received.event).toMatchObject({ type: 'customer.created', company_id: 'default', environment: 'production', data: { id: 18 } });
      expect(verify(prod.body.secret, String(received.headers['tally-signature']), received.text)).toBe(true);
      await sleep(300);
      expect(receiver.received).toHaveLength(0);
      expect(await deliveries(id)).toEqual([]);
      // The sandbox key neither lists nor reaches production's subscription.
      expect((await server.client.get('/webhooks')).body.data.map((w: { id: number }) => w.id)).toEqual([id]);
      const refused = [
        await server.client.get(`/webhooks/${prod.body.id}`), await server.client.get(`/webhooks/${prod.body.id}/deliveries`),
        await server.client.patch(`/webhooks/${prod.body.id}`, { active: false }), await server.client.post(`/webhooks/${prod.body.id}/rotate_secret`),
      ];
      expect(refused.map((res) => [res.status, res.body.code])).toEqual(Array(4).fill([404, 'webhook_not_found']));
      // A sandbox delete of that id (404, or the replay of sandbox's own earlier delete of its id, rule 8) leaves it.
      await server.client.delete(`/webhooks/${prod.body.id}`);
      expect((await production.get(`/webhooks/${prod.body.id}`)).body).toEqual(prod.body);
      expect((await production.delete(`/webhooks/${prod.body.id}`)).status).toBe(200);
    } finally {
      await live.close();
    }
  });

  it('keeps a receiver down for a while: every attempt refused is listed, the event arrives once it is up', async () => {
    const down = await new Receiver().listen();
    await down.close();
    const { id } = await server.client.post('/webhooks', { url: down.url, events: ['customer.created'] }).then((res) => res.body);
    expect((await server.client.post('/customers', { id: 13, name: 'Patient', registration_location_id: 1 })).status).toBe(200);
    const [refused] = await attempted(id, 1);
    expect(refused).toMatchObject({ status: 'pending', attempts: 1, last_error: 'ECONNREFUSED' });
    await down.listen(down.port);
    try {
      const [received] = await down.waitFor(1, 5000);
      expect(received.event.id).toBe(refused.event_id);
      await sleep(300);
      expect(down.received).toHaveLength(1);
      expect(await deliveries(id)).toEqual([expect.objectContaining({ status: 'delivered', attempts: 2, last_error: null, next_attempt_at: null })]);
    } finally {
      await down.close();
    }
  });

  it('restarted with an attempt in flight and a retry pending: the first recorded once, the second sent once after the start', async () => {
    const { id } = await subscribe(['customer.created']);
    receiver.answers = [500];
    expect((await server.client.post('/customers', { id: 14, name: 'Retry pending', registration_location_id: 1 })).status).toBe(200);
    const [pending] = await attempted(id, 1);
    receiver.holdMs = 800;
    expect((await server.client.post('/customers', { id: 15, name: 'In flight', registration_location_id: 1 })).status).toBe(200);
    while (receiver.received.length < 2) await sleep(10);
    await server.restart();
    receiver.holdMs = 0;
    await receiver.waitFor(3, 5000);
    await sleep(2000);
    const ids = receiver.received.map((r) => r.event.id);
    expect(ids).toHaveLength(3);
    expect(ids.filter((eventId) => eventId === pending.event_id)).toHaveLength(2);
    expect(new Set(ids).size).toBe(2);
    expect((await deliveries(id)).map((d) => [d.status, d.attempts])).toEqual([['delivered', 1], ['delivered', 2]]);
  });
});
