import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cartBody } from '../testing/carts.js';
import { startServer, type TestServer } from '../testing/server.js';
import { deliveriesOf, freshReceiver, Receiver, signed, sleep, subscribe as subscribeReceiver } from './testing.js';

// Three attempts 200 ms apart; a poll every 50 ms.
const FAST = { WEBHOOK_POLL_INTERVAL_MS: '50', WEBHOOK_RETRY_SECONDS: '0.2,0.2', WEBHOOK_TIMEOUT_MS: '2000' };

describe('webhooks over HTTP', () => {
  let server: TestServer;
  let receiver: Receiver;

  const subscribe = (events: string[], extra: Record<string, unknown> = {}) => subscribeReceiver(server.client, receiver, events, extra);
  const deliveries = (id: number) => deliveriesOf(server.client, id);
  /** Lets the dispatcher run several polls: what it has not sent by then, it will not send. */
  const settle = () => sleep(400);

  beforeAll(async () => {
    server = await startServer({ env: FAST });
    for (const id of [1, 2]) expect((await server.client.post('/customers', { id, name: `Customer ${id}`, registration_location_id: 1 })).status).toBe(200);
    expect((await server.client.post('/points', { rule_params: { name: 'Ten per unit', rule_effects: [{ type: 'ratio', value: 10, distribution: 'individual_items' }] } })).status).toBe(200);
    expect((await server.client.patch('/company', { cart_cancellation_wait_seconds: 0 })).status).toBe(200);
  });
  afterAll(async () => {
    await server.dispose();
  });
  beforeEach(async () => {
    receiver = await freshReceiver(server.client);
    return () => receiver.close();
  });

  it('creates, reads, changes and deletes subscriptions; refuses an invalid one and stores nothing', async () => {
    for (const [body, field] of [
      [{ url: 'ftp://example.com/hooks', events: ['cart.created'] }, 'url'],
      [{ url: 'not a url', events: ['cart.created'] }, 'url'],
      // Written as URLs but no URL the parser reads: stored, every delivery to them failed (ERR_INVALID_URL).
      ...['http://[zz]/', 'http://:80/', 'http://exa%mple.com/', 'http://h:99999/'].map((url) => [{ url, events: ['cart.created'] }, 'url: must be an http or https URL'] as const),
      [{ url: receiver.url, events: ['cart.exploded'] }, 'events'],
      [{ url: receiver.url, events: [] }, 'events'],
      [{ url: receiver.url }, 'events'],
    ] as const) {
      const res = await server.client.post('/webhooks', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toEqual({ code: 'invalid_request', error: expect.stringContaining(field) });
    }
    expect((await server.client.get('/webhooks')).body).toEqual({ data: [] });

    const created = await server.client.post('/webhooks', { url: receiver.url, events: ['cart.created', 'customer.created'], description: 'ERP' });
    expect(created.body).toEqual({
      id: expect.any(Number), url: receiver.url, events: ['cart.created', 'customer.created'], active: true, description: 'ERP',
      secret: expect.stringMatching(/^whsec_[0-9a-f]{64}$/), created_at: expect.any(String), updated_at: expect.any(String),
    });
    const id = created.body.id;
    expect((await server.client.get(`/webhooks/${id}`)).body).toEqual(created.body);
    expect((await server.client.get('/webhooks')).body).toEqual({ data: [created.body] });

    const patched = await server.client.patch(`/webhooks/${id}`, { active: false, events: ['customer.deleted'] });
    expect(patched.body).toEqual({ ...created.body, active: false, events: ['customer.deleted'], updated_at: expect.any(String) });
    expect((await server.client.put(`/webhooks/${id}`, { description: null })).body).toMatchObject({ active: false, description: null });
    const refused = await server.client.patch(`/webhooks/${id}`, { events: [] });
    expect(refused.status).toBe(400);
    expect((await server.client.get(`/webhooks/${id}`)).body.events).toEqual(['customer.deleted']);

    expect((await server.client.delete(`/webhooks/${id}`)).body).toEqual({ status: 'success' });
    for (const res of [await server.client.get(`/webhooks/${id}`), await server.client.get(`/webhooks/${id}/deliveries`), await server.client.patch(`/webhooks/${id}`, { active: true })]) {
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('webhook_not_found');
    }
  });

  it('answers an identical create as the first, and subscribes again once the subscription was deleted (A, B, A)', async () => {
    const body = { url: receiver.url, events: ['customer.deleted'], description: 'again' };
    const first = await server.client.post('/webhooks', body);
    expect(first.status, first.text).toBe(200);
    expect((await server.client.post('/webhooks', body)).text).toBe(first.text);
    expect((await server.client.delete(`/webhooks/${first.body.id}`)).status).toBe(200);
    const again = await server.client.post('/webhooks', body);
    expect(again.status, again.text).toBe(200);
    expect(again.body.id).not.toBe(first.body.id);
    expect((await server.client.get(`/webhooks/${again.body.id}`)).status).toBe(200);
    expect((await server.client.delete(`/webhooks/${again.body.id}`)).status).toBe(200);
  });

  it('delivers cart.created for a realtime cart, signed, with the cart as GET /carts/{id} answers it; a simulate or a refused cart raises nothing', async () => {
    const { id, secret } = await subscribe(['cart.created']);
    expect((await server.client.post('/carts/simulate', cartBody(10, { customer_id: 1 }))).status).toBe(200);
    expect((await server.client.post('/carts/realtime', cartBody(10, { customer_id: 1, lines: 'none' }))).status).toBe(400);
    const cart = await server.client.post('/carts/realtime', cartBody(12.5, { customer_id: 1, id: 501 }));
    expect(cart.status, cart.text).toBe(200);
    // The same id again: refused inside the transaction (409), it raises nothing.
    expect((await server.client.post('/carts/realtime', cartBody(12.5, { customer_id: 1, id: 501 }))).status).toBe(409);
    const [received] = await receiver.waitFor(1);
    await settle();
    expect(receiver.received).toHaveLength(1);
    expect(received.headers).toMatchObject({ 'content-type': 'application/json', 'tally-event-type': 'cart.created', 'tally-event-id': received.event.id });
    expect(signed(received, secret)).toBe(true);
    expect(signed(received, 'whsec_other')).toBe(false);
    expect(received.event).toEqual({
      id: expect.stringMatching(/^evt_[0-9a-f]{32}$/), type: 'cart.created', created_at: expect.stringMatching(/Z$/),
      sequence: expect.any(Number), redacted: null,
      company_id: 'default', environment: 'sandbox', data: JSON.parse((await server.client.get('/carts/501')).text),
    });
    expect(await deliveries(id)).toEqual([expect.objectContaining({ event_id: received.event.id, type: 'cart.created', status: 'delivered', attempts: 1, last_status_code: 200, last_error: null, next_attempt_at: null })]);
  });

  it('delivers points_transaction.created for the points of a cart and cart.cancelled with the mirror cart', async () => {
    await subscribe(['points_transaction.created', 'cart.cancelled']);
    await server.client.post('/carts/realtime', cartBody(3, { customer_id: 2, id: 601 }));
    const [earned] = await receiver.waitFor(1);
    const listed = (await server.client.get('/points/transactions', { query: { customer_id: '2', include: 'historical' } })).body.data;
    expect(earned.event).toMatchObject({ type: 'points_transaction.created', data: { amount: 30, customer_id: 2 } });
    expect(earned.event.data).toEqual(JSON.parse(JSON.stringify(listed.at(-1))));

    expect((await server.client.post('/carts/cancellation', { cart_to_cancel_id: 601, new_cart_id: 602 })).status).toBe(200);
    await receiver.waitFor(3);
    const types = receiver.received.map((r) => r.event.type).sort();
    expect(types).toEqual(['cart.cancelled', 'points_transaction.created', 'points_transaction.created']);
    const mirror = receiver.received.find((r) => r.event.type === 'cart.cancelled')!;
    expect(mirror.event.data).toEqual(JSON.parse((await server.client.get('/carts/602')).text));
    const reversal = receiver.received.find((r) => r.event.type === 'points_transaction.created' && r !== earned)!;
    expect(reversal.event.data).toMatchObject({ amount: -30, customer_id: 2 });
  });

  it('delivers customer.created, customer.updated and customer.deleted, each with its own event id', async () => {
    const { secret } = await subscribe(['customer.created', 'customer.updated', 'customer.deleted']);
    expect((await server.client.post('/customers', { id: 70, code: 'C70', name: 'Ann', registration_location_id: 1 })).status).toBe(200);
    expect((await server.client.patch('/customers/70', { name: 'Anna' })).status).toBe(200);
    const updated = JSON.parse((await server.client.get('/customers/70', { query: { search_param: 'id' } })).text);
    // Received before the delete: the delete erases the data of deliveries still pending (erasure.test.ts).
    await receiver.waitFor(2);
    expect((await server.client.delete('/customers/70', { query: { hard: 'true' }, headers: { 'Content-Type': 'application/json' } })).status).toBe(200);
    // A refused change raises nothing.
    expect((await server.client.patch('/customers/71', { name: 'Nobody' })).status).toBe(404);
    const events = (await receiver.waitFor(3)).map((r) => r.event);
    await settle();
    expect(receiver.received).toHaveLength(3);
    expect(receiver.received.every((r) => signed(r, secret))).toBe(true);
    const byType = Object.fromEntries(events.map((e) => [e.type, e]));
    expect(byType['customer.created'].data).toMatchObject({ id: 70, code: 'C70', name: 'Ann' });
    expect(byType['customer.updated'].data).toEqual(updated);
    expect(byType['customer.deleted'].data).toEqual({ id: 70, code: 'C70', deleted: 'hard' });
    expect(new Set(events.map((e) => e.id)).size).toBe(3);
  });

  it('raises nothing for a PATCH that changes nothing, which keeps updated_at and leaves no audit entry', async () => {
    await subscribe(['customer.updated']);
    const patch = (body: Record<string, unknown>) => server.client.patch('/customers/72', body, { query: { search_param: 'id' } });
    const read = async () => (await server.client.get('/customers/72', { query: { search_param: 'id' } })).body;
    const audited = async () => (await server.client.get('/audit_log', { query: { target: 'customer:72' } })).body.data.length;
    expect((await server.client.post('/customers', { id: 72, name: 'Ann', email: 'ann72@example.com', registration_location_id: 1, attributes: { size: 'M' } })).status).toBe(200);
    const before = await read();
    const entries = await audited();
    await sleep(1100);
    // Nothing sent, or every value as stored (the email as sent before it was stored lowercase, an attribute unchanged).
    for (const body of [{}, { name: 'Ann', email: 'ANN72@example.com', attributes: { size: 'M' } }, { updated_at: '2020-01-01T00:00:00Z' }]) {
      const res = await patch(body);
      expect([res.status, res.body]).toEqual([200, { status: 'success' }]);
    }
    await settle();
    expect(receiver.received).toHaveLength(0);
    expect(await read()).toEqual(before);
    expect(await audited()).toBe(entries);
    // A change still raises its event.
    expect((await patch({ name: 'Anna' })).status).toBe(200);
    const [changed] = await receiver.waitFor(1);
    expect(changed.event).toMatchObject({ type: 'customer.updated', data: { id: 72, name: 'Anna' } });
    expect((await read()).updated_at).not.toBe(before.updated_at);
    expect(await audited()).toBe(entries + 1);
  });

  it('writes nothing for a subscription PATCH that changes nothing: updated_at kept, no audit entry; a change still writes', async () => {
    const created = await server.client.post('/webhooks', { url: receiver.url, events: ['customer.created', 'customer.deleted'], description: 'ERP' });
    expect(created.status, created.text).toBe(200);
    const path = `/webhooks/${created.body.id}`;
    const audited = async () => (await server.client.get('/audit_log', { query: { target: `webhook:${created.body.id}` } })).body.data.length;
    const entries = await audited();
    // updated_at is whole seconds: a write now would move it.
    await sleep(1100);
    for (const body of [{}, { description: 'ERP' }, { url: receiver.url, events: ['customer.created', 'customer.deleted'], active: true, description: 'ERP' }]) {
      const res = await server.client.patch(path, body);
      expect([res.status, res.body], JSON.stringify(body)).toEqual([200, created.body]);
    }
    expect((await server.client.put(path, { active: true })).body).toEqual(created.body);
    expect((await server.client.get(path)).body).toEqual(created.body);
    expect(await audited()).toBe(entries);
    // A change still writes: stored, updated_at moved, audited.
    const changed = await server.client.patch(path, { description: null });
    expect(changed.body).toEqual({ ...created.body, description: null, updated_at: expect.any(String) });
    expect(changed.body.updated_at).not.toBe(created.body.updated_at);
    expect(await audited()).toBe(entries + 1);
  });

  it('keeps a url\'s credentials in the subscription, which sends them, and not in the audit log of its create and update', async () => {
    const withCredentials = (password: string) => receiver.url.replace('http://', `http://hooks:${password}@`);
    const created = await server.client.post('/webhooks', { url: withCredentials('first-s3cret'), events: ['customer.created'] });
    expect(created.status, created.text).toBe(200);
    const path = `/webhooks/${created.body.id}`;
    expect((await server.client.patch(path, { url: withCredentials('second-s3cret') })).status).toBe(200);
    expect((await server.client.get(path)).body.url).toBe(withCredentials('second-s3cret'));
    expect((await server.client.post('/customers', { id: 73, name: 'Ann', registration_location_id: 1 })).status).toBe(200);
    const [received] = await receiver.waitFor(1);
    expect(received.headers.authorization).toBe(`Basic ${Buffer.from('hooks:second-s3cret').toString('base64')}`);

    const entries = (await server.client.get('/audit_log', { query: { target: `webhook:${created.body.id}` } })).body.data as any[];
    expect(entries.map((entry) => [entry.operation, JSON.parse(entry.body).url])).toEqual([
      ['webhooks.update', receiver.url.replace('http://', 'http://[redacted]@')],
      ['webhooks.create', receiver.url.replace('http://', 'http://[redacted]@')],
    ]);
    expect(JSON.stringify(entries)).not.toMatch(/s3cret|hooks:/);
  });

  // Schemes are case-insensitive (RFC 3986): `HTTP://` was refused by the schema's pattern.
  it('takes a url whose scheme is in capitals, and delivers to it', async () => {
    const upper = receiver.url.replace('http://', 'HTTP://');
    const created = await server.client.post('/webhooks', { url: upper, events: ['customer.created'] });
    expect(created.status, created.text).toBe(200);
    expect(created.body.url).toBe(upper);
    expect((await server.client.post('/customers', { id: 74, name: 'Bea', registration_location_id: 1 })).status).toBe(200);
    const [received] = await receiver.waitFor(1);
    expect(received.event).toMatchObject({ type: 'customer.created', data: { id: 74 } });
    expect((await server.client.delete(`/webhooks/${created.body.id}`)).status).toBe(200);
  });

  it('retries a failed attempt with the same event id, and gives up when the retry schedule is spent', async () => {
    const { id } = await subscribe(['customer.updated']);
    receiver.answers = [500];
    await server.client.patch('/customers/1', { name: 'Retried' });
    const [first, second] = await receiver.waitFor(2);
    expect(second.event.id).toBe(first.event.id);
    expect(second.text).toBe(first.text);
    await settle();
    expect(await deliveries(id)).toEqual([expect.objectContaining({ event_id: first.event.id, status: 'delivered', attempts: 2, last_status_code: 200 })]);

    receiver.answers = [500, 503, 500, 500];
    await server.client.patch('/customers/1', { name: 'Refused' });
    await receiver.waitFor(5);
    await settle();
    expect(receiver.received).toHaveLength(5);
    // Newest first.
    expect((await deliveries(id))[0]).toMatchObject({ status: 'failed', attempts: 3, last_status_code: 500, last_error: 'answered 500', next_attempt_at: null });
  });

  it('fails an attempt answered after WEBHOOK_TIMEOUT_MS, and retries it', async () => {
    const { id } = await subscribe(['customer.updated']);
    receiver.holdMs = 2300;
    await server.client.patch('/customers/1', { name: 'Slowly' });
    let listed = await deliveries(id);
    while (!(listed[0]?.attempts >= 1)) {
      await sleep(50);
      listed = await deliveries(id);
    }
    expect(listed[0]).toMatchObject({ status: 'pending', attempts: 1, last_status_code: null, last_error: 'no answer within 2000 ms' });
    receiver.holdMs = 0;
    await receiver.waitFor(2);
    await settle();
    expect(await deliveries(id)).toEqual([expect.objectContaining({ status: 'delivered', attempts: 2, last_status_code: 200, last_error: null })]);
  });

  it('rotates the secret: the next attempts are signed with the new one only, the old one at once invalid', async () => {
    const { id, secret } = await subscribe(['customer.updated']);
    await server.client.patch('/customers/1', { name: 'Before rotation' });
    const [before] = await receiver.waitFor(1);
    expect(signed(before, secret)).toBe(true);

    const rotated = await server.client.post(`/webhooks/${id}/rotate_secret`);
    expect(rotated.status, rotated.text).toBe(200);
    expect(rotated.body).toMatchObject({ id, secret: expect.stringMatching(/^whsec_[0-9a-f]{64}$/) });
    expect(rotated.body.secret).not.toBe(secret);
    expect((await server.client.get(`/webhooks/${id}`)).body.secret).toBe(rotated.body.secret);

    await server.client.patch('/customers/1', { name: 'After rotation' });
    const [, after] = await receiver.waitFor(2);
    expect(signed(after, rotated.body.secret)).toBe(true);
    expect(signed(after, secret)).toBe(false);

    const unknown = await server.client.post('/webhooks/999999/rotate_secret');
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('webhook_not_found');
  });

  it('lists deliveries newest first, filtered by status and event_type, a page at a time', async () => {
    const { id } = await subscribe(['customer.created', 'customer.updated']);
    // The first event fails its three attempts; the next two are delivered.
    receiver.answers = [500, 500, 500];
    expect((await server.client.post('/customers', { id: 80, name: 'Listed', registration_location_id: 1 })).status).toBe(200);
    await receiver.waitFor(3);
    await settle();
    await server.client.patch('/customers/80', { name: 'Listed once' });
    await receiver.waitFor(4);
    await server.client.patch('/customers/80', { name: 'Listed twice' });
    await receiver.waitFor(5);
    await settle();

    const all = await deliveries(id);
    expect(all.map((d) => [d.type, d.status])).toEqual([['customer.updated', 'delivered'], ['customer.updated', 'delivered'], ['customer.created', 'failed']]);
    const list = (query: Record<string, string>) => server.client.get(`/webhooks/${id}/deliveries`, { query });
    expect((await list({ status: 'failed' })).body.data).toEqual([all[2]]);
    expect((await list({ status: 'delivered', event_type: 'customer.updated' })).body.data).toEqual([all[0], all[1]]);
    expect((await list({ status: 'pending' })).body).toEqual({ data: [] });
    expect((await list({ event_type: 'customer.deleted' })).body).toEqual({ data: [] });
    const refused = await list({ status: 'lost' });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ code: 'invalid_request', error: expect.stringContaining('status') });

    const first = (await list({ per_page: '2' })).body;
    expect(first.data).toEqual([all[0], all[1]]);
    const second = (await list({ per_page: '2', starting_after: first.next_token_starts_after })).body;
    expect(second).toEqual({ data: [all[2]] });
  });

  it('retries a failed delivery now with the same event id and body; refuses a pending one, an unknown one, and an inactive webhook', async () => {
    const { id } = await subscribe(['customer.updated']);
    receiver.answers = [500, 500, 500];
    await server.client.patch('/customers/2', { name: 'Given up' });
    const [firstAttempt] = await receiver.waitFor(3);
    await settle();
    const [failed] = (await server.client.get(`/webhooks/${id}/deliveries`)).body.data;
    expect(failed).toMatchObject({ status: 'failed', attempts: 3 });

    // The receiver is fixed (answers 200), slowly: the retried attempt is in flight while the delivery is retried again.
    receiver.holdMs = 500;
    const retried = await server.client.post(`/webhooks/${id}/deliveries/${failed.id}/retry`);
    expect(retried.status, retried.text).toBe(200);
    expect(retried.body).toMatchObject({ id: failed.id, event_id: failed.event_id, status: 'pending', attempts: 3, next_attempt_at: expect.any(String) });
    const again = await server.client.post(`/webhooks/${id}/deliveries/${failed.id}/retry`, { note: 'a different request' });
    expect(again.status, again.text).toBe(409);
    expect(again.body.code).toBe('conflict');
    const [, , , resent] = await receiver.waitFor(4);
    expect(resent.event.id).toBe(firstAttempt.event.id);
    expect(resent.text).toBe(firstAttempt.text);
    await sleep(600);
    expect((await server.client.get(`/webhooks/${id}/deliveries`)).body.data).toEqual([
      expect.objectContaining({ id: failed.id, status: 'delivered', attempts: 4, last_status_code: 200, last_error: null, next_attempt_at: null }),
    ]);

    for (const [path, code] of [[`/webhooks/${id}/deliveries/999999/retry`, 'delivery_not_found'], [`/webhooks/999999/deliveries/${failed.id}/retry`, 'webhook_not_found']]) {
      const res = await server.client.post(path);
      expect(res.status, path).toBe(404);
      expect(res.body.code).toBe(code);
    }
    expect((await server.client.patch(`/webhooks/${id}`, { active: false })).status).toBe(200);
    const inactive = await server.client.post(`/webhooks/${id}/deliveries/${failed.id}/retry`, { note: 'inactive' });
    expect(inactive.status).toBe(409);
    expect(inactive.body).toEqual({ code: 'conflict', error: expect.stringContaining('inactive') });
    await settle();
    expect(receiver.received).toHaveLength(4);
  });

  it('sends nothing to a subscription created inactive', async () => {
    const { id } = await subscribe(['customer.updated'], { active: false });
    await server.client.patch('/customers/1', { name: 'Quiet' });
    await settle();
    expect(receiver.received).toHaveLength(0);
    expect(await deliveries(id)).toEqual([]);
  });
});

