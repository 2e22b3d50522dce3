import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../testing/server.js';
import { Receiver, sleep } from './testing.js';

// Three attempts 200 ms apart; a poll every 50 ms.
const REFUSE = { WEBHOOK_PRIVATE_ADDRESSES: 'refuse', WEBHOOK_POLL_INTERVAL_MS: '50', WEBHOOK_RETRY_SECONDS: '0.2,0.2', WEBHOOK_TIMEOUT_MS: '2000' };
const REFUSED = 'destination address not allowed';

describe('WEBHOOK_PRIVATE_ADDRESSES=refuse', () => {
  let server: TestServer;
  let receiver: Receiver;
  /** Subscribed while private addresses were allowed, with an event waiting for it. */
  let stored: { id: number; url: string };

  const deliveriesOf = async (id: number) => (await server.client.get(`/webhooks/${id}/deliveries`)).body.data as Record<string, unknown>[];
  /** Waits until the subscription's deliveries are settled (the retry schedule spent). */
  const settled = async (id: number) => {
    const until = Date.now() + 10_000;
    let listed = await deliveriesOf(id);
    while (listed.length === 0 || listed.some((delivery) => delivery.status === 'pending')) {
      if (Date.now() > until) throw new Error(`deliveries not settled: ${JSON.stringify(listed)}`);
      await sleep(50);
      listed = await deliveriesOf(id);
    }
    return listed;
  };

  beforeAll(async () => {
    receiver = await new Receiver().listen();
    // Allowed (the default) and the dispatcher off: the event waits in the outbox for the next start.
    const allowing = await startServer({ env: { WEBHOOK_POLL_INTERVAL_MS: '0' } });
    stored = (await allowing.client.post('/webhooks', { url: receiver.url, events: ['customer.created'] })).body;
    expect(stored.url).toBe(receiver.url);
    expect((await allowing.client.post('/customers', { id: 1, name: 'Before', registration_location_id: 1 })).status).toBe(200);
    await allowing.stop();
    server = await startServer({ dataDir: allowing.dataDir, env: REFUSE });
  });
  afterAll(async () => {
    await server?.dispose();
    await receiver.close();
  });

  it('refuses a url naming a loopback, private, link-local, ... address in any spelling at create and change, storing nothing', async () => {
    for (const url of [
      receiver.url, 'http://[::1]/', 'http://169.254.169.254/latest/meta-data', 'http://10.0.0.1/', 'http://2130706433/', 'http://0x7f.1/',
      'http://017700000001/', 'http://127.1:9464/metrics', 'http://[::ffff:127.0.0.1]/', 'http://0.0.0.0/', 'http://[::]/', 'https://192.168.1.1/',
      'http://172.16.0.1/', 'http://100.64.0.1/', 'http://[fd00::1]/', 'http://[fe80::1]/', 'http://224.0.0.1/', 'http://[ff02::1]/',
    ]) {
      const res = await server.client.post('/webhooks', { url, events: ['customer.created'] });
      expect(res.status, url).toBe(400);
      expect(res.body, url).toEqual({ code: 'invalid_request', error: expect.stringMatching(/^url: destination address not allowed/) });
    }
    expect((await server.client.get('/webhooks')).body.data.map((webhook: { id: number }) => webhook.id)).toEqual([stored.id]);

    // A public address is accepted (a documentation range: inactive, nothing is sent there); changing it to a private one is not.
    const publicOne = await server.client.post('/webhooks', { url: 'https://192.0.2.10/hooks', events: ['customer.created'], active: false });
    expect(publicOne.status, publicOne.text).toBe(200);
    const moved = await server.client.patch(`/webhooks/${publicOne.body.id}`, { url: 'http://[::ffff:10.1.2.3]/' });
    expect(moved.status).toBe(400);
    expect(moved.body.error).toMatch(/^url: /);
    expect((await server.client.get(`/webhooks/${publicOne.body.id}`)).body.url).toBe('https://192.0.2.10/hooks');
    expect((await server.client.patch(`/webhooks/${publicOne.body.id}`, { description: 'no url given' })).status).toBe(200);
    expect((await server.client.delete(`/webhooks/${publicOne.body.id}`)).status).toBe(200);
  });

  it('refuses every attempt to a private address before connecting: one stored before, and a name resolving to loopback', async () => {
    // Stored while allowed: its waiting event is refused now, through the retry schedule.
    expect(await settled(stored.id)).toEqual([expect.objectContaining({ status: 'failed', attempts: 3, last_status_code: null, last_error: REFUSED, next_attempt_at: null })]);

    // A name is not resolved when the subscription is written; it is at every attempt (localhost: 127.0.0.1 and ::1).
    const named = await server.client.post('/webhooks', { url: `http://localhost:${receiver.port}/hooks`, events: ['customer.updated'] });
    expect(named.status, named.text).toBe(200);
    expect((await server.client.patch('/customers/1', { name: 'After' })).status).toBe(200);
    let listed = await deliveriesOf(named.body.id);
    while (!((listed[0]?.attempts as number) >= 1)) {
      await sleep(25);
      listed = await deliveriesOf(named.body.id);
    }
    expect(listed[0]).toMatchObject({ status: 'pending', attempts: 1, last_status_code: null, last_error: REFUSED, next_attempt_at: expect.any(String) });
    expect(await settled(named.body.id)).toEqual([expect.objectContaining({ status: 'failed', attempts: 3, last_status_code: null, last_error: REFUSED })]);
    expect(receiver.received).toHaveLength(0);
  });
});

describe('WEBHOOK_PRIVATE_ADDRESSES other than allow or refuse', () => {
  it('stops the start with its reason (also a webhook timeout of 0 or an empty retry delay)', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'tally-test-'));
    try {
      await expect(startServer({ dataDir, env: { WEBHOOK_PRIVATE_ADDRESSES: 'deny' } })).rejects.toThrow(/WEBHOOK_PRIVATE_ADDRESSES must be one of allow, refuse, got deny/);
      await expect(startServer({ dataDir, env: { WEBHOOK_TIMEOUT_MS: '0' } })).rejects.toThrow(/WEBHOOK_TIMEOUT_MS must be a number > 0, got 0/);
      await expect(startServer({ dataDir, env: { WEBHOOK_RETRY_SECONDS: '30,,60' } })).rejects.toThrow(/WEBHOOK_RETRY_SECONDS must be numbers >= 0 separated by commas/);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
