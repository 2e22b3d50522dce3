/**
 * Stores written before one queue per subscription (docs/webhooks.md, Storage): the start moves `webhook_queue`
 * into `webhook_due` and `webhook_heads`, and the pending deliveries are sent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../store/env.js';
import { startServer, type TestServer } from '../testing/server.js';
import { deliveriesOf, freshReceiver, Receiver, subscribe } from './testing.js';
import { migrateWebhookQueue } from './outbox.js';

/** Rewrites the store's queues in the layout of before: one queue, due first. */
async function writeOldQueue(dataDir: string): Promise<number> {
  const env = openStore(dataDir);
  const entries = [...env.db('webhook_due').getRange({})];
  await env.transact(() => {
    for (const { key, value } of entries) {
      const [prefix, webhookKey, due, deliveryKey] = key as [string, string, number, string];
      env.db('webhook_queue').putSync([due, prefix, webhookKey, deliveryKey], value);
      env.db('webhook_due').removeSync(key);
    }
    for (const { key } of [...env.db('webhook_heads').getRange({})]) env.db('webhook_heads').removeSync(key);
  });
  await env.close();
  return entries.length;
}

describe('a webhook queue of before one queue per subscription', () => {
  let server: TestServer;
  let receiver: Receiver;

  beforeAll(async () => {
    server = await startServer({ env: { WEBHOOK_POLL_INTERVAL_MS: '50', WEBHOOK_RETRY_SECONDS: '1,1', WEBHOOK_TIMEOUT_MS: '2000' } });
  });
  afterAll(async () => {
    await server.dispose();
    await receiver.close();
  });

  it('is moved at start, in batches, and its pending deliveries are sent', async () => {
    receiver = await freshReceiver(server.client);
    const { id } = await subscribe(server.client, receiver, ['customer.created']);
    receiver.answers = [500, 500];
    for (const customer of [1, 2]) expect((await server.client.post('/customers', { id: customer, name: `C${customer}`, registration_location_id: 1 })).status).toBe(200);
    await receiver.waitFor(2);
    await server.stop();

    expect(await writeOldQueue(server.dataDir)).toBe(2);
    const env = openStore(server.dataDir);
    expect(await migrateWebhookQueue(env, 1)).toBe(2);
    await env.close();
    await writeOldQueue(server.dataDir);

    await server.restart();
    await receiver.waitFor(4);
    for (;;) {
      const listed = await deliveriesOf(server.client, id);
      if (listed.every((d) => d.status === 'delivered')) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(server.lines.some((line) => line.includes('webhook queue moved into one queue per subscription'))).toBe(true);
  });
});
