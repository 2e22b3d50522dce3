import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKEND } from './server.js';
import { AuthFailureLimiter } from './rate-limit.js';
import { scrape, value } from '../metrics/testing.js';
import { startServer, TEST_KEY, TEST_SECRET, type TestServer } from '../testing/server.js';

interface Answer {
  status: number;
  retryAfter: string | undefined;
  body: any;
}

const RIGHT = { key: TEST_KEY, secret: TEST_SECRET };
const WRONG_SECRET = { key: TEST_KEY, secret: 'not-the-secret-at-all' };
const UNKNOWN_KEY = { key: 'no-such-key', secret: TEST_SECRET };

/**
 * GET `path` from the loopback address `from` (Linux routes all of 127.0.0.0/8 to lo): each test is a client
 * address of its own, so one client's failures cannot explain another's answer.
 */
function get(server: TestServer, from: string, path: string, auth: { key: string; secret?: string } | null, version: string | null = '1'): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (auth) headers['X-Api-Key'] = auth.key;
  if (auth?.secret !== undefined) headers['X-Api-Secret'] = auth.secret;
  if (auth && version !== null) headers['X-Api-Version'] = version;
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: server.port, localAddress: from, path, headers, agent: false }, (res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode!, retryAfter: res.headers['retry-after'] as string | undefined, body: JSON.parse(text) }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Failures limited to 3 within `windowMs`; TALLY_RATE_LIMITS stays off (the harness's default), which does not switch this limit off. */
const limited = (windowMs: number) => startServer({ env: { AUTH_FAILURE_LIMIT: '3', AUTH_FAILURE_WINDOW_MS: String(windowMs) } });

describe(`failed authentications per client address (${BACKEND} backend)`, () => {
  // Long enough that a busy machine answers each test's requests within one window.
  let server: TestServer;
  beforeAll(async () => {
    server = await limited(10_000);
  });
  afterAll(() => server.dispose());

  it('refuses every request from an address after 3 failures, the right secret too, with 429 too_many_requests and Retry-After', async () => {
    for (const auth of [WRONG_SECRET, UNKNOWN_KEY, WRONG_SECRET]) {
      expect(await get(server, '127.0.0.11', '/company', auth)).toMatchObject({ status: 403, body: { message: 'Forbidden' } });
    }
    const refused = await get(server, '127.0.0.11', '/company', RIGHT);
    const seconds = Number(refused.retryAfter);
    expect(seconds).toBeGreaterThanOrEqual(1);
    expect(seconds).toBeLessThanOrEqual(10);
    expect(refused).toEqual({
      status: 429,
      retryAfter: String(seconds),
      body: { code: 'too_many_requests', error: `Too many failed authentications from this address; retry after ${seconds} s` },
    });
    // The warning reaches the test through the server's stdout, after the answers: waited for.
    const warnings = () => server.lines.filter((line) => line.includes('127.0.0.11') && line.includes('failed authentications'));
    await expect.poll(warnings).toHaveLength(1);
    // A guess made while refused tells nothing: wrong and right secrets get the same answer (and no second warning).
    expect((await get(server, '127.0.0.11', '/company', WRONG_SECRET)).status).toBe(429);
    expect(warnings()).toHaveLength(1);
  });

  it('still serves the right key from another address, and counts that address\'s failures apart', async () => {
    for (let i = 0; i < 3; i += 1) await get(server, '127.0.0.12', '/company', WRONG_SECRET);
    expect((await get(server, '127.0.0.12', '/company', RIGHT)).status).toBe(429);
    expect((await get(server, '127.0.0.13', '/company', RIGHT)).status).toBe(200);
    expect((await get(server, '127.0.0.13', '/company', WRONG_SECRET)).status).toBe(403);
    expect((await get(server, '127.0.0.13', '/company', RIGHT)).status).toBe(200);
  });

  it('counts no request without credentials, and answers GET /check without credentials to a refused address (health checks)', async () => {
    for (let i = 0; i < 5; i += 1) expect((await get(server, '127.0.0.15', '/company', null)).status).toBe(403);
    // Nor one whose secret is never checked (a till without the version header, a key without its secret): it
    // guesses nothing, and 20 of them locked out every client behind the same address.
    for (let i = 0; i < 5; i += 1) {
      expect((await get(server, '127.0.0.15', '/company', RIGHT, null)).status).toBe(403);
      expect((await get(server, '127.0.0.15', '/company', WRONG_SECRET, '2')).status).toBe(403);
      expect((await get(server, '127.0.0.15', '/company', { key: TEST_KEY })).status).toBe(403);
    }
    expect((await get(server, '127.0.0.15', '/company', RIGHT)).status).toBe(200);
    for (let i = 0; i < 3; i += 1) await get(server, '127.0.0.15', '/company', WRONG_SECRET);
    expect((await get(server, '127.0.0.15', '/company', RIGHT)).status).toBe(429);
    expect((await get(server, '127.0.0.15', '/check', null)).status).toBe(200);
    expect((await get(server, '127.0.0.15', '/check', RIGHT)).status).toBe(429);
  });
});

describe('the window of failed authentications', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await limited(1_000);
  });
  afterAll(() => server.dispose());

  it('serves the address again once the window of its first failure has passed, with a fresh count', async () => {
    for (let i = 0; i < 3; i += 1) await get(server, '127.0.0.14', '/company', WRONG_SECRET);
    expect((await get(server, '127.0.0.14', '/company', RIGHT)).status).toBe(429);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect((await get(server, '127.0.0.14', '/company', RIGHT)).status).toBe(200);
    expect((await get(server, '127.0.0.14', '/company', WRONG_SECRET)).status).toBe(403);
    expect((await get(server, '127.0.0.14', '/company', RIGHT)).status).toBe(200);
  });
});