/**
 * Deactivated while its event's first attempt is in flight. The attempt is held at the receiver until the deactivating
 * PATCH has answered, so the order is the test's, not the machine's: answered at once, a 500 let the retry (200 ms
 * later) beat a PATCH slowed by a busy machine, and the receiver got the event twice. WEBHOOK_TIMEOUT_MS is a minute
 * so the held attempt cannot time out (and be retried) first, however slow the PATCH.
 */
describe('a webhook deactivated during an attempt', () => {
  let server: TestServer;
  let receiver: Receiver;
  beforeAll(async () => {
    server = await startServer({ env: { ...FAST, WEBHOOK_TIMEOUT_MS: '60000' } });
    expect((await server.client.post('/customers', { id: 1, name: 'Customer 1', registration_location_id: 1 })).status).toBe(200);
    receiver = await freshReceiver(server.client);
  });
  afterAll(async () => {
    await receiver.close();
    await server.dispose();
  });

  it('sends the event raised while active once: the attempt\'s failure is not recorded, no retry follows, not even once active again', async () => {
    const { id } = await subscribeReceiver(server.client, receiver, ['customer.updated']);
    let release!: () => void;
    receiver.gate = new Promise<void>((resolve) => (release = resolve));
    receiver.answers = [500];
    await server.client.patch('/customers/1', { name: 'Once' });
    await receiver.waitFor(1);
    expect((await server.client.patch(`/webhooks/${id}`, { active: false })).status).toBe(200);
    release();
    await sleep(400); // several polls, and twice the first retry's delay (0.2 s): a recorded 500 would be retried by now
    expect(await deliveriesOf(server.client, id)).toEqual([expect.objectContaining({ status: 'failed', attempts: 0, last_status_code: null, last_error: 'webhook deactivated', next_attempt_at: null })]);
    // Activating it again sends none of the deliveries its deactivation failed (docs/webhooks.md, `active`).
    expect((await server.client.patch(`/webhooks/${id}`, { active: true })).status).toBe(200);
    await sleep(400);
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0].event).toMatchObject({ type: 'customer.updated', data: expect.objectContaining({ name: 'Once' }) });
    expect((await deliveriesOf(server.client, id))[0]).toMatchObject({ status: 'failed', attempts: 0, last_error: 'webhook deactivated' });
  });
});

