/**
 * A queue entry naming no delivery (its delivery removed without it) is removed by the dispatcher's next claim:
 * kept, it would be skipped at every poll and keep its subscription listed as due.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scrapeUntil, value } from '../metrics/testing.js';
import { openStore } from '../store/env.js';
import { idKey, tenantPrefix } from '../store/keys.js';
import { startServer, type TestServer } from '../testing/server.js';
import { freshReceiver, type Receiver, subscribe } from './testing.js';

const tenant = { companyId: 'default', environment: 'sandbox' as const };

describe('a webhook queue entry whose delivery is missing', () => {
  let server: TestServer;
  let receiver: Receiver;

  beforeAll(async () => {
    server = await startServer({ env: { METRICS_PORT: '0', WEBHOOK_POLL_INTERVAL_MS: '50' } });
  });
  afterAll(async () => {
    await server.dispose();
    await receiver.close();
  });

  it('is removed, and its subscription is no longer due; the subscription still gets its events', async () => {
    receiver = await freshReceiver(server.client);
    const { id } = await subscribe(server.client, receiver, ['customer.created']);
    await server.stop();
    const env = openStore(server.dataDir);
    const due = Date.now() - 60_000;
    const entry = [tenantPrefix(tenant), idKey(String(id)), due, idKey('999999')];
    await env.transact(() => {
      env.db('webhook_due').putSync(entry, tenant);
      env.db('webhook_heads').putSync([due, tenantPrefix(tenant), idKey(String(id))], tenant);
    });
    await env.close();

    await server.restart();
    await scrapeUntil(server, (s) => value(s, 'tally_webhook_subscriptions_due') === 0);
    expect((await server.client.post('/customers', { id: 1, name: 'C1', registration_location_id: 1 })).status).toBe(200);
    await receiver.waitFor(1);
    await server.stop();
    const after = openStore(server.dataDir);
    expect(after.db('webhook_due').get(entry)).toBeUndefined();
    expect([...after.db('webhook_heads').getKeys({})].some((key) => (key as unknown[])[0] === due)).toBe(false);
    await after.close();
    await server.restart();
  });
});
