import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cartBody } from '../testing/carts.js';
import { startServer, type TestServer } from '../testing/server.js';

interface Received {
  headers: IncomingHttpHeaders;
  text: string;
  event: { id: string; type: string; created_at: string; company_id: string; environment: string; data: any };
}

/** A local HTTP server receiving webhook events; answers the statuses of `answers` in turn, then 200. */
class Receiver {
  readonly received: Received[] = [];
  answers: number[] = [];
  private server?: Server;
  port = 0;

  async listen(port = 0): Promise<this> {
    this.server = createServer((req, res) => {
      let text = '';
      req.on('data', (chunk: Buffer) => (text += chunk.toString()));
      req.on('end', () => {
        this.received.push({ headers: req.headers, text, event: JSON.parse(text) });
        res.writeHead(this.answers.shift() ?? 200).end();
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}/hooks`;
  }

  async close(): Promise<void> {
    await new Promise((resolve) => this.server?.close(resolve));
    this.server?.closeAllConnections();
  }

  /** Waits until `count` events have arrived. */
  async waitFor(count: number, timeoutMs = 10_000): Promise<Received[]> {
    const until = Date.now() + timeoutMs;
    while (this.received.length < count) {
      if (Date.now() > until) throw new Error(`received ${this.received.length} events, expected ${count}`);
      await sleep(25);
    }
    return this.received;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Verifies Tally-Signature as a receiver would: t=<seconds>,v1=<HMAC-SHA256(secret, "<t>.<body>")>. */
function signed(received: Received, secret: string): boolean {
  const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(received.headers['tally-signature']));
  if (!match) return false;
  return createHmac('sha256', secret).update(`${match[1]}.${received.text}`).digest('hex') === match[2];
}

// Three attempts 200 ms apart; a poll every 50 ms.
const FAST = { WEBHOOK_POLL_INTERVAL_MS: '50', WEBHOOK_RETRY_SECONDS: '0.2,0.2', WEBHOOK_TIMEOUT_MS: '2000' };

describe('webhooks over HTTP', () => {
  let server: TestServer;
  let receiver: Receiver;

  const subscribe = async (events: string[], extra: Record<string, unknown> = {}) => {
    const res = await server.client.post('/webhooks', { url: receiver.url, events, ...extra });
    expect(res.status, res.text).toBe(200);
    return res.body as { id: number; secret: string };
  };
  const deliveries = async (id: number) => {
    const res = await server.client.get(`/webhooks/${id}/deliveries`);
    expect(res.status, res.text).toBe(200);
    return res.body.data as { event_id: string; type: string; status: string; attempts: number; last_status_code: number | null; last_error: string | null; next_attempt_at: string | null }[];
  };
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
    // Each test its own receiver and subscriptions.
    for (const webhook of (await server.client.get('/webhooks')).body.data) await server.client.delete(`/webhooks/${webhook.id}`);
    receiver = await new Receiver().listen();
    return () => receiver.close();
  });

  it('creates, reads, changes and deletes subscriptions; refuses an invalid one and stores nothing', async () => {
    for (const [body, field] of [
      [{ url: 'ftp://example.com/hooks', events: ['cart.created'] }, 'url'],
      [{ url: 'not a url', events: ['cart.created'] }, 'url'],
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
    expect((await deliveries(id))[1]).toMatchObject({ status: 'failed', attempts: 3, last_status_code: 500, last_error: 'answered 500', next_attempt_at: null });
  });

  it('sends nothing to a deactivated subscription, not even the events raised before', async () => {
    const { id } = await subscribe(['customer.updated'], { active: false });
    await server.client.patch('/customers/1', { name: 'Quiet' });
    await settle();
    expect(receiver.received).toHaveLength(0);
    expect(await deliveries(id)).toEqual([]);

    // Raised while active, deactivated before its next attempt: never sent again.
    expect((await server.client.patch(`/webhooks/${id}`, { active: true })).status).toBe(200);
    receiver.answers = [500];
    await server.client.patch('/customers/1', { name: 'Once' });
    await receiver.waitFor(1);
    expect((await server.client.patch(`/webhooks/${id}`, { active: false })).status).toBe(200);
    await settle();
    expect(receiver.received).toHaveLength(1);
    expect(await deliveries(id)).toEqual([expect.objectContaining({ status: 'failed', attempts: 1, last_error: 'webhook deactivated' })]);
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
