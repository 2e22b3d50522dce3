import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../testing/server.js';
import { DestinationRefused, publicLookup } from './destinations.js';
import { Receiver, sleep } from './testing.js';

// Three attempts 200 ms apart; a poll every 50 ms.
const REFUSE = { WEBHOOK_PRIVATE_ADDRESSES: 'refuse', WEBHOOK_POLL_INTERVAL_MS: '50', WEBHOOK_RETRY_SECONDS: '0.2,0.2', WEBHOOK_TIMEOUT_MS: '2000' };
const REFUSED = 'destination address not allowed';

describe('WEBHOOK_PRIVATE_ADDRESSES=refuse', () => {
  let server: TestServer;
  let receiver: Receiver;
  /** Subscribed while private addresses were allowed, with an event waiting for it. */
  let stored: { id: number; url: string };
  /** Subscribed then too: IPv6 addresses carrying a private IPv4 one (6to4, NAT64, IPv4-compatible) and a Teredo one. */
  let embedding: { id: number; url: string }[];

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
    embedding = [];
    for (const url of [`http://[2002:7f00:1::]:${receiver.port}/hooks`, 'http://[64:ff9b::7f00:1]/', 'http://[::7f00:1]/', 'http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/']) {
      const res = await allowing.client.post('/webhooks', { url, events: ['customer.created'] });
      expect(res.status, res.text).toBe(200);
      embedding.push(res.body);
    }
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
      // An IPv6 address carrying a private IPv4 one: 6to4 (127.0.0.1, 169.254.169.254), NAT64's well-known prefix; every
      // IPv4-compatible (deprecated) and every Teredo address, whatever IPv4 addresses they carry.
      'http://[2002:7f00:0001::]/', 'http://[2002:a9fe:a9fe::1]/latest/meta-data', 'http://[64:ff9b::7f00:1]/', 'http://[64:ff9b::10.0.0.1]/',
      'http://[::7f00:1]/', 'http://[::127.0.0.1]/', 'http://[::8.8.8.8]/', 'http://[2001:0::1]/', 'http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/',
      // The special-purpose ranges IANA lists as not globally reachable: documentation, benchmarking, discard, SRv6.
      'https://192.0.2.10/hooks', 'https://198.51.100.7/', 'https://203.0.113.1/', 'https://198.18.0.1/', 'http://[2001:db8::1]/',
      'http://[3fff::1]/', 'http://[2001:2::1]/', 'http://[100::1]/', 'http://[5f00::1]/', 'http://[2002:c000:20a::]/', 'http://[64:ff9b::203.0.113.1]/',
    ]) {
      const res = await server.client.post('/webhooks', { url, events: ['customer.created'] });
      expect(res.status, url).toBe(400);
      expect(res.body, url).toEqual({ code: 'invalid_request', error: expect.stringMatching(/^url: destination address not allowed/) });
    }
    expect((await server.client.get('/webhooks')).body.data.map((webhook: { id: number }) => webhook.id)).toEqual([stored, ...embedding].map(({ id }) => id));

    // An IPv6 address carrying a public IPv4 one (8.8.8.8) is accepted.
    for (const url of ['https://[2002:808:808::]/hooks', 'https://[64:ff9b::8.8.8.8]/hooks']) {
      const res = await server.client.post('/webhooks', { url, events: ['customer.created'], active: false });
      expect(res.status, res.text).toBe(200);
      expect((await server.client.delete(`/webhooks/${res.body.id}`)).status).toBe(200);
    }

    // A public address is accepted (inactive: nothing is sent there); changing it to a private one is not.
    const publicOne = await server.client.post('/webhooks', { url: 'https://8.8.8.8/hooks', events: ['customer.created'], active: false });
    expect(publicOne.status, publicOne.text).toBe(200);
    const moved = await server.client.patch(`/webhooks/${publicOne.body.id}`, { url: 'http://[::ffff:10.1.2.3]/' });
    expect(moved.status).toBe(400);
    expect(moved.body.error).toMatch(/^url: /);
    expect((await server.client.get(`/webhooks/${publicOne.body.id}`)).body.url).toBe('https://8.8.8.8/hooks');
    expect((await server.client.patch(`/webhooks/${publicOne.body.id}`, { description: 'no url given' })).status).toBe(200);
    expect((await server.client.delete(`/webhooks/${publicOne.body.id}`)).status).toBe(200);
  });

  it('refuses every attempt to a private address before connecting: one stored before, and a name resolving to loopback', async () => {
    // Stored while allowed: its waiting event is refused now, through the retry schedule.
    for (const { id, url } of [stored, ...embedding]) {
      expect(await settled(id), url).toEqual([expect.objectContaining({ status: 'failed', attempts: 3, last_status_code: null, last_error: REFUSED, next_attempt_at: null })]);
    }

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

describe('publicLookup, the lookup of every attempt under refuse', () => {
  /** What the lookup answers for a name; an IP literal resolves to itself, so these are the addresses it checks. */
  const lookup = (hostname: string) =>
    new Promise<{ err: Error | null; address: unknown }>((resolve) => publicLookup(hostname, {}, (err, address) => resolve({ err, address })));

  it('refuses an IPv6 address carrying a private IPv4 one, and every IPv4-compatible and Teredo address', async () => {
    for (const address of [
      // 6to4 2002::/16, the IPv4 address in bits 16 to 47: 127.0.0.1, 10.0.0.1, 0.0.0.0, both ends of 172.16/12 and 100.64/10, 169.254.169.254, 192.168.1.1, 224.0.0.0, 255.255.255.255.
      '2002:7f00:1::', '2002:a00:1::', '2002::', '2002:ac10::', '2002:ac1f:ffff::', '2002:6440::1', '2002:647f:ffff::', '2002:a9fe:a9fe::',
      '2002:c0a8:101::', '2002:e000::', '2002:ffff:ffff::',
      // NAT64's well-known 64:ff9b::/96, the IPv4 address in the last 32 bits; its local-use 64:ff9b:1::/48 whole.
      '64:ff9b::7f00:1', '64:ff9b::', '64:ff9b::a9fe:a9fe', '64:ff9b::172.31.255.255', '64:ff9b::192.168.0.1', '64:ff9b:1::808:808',
      // IPv4-compatible ::/96, whatever it carries (:: and ::1 among them).
      '::', '::1', '::7f00:1', '::808:808', '::ffff',
      // Teredo 2001::/32, whatever its server (bits 32 to 63) and client (the last 32, inverted).
      '2001::1', '2001:0:4136:e378:8000:63bf:3fff:fdd2', '2001:0:ffff:ffff:ffff:ffff:ffff:ffff',
      // As before: IPv4-mapped private, unique-local.
      '::ffff:7f00:1', 'fd00::1',
    ]) {
      expect((await lookup(address)).err, address).toBeInstanceOf(DestinationRefused);
    }
  });

  it('allows an IPv6 address carrying a public IPv4 one, and the public addresses beside the refused prefixes', async () => {
    for (const address of [
      // 8.8.8.8; 172.32.0.0, 100.63.255.255 and 100.128.0.0 beside 172.16/12 and 100.64/10; 223.255.255.255 below 224/4.
      '2002:808:808::', '2002:ac20::', '2002:643f:ffff::', '2002:6480::', '2002:dfff:ffff::1',
      '64:ff9b::808:808', '64:ff9b::ac20:1', '::ffff:808:808', '::1:0:0:0', '2001:200::1', '2001:4860:4860::8888', '2003::1',
    ]) {
      expect(await lookup(address), address).toEqual({ err: null, address });
    }
  });
});

describe('the special-purpose ranges (IANA registries) refused under refuse, edge to edge', () => {
  const lookup = (hostname: string) =>
    new Promise<{ err: Error | null; address: unknown }>((resolve) => publicLookup(hostname, {}, (err, address) => resolve({ err, address })));
  /** Each range: its first and last addresses (refused), and the addresses just before and after it (allowed). */
  const RANGES: [range: string, first: string, last: string, before: string, after: string][] = [
    // IPv4 Special-Purpose Address Registry, "Globally Reachable: False".
    ['0.0.0.0/8', '0.0.0.0', '0.255.255.255', '', '1.0.0.0'],
    ['100.64.0.0/10', '100.64.0.0', '100.127.255.255', '100.63.255.255', '100.128.0.0'],
    ['192.0.0.0/24', '192.0.0.0', '192.0.0.255', '191.255.255.255', '192.0.1.0'],
    ['192.0.2.0/24 TEST-NET-1', '192.0.2.0', '192.0.2.255', '192.0.1.255', '192.0.3.0'],
    ['198.18.0.0/15', '198.18.0.0', '198.19.255.255', '198.17.255.255', '198.20.0.0'],
    ['198.51.100.0/24 TEST-NET-2', '198.51.100.0', '198.51.100.255', '198.51.99.255', '198.51.101.0'],
    ['203.0.113.0/24 TEST-NET-3', '203.0.113.0', '203.0.113.255', '203.0.112.255', '203.0.114.0'],
    // Multicast (its own registry), reserved 240/4 with the limited broadcast 255.255.255.255 at its end.
    ['224.0.0.0/4 and 240.0.0.0/4', '224.0.0.0', '255.255.255.255', '223.255.255.255', ''],
    // IPv6 Special-Purpose Address Registry.
    ['100::/64 discard-only, 100:0:0:1::/64 dummy', '100::', '100:0:0:1:ffff:ffff:ffff:ffff', 'ff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', '100:0:0:2::'],
    ['2001::/23 IETF protocol assignments', '2001::', '2001:1ff:ffff:ffff:ffff:ffff:ffff:ffff', '2000:ffff:ffff:ffff:ffff:ffff:ffff:ffff', '2001:200::'],
    ['2001:db8::/32 documentation', '2001:db8::', '2001:db8:ffff:ffff:ffff:ffff:ffff:ffff', '2001:db7:ffff:ffff:ffff:ffff:ffff:ffff', '2001:db9::'],
    ['3fff::/20 documentation', '3fff::', '3fff:fff:ffff:ffff:ffff:ffff:ffff:ffff', '3ffe:ffff:ffff:ffff:ffff:ffff:ffff:ffff', '3fff:1000::'],
    ['5f00::/16 SRv6 SIDs', '5f00::', '5f00:ffff:ffff:ffff:ffff:ffff:ffff:ffff', '5eff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', '5f01::'],
    // Link-local, deprecated site-local and multicast, end to end.
    ['fe80::/10, fec0::/10 and ff00::/8', 'fe80::', 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'fe7f:ffff:ffff:ffff:ffff:ffff:ffff:ffff', ''],
  ];

  it.each(RANGES)('%s: refused from its first address to its last, allowed beside it', async (_range, first, last, before, after) => {
    for (const address of [first, last]) expect((await lookup(address)).err, address).toBeInstanceOf(DestinationRefused);
    for (const address of [before, after].filter(Boolean)) expect(await lookup(address), address).toEqual({ err: null, address });
  });

  it('refuses the IPv4 ranges in their IPv6 forms too (mapped, NAT64, 6to4), and allows those forms of the addresses beside them', async () => {
    for (const address of ['::ffff:192.0.2.1', '64:ff9b::198.51.100.255', '2002:cb00:7100::', '64:ff9b::198.19.255.255', '2002:c000:2ff::']) {
      expect((await lookup(address)).err, address).toBeInstanceOf(DestinationRefused);
    }
    for (const address of ['::ffff:c000:301', '64:ff9b::c633:6500', '2002:cb00:70ff::', '64:ff9b::c614:0']) {
      expect(await lookup(address), address).toEqual({ err: null, address });
    }
  });
});

describe('WEBHOOK_PRIVATE_ADDRESSES other than allow or refuse', () => {
  it('stops the start with its reason (also a webhook timeout of 0 or an empty retry delay)', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'tally-test-'));
    try {
      await expect(startServer({ dataDir, env: { WEBHOOK_PRIVATE_ADDRESSES: 'deny' } })).rejects.toThrow(/WEBHOOK_PRIVATE_ADDRESSES must be one of allow, refuse, got deny/);
      await expect(startServer({ dataDir, env: { WEBHOOK_TIMEOUT_MS: '0' } })).rejects.toThrow('WEBHOOK_TIMEOUT_MS must be a number greater than 0, got 0');
      await expect(startServer({ dataDir, env: { WEBHOOK_RETRY_SECONDS: '30,,60' } })).rejects.toThrow('WEBHOOK_RETRY_SECONDS must be numbers separated by commas, each a number of at least 0, got an empty item');
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
