import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../testing/cli.js';
import { startServer, type TestResponse, type TestServer } from '../testing/server.js';

/** Sends `count` requests at once; the rate-limit buckets refill by elapsed time, so a burst is decisive. */
async function burst(count: number, send: () => Promise<TestResponse>): Promise<TestResponse[]> {
  return Promise.all(Array.from({ length: count }, send));
}

describe('rate limits per API key', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ env: { TALLY_RATE_LIMITS: 'on' } });
  });
  afterAll(() => server.dispose());

  it('answers 429 with Retry-After in seconds beyond the tier (Tier 3: 10 per second)', async () => {
    const answers = await burst(25, () => server.client.get('/company'));
    const limited = answers.filter((a) => a.status === 429);
    expect(answers.filter((a) => a.status === 200).length).toBeLessThanOrEqual(11);
    expect(limited.length).toBeGreaterThanOrEqual(14);
    expect(Number(limited[0].headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(limited[0].body.code).toBe('too_many_requests');
  });

  it('counts each tier separately (Tier 1 has 60 per second)', async () => {
    const answers = await burst(50, () => server.client.get('/customers/1', { query: { search_param: 'id' } }));
    expect(answers.filter((a) => a.status === 429)).toHaveLength(0);
  });

  it('limits POST /discounts/trigger to 50 per second on top of Tier 1', async () => {
    const answers = await burst(70, () => server.client.post('/discounts/trigger', {}));
    const limited = answers.filter((a) => a.status === 429).length;
    expect(limited).toBeGreaterThanOrEqual(19);
  });

  it('applies a key\'s raised limits set with the CLI', async () => {
    const created = await runCli(server.dataDir, 'key', 'create', '--company', 'default', '--rate-limits', '{"tier_3":100}');
    expect(created.code).toBe(0);
    const client = server.clientFor({ key: created.output.key, secret: created.output.secret });
    const answers = await burst(40, () => client.get('/company'));
    expect(answers.filter((a) => a.status === 429)).toHaveLength(0);
  });

  it('applies an environment\'s raised limits from its settings', async () => {
    await new Promise((r) => setTimeout(r, 1100));
    const patched = await server.client.patch('/company', { rate_limits: { tier_3: 200 } });
    expect(patched.status).toBe(200);
    // A raised budget fills up as time passes, like any budget.
    await new Promise((r) => setTimeout(r, 1100));
    const answers = await burst(40, () => server.client.get('/company'));
    expect(answers.filter((a) => a.status === 429)).toHaveLength(0);
  });

  it('is off with TALLY_RATE_LIMITS=off', async () => {
    const unlimited = await startServer({ env: { TALLY_RATE_LIMITS: 'off' } });
    try {
      const answers = await burst(40, () => unlimited.client.get('/company'));
      expect(answers.filter((a) => a.status === 429)).toHaveLength(0);
    } finally {
      await unlimited.dispose();
    }
  });
});
