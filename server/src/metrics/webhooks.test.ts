/**
 * The webhook metrics: attempts by outcome and deliveries settled by type and status, counted by the dispatcher;
 * the outbox's due deliveries, due subscriptions and oldest due, and the attempts in flight, read at scrape time.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../testing/server.js';
import { freshReceiver, type Receiver, subscribe } from '../webhooks/testing.js';
import { scrape, scrapeUntil, value, type Sample } from './testing.js';

describe('webhook metrics', () => {
  let server: TestServer;
  let receiver: Receiver | undefined;
  let customer = 0;
  const create = async () => {
    customer += 1;
    expect((await server.client.post('/customers', { id: customer, name: `C${customer}`, registration_location_id: 1 })).status).toBe(200);
  };
  const attempts = (samples: Sample[], outcome: string) => value(samples, 'tally_webhook_attempts_total', { outcome }) ?? 0;
  const settled = (samples: Sample[], status: string) => value(samples, 'tally_webhook_deliveries_total', { type: 'customer.created', status }) ?? 0;

  beforeAll(async () => {
    server = await startServer({ env: { METRICS_PORT: '0', WEBHOOK_POLL_INTERVAL_MS: '50', WEBHOOK_RETRY_SECONDS: '1', WEBHOOK_TIMEOUT_MS: '5000' } });
  });
  afterAll(async () => {
    await server.dispose();
    await receiver?.close();
  });

  it('counts each attempt by outcome, and each delivery settled by event type and status', async () => {
    receiver = await freshReceiver(server.client);
    await subscribe(server.client, receiver, ['customer.created']);
    const idle = await scrape(server);
    expect(value(idle, 'tally_webhook_deliveries_due')).toBe(0);
    expect(value(idle, 'tally_webhook_subscriptions_due')).toBe(0);
    expect(value(idle, 'tally_webhook_oldest_due_seconds')).toBe(0);
    expect(value(idle, 'tally_webhook_attempts_in_flight')).toBe(0);

    // Two 500s: an attempt retried, then the schedule (one retry) spent.
    receiver.answers = [500, 500];
    await create();
    const failed = await scrapeUntil(server, (s) => attempts(s, 'failed') === 1);
    expect(attempts(failed, 'retry')).toBe(1);
    expect(attempts(failed, 'delivered')).toBe(0);
    expect(settled(failed, 'failed')).toBe(1);
    expect(settled(failed, 'delivered')).toBe(0);

    await create();
    const delivered = await scrapeUntil(server, (s) => attempts(s, 'delivered') === 1);
    expect(settled(delivered, 'delivered')).toBe(1);
    expect(attempts(delivered, 'retry')).toBe(1);
    expect(attempts(delivered, 'failed')).toBe(1);
  });

  it('reads the deliveries due, the subscriptions due, the oldest due and the attempts in flight at scrape time', async () => {
    await receiver!.close();
    receiver = await freshReceiver(server.client);
    await subscribe(server.client, receiver, ['customer.created']);
    // A receiver slow to answer: the subscription holds 4 attempts in flight, the 2 others wait, due.
    receiver.holdMs = 2_000;
    for (let i = 0; i < 6; i++) await create();
    const busy = await scrapeUntil(server, (s) => value(s, 'tally_webhook_attempts_in_flight') === 4 && value(s, 'tally_webhook_deliveries_due') === 2);
    expect(value(busy, 'tally_webhook_subscriptions_due')).toBe(1);
    expect(value(busy, 'tally_webhook_oldest_due_seconds')).toBeGreaterThan(0);

    await receiver.waitFor(6);
    const drained = await scrapeUntil(server, (s) => value(s, 'tally_webhook_attempts_in_flight') === 0 && value(s, 'tally_webhook_deliveries_due') === 0);
    expect(value(drained, 'tally_webhook_subscriptions_due')).toBe(0);
    expect(value(drained, 'tally_webhook_oldest_due_seconds')).toBe(0);
    expect(settled(drained, 'delivered')).toBe(7);
  });
});
