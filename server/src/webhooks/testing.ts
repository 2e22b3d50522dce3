/** The local receiver of the webhook suites: an HTTP server recording the events it is sent. */
import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';
import type { Client } from '../testing/server.js';

export interface Received {
  headers: IncomingHttpHeaders;
  text: string;
  event: { id: string; type: string; created_at: string; sequence: number; company_id: string; environment: string; data: any; redacted: { at: string; reason: string } | null };
}

/** A local HTTP server receiving webhook events; answers the statuses of `answers` in turn, then 200, after `holdMs` and once `gate` (when set) resolves. */
export class Receiver {
  readonly received: Received[] = [];
  answers: number[] = [];
  holdMs = 0;
  /** Holds every answer until it resolves: an attempt stays in flight while the test changes the subscription. */
  gate?: Promise<unknown>;
  private server?: Server;
  port = 0;

  async listen(port = 0): Promise<this> {
    this.server = createServer((req, res) => {
      let text = '';
      req.on('data', (chunk: Buffer) => (text += chunk.toString()));
      req.on('end', () => {
        this.received.push({ headers: req.headers, text, event: JSON.parse(text) });
        const status = this.answers.shift() ?? 200;
        const answer = () => setTimeout(() => res.writeHead(status).end(), this.holdMs);
        if (this.gate) void this.gate.then(answer);
        else answer();
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

/** Each test its own receiver and subscriptions: removes every subscription, then listens on a free port. */
export async function freshReceiver(client: Client): Promise<Receiver> {
  for (const webhook of (await client.get('/webhooks')).body.data) await client.delete(`/webhooks/${webhook.id}`);
  return new Receiver().listen();
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Verifies Tally-Signature as a receiver would: t=<seconds>,v1=<HMAC-SHA256(secret, "<t>.<body>")>. */
export function signed(received: Received, secret: string): boolean {
  const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(received.headers['tally-signature']));
  if (!match) return false;
  return createHmac('sha256', secret).update(`${match[1]}.${received.text}`).digest('hex') === match[2];
}

/** Subscribes `receiver` to `events` (`POST /webhooks`, expected 200): the subscription's id and secret. */
export async function subscribe(client: Client, receiver: Receiver, events: string[], extra: Record<string, unknown> = {}): Promise<{ id: number; secret: string }> {
  const res = await client.post('/webhooks', { url: receiver.url, events, ...extra });
  expect(res.status, res.text).toBe(200);
  return res.body as { id: number; secret: string };
}

/** A delivery as `GET /webhooks/{id}/deliveries` lists it. */
export interface ListedDelivery {
  id: number;
  event_id: string;
  type: string;
  status: string;
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  last_attempt_at: string | null;
  next_attempt_at: string | null;
}

/** The subscription's deliveries, newest first (expected 200). */
export async function deliveriesOf(client: Client, id: number): Promise<ListedDelivery[]> {
  const res = await client.get(`/webhooks/${id}/deliveries`);
  expect(res.status, res.text).toBe(200);
  return res.body.data as ListedDelivery[];
}