describe('AUTH_FAILURE_LIMIT=0', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ env: { AUTH_FAILURE_LIMIT: '0', TALLY_RATE_LIMITS: 'on' } });
  });
  afterAll(() => server.dispose());

  it('refuses nothing however many secrets fail, whatever TALLY_RATE_LIMITS', async () => {
    for (let i = 0; i < 30; i += 1) expect((await get(server, '127.0.0.16', '/company', WRONG_SECRET)).status).toBe(403);
    expect((await get(server, '127.0.0.16', '/company', RIGHT)).status).toBe(200);
  });
});

describe('the failures remembered', () => {
  it('stay within their capacity: a new address drops the oldest window, whose address starts again from none', () => {
    const limiter = new AuthFailureLimiter(2, 1000, 3, () => 0);
    for (const address of ['a', 'b', 'c']) for (let i = 0; i < 2; i += 1) limiter.fail(address);
    expect(['a', 'b', 'c'].map((address) => limiter.refusal(address))).toEqual([1, 1, 1]);
    limiter.fail('d');
    expect(['a', 'b', 'c'].map((address) => limiter.refusal(address))).toEqual([undefined, 1, 1]);
  });

  it('are all forgotten once the newest window has ended, so a request no longer reads its address', () => {
    let now = 0;
    const limiter = new AuthFailureLimiter(2, 1000, 3, () => now);
    limiter.fail('a');
    now = 500;
    limiter.fail('b');
    expect(limiter.idle()).toBe(false);
    now = 1499;
    expect(limiter.idle()).toBe(false);
    now = 1500;
    expect(limiter.idle()).toBe(true);
    expect(limiter.refusal('b')).toBeUndefined();
  });
});

describe('requests refused by the failed-authentication limit, in GET /metrics', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ env: { AUTH_FAILURE_LIMIT: '3', AUTH_FAILURE_WINDOW_MS: '10000', METRICS_PORT: '0', WORKERS: '0' } });
  });
  afterAll(() => server.dispose());

  it('counts each 429 of a refused address (tally_auth_failure_refused_total), not the failures before it nor as a per-key rate limit', async () => {
    const refused = () => scrape(server).then((samples) => value(samples, 'tally_auth_failure_refused_total'));
    expect(await refused()).toBe(0);
    for (let i = 0; i < 3; i += 1) expect((await get(server, '127.0.0.41', '/company', WRONG_SECRET)).status).toBe(403);
    expect(await refused()).toBe(0);
    for (const auth of [RIGHT, WRONG_SECRET]) expect((await get(server, '127.0.0.41', '/company', auth)).status).toBe(429);
    // Another address is served and counts nothing.
    expect((await get(server, '127.0.0.42', '/company', RIGHT)).status).toBe(200);
    const samples = await scrape(server);
    expect(value(samples, 'tally_auth_failure_refused_total')).toBe(2);
    expect(samples.some((s) => s.name === 'tally_rate_limited_total')).toBe(false);
  });
});
