/**
 * One slow receiver cannot starve the others (docs/webhooks.md, Delivery): each subscription has at most a few
 * attempts in flight, and the due deliveries are taken subscription by subscription, the overall cap kept.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../testing/cli.js';
import { startServer, type Client, type TestServer } from '../testing/server.js';
import { freshReceiver, Receiver, sleep, subscribe } from './testing.js';

const POLL_MS = 100;

describe('webhook dispatch fairness over HTTP', () => {
  let server: TestServer;
  let other: Client;
  const receivers: Receiver[] = [];

  beforeAll(async () => {
    server = await startServer({ env: { WEBHOOK_POLL_INTERVAL_MS: String(POLL_MS), WEBHOOK_TIMEOUT_MS: '4000' } });
    expect((await runCli(server.dataDir, 'company', 'create', 'other')).code).toBe(0);
    const made = await runCli(server.dataDir, 'key', 'create', '--company', 'other', '--environment', 'sandbox', '--description', 'other');
    expect(made.code, JSON.stringify(made.error)).toBe(0);
    other = server.clientFor({ key: made.output.key, secret: made.output.secret });
  });
  afterAll(async () => {
    await server.dispose();
    for (const receiver of receivers) await receiver.close();
  });

  it("delivers another Company's event within a poll while a receiver that never answers has many due deliveries", async () => {
    const slow = await freshReceiver(server.client);
    receivers.push(slow);
    slow.holdMs = 60_000;
    await subscribe(server.client, slow, ['customer.created']);
    // More due deliveries than the dispatcher sends at once (32).
    for (let id = 1; id <= 40; id++) expect((await server.client.post('/customers', { id, name: `Slow ${id}`, registration_location_id: 1 })).status).toBe(200);
    await slow.waitFor(1);
    await sleep(2 * POLL_MS);

    const fast = await freshReceiver(other);
    receivers.push(fast);
    await subscribe(other, fast, ['customer.created']);
    const sent = Date.now();
    expect((await other.post('/customers', { id: 1, name: 'Other', registration_location_id: 1 })).status).toBe(200);
    const [received] = await fast.waitFor(1, 3_000);
    expect(received.event.company_id).toBe('other');
    // Within one poll interval of being written, with a margin for the machine.
    expect(Date.now() - sent).toBeLessThan(POLL_MS + 400);
    // The slow receiver holds a few attempts, not every slot.
    expect(slow.received.length).toBeLessThan(32);
  });
});