describe('webhook deliveries survive a crash', () => {
  let server: TestServer;
  afterAll(async () => {
    await server.dispose();
  });

  it('delivers an event raised while the receiver was down once it is up, after the server was killed and started again', async () => {
    server = await startServer({ env: { WEBHOOK_POLL_INTERVAL_MS: '50', WEBHOOK_RETRY_SECONDS: '1,1,1,1,1,1,1,1,1,1' } });
    // A port nothing listens on (yet).
    const receiver = await new Receiver().listen();
    await receiver.close();
    const created = await server.client.post('/webhooks', { url: receiver.url, events: ['customer.created'] });
    expect((await server.client.post('/customers', { id: 5, name: 'Durable', registration_location_id: 1 })).status).toBe(200);
    let listed: { event_id: string; attempts: number; status: string; last_error: string | null }[] = [];
    while (!(listed[0]?.attempts >= 1)) {
      await sleep(50);
      listed = (await server.client.get(`/webhooks/${created.body.id}/deliveries`)).body.data;
    }
    expect(listed[0]).toMatchObject({ status: 'pending', last_error: 'ECONNREFUSED' });
    await server.crash();
    await receiver.listen(receiver.port);
    await server.restart();
    const [received] = await receiver.waitFor(1);
    expect(received.event).toMatchObject({ id: listed[0].event_id, type: 'customer.created', data: { id: 5, name: 'Durable' } });
    await receiver.close();
  });
});
