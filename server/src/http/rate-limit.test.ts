import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../testing/cli.js';
import { startServer, type Client, type TestResponse, type TestServer } from '../testing/server.js';
import type { ApiKeyView, CompanySettings } from '../tenancy/types.js';
import { OPERATIONS } from './operations.js';
import { RateLimiter } from './rate-limit.js';

/**
 * Sends `count` requests at once. Budgets refill with elapsed time, so the
 * assertions only use what holds however long the burst takes: a fresh key
 * starts with a full one-second budget, and a burst far above the budget
 * meets 429s.
 */
async function burst(count: number, send: () => Promise<TestResponse>) {
  const answers = await Promise.all(Array.from({ length: count }, send));
  return {
    ok: answers.filter((a) => a.status !== 429).length,
    limited: answers.filter((a) => a.status === 429),
  };
}

describe('rate limits per API key', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ env: { TALLY_RATE_LIMITS: 'on' } });
  });
  afterAll(() => server.dispose());

  /** A new key of the default Company: its budgets are full. */
  async function freshClient(...options: string[]): Promise<Client> {
    const created = await runCli(server.dataDir, 'key', 'create', '--company', 'default', ...options);
    expect(created.code, JSON.stringify(created.error)).toBe(0);
    return server.clientFor({ key: created.output.key, secret: created.output.secret });
  }

  it('answers 429 with Retry-After in seconds beyond the tier (Tier 3: 10 per second)', async () => {
    const client = await freshClient();
    const { ok, limited } = await burst(200, () => client.get('/company'));
    expect(ok).toBeGreaterThanOrEqual(10);
    expect(limited.length).toBeGreaterThan(0);
    expect(Number(limited[0].headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(limited[0].body).toEqual({ code: 'too_many_requests', error: expect.stringMatching(/^Rate limit of tier_3 exceeded; retry after \d+ s$/) });
  });

  it('gives each tier its own budget (Tier 1: 60 per second)', async () => {
    const client = await freshClient();
    await burst(200, () => client.get('/company'));
    const { limited } = await burst(50, () => client.get('/customers/1', { query: { search_param: 'id' } }));
    expect(limited).toHaveLength(0);
  });

  it('gives each API key its own budgets, also two keys of one Company environment', async () => {
    const [first, second] = [await freshClient(), await freshClient()];
    expect((await burst(200, () => first.get('/company'))).limited.length).toBeGreaterThan(0);
    const { limited } = await burst(10, () => second.get('/company'));
    expect(limited).toHaveLength(0);
  });

  it('limits POST /discounts/trigger to 50 per second whatever Tier 1 allows', async () => {
    const client = await freshClient('--rate-limits', '{"tier_1":100000}');
    const trigger = await burst(300, () => client.post('/discounts/trigger', {}));
    expect(trigger.limited.length).toBeGreaterThan(0);
    // The budget exhausted is named: it named Tier 1, which had room left.
    expect(trigger.limited[0].body.error).toMatch(/^Rate limit of discounts_trigger exceeded; retry after \d+ s$/);
    const other = await burst(55, () => client.post('/carts/simulate', {}));
    expect(other.ok).toBeGreaterThan(0);
  });

  it('applies a key\'s raised limits set with the CLI', async () => {
    const client = await freshClient('--rate-limits', '{"tier_3":100}');
    const { limited } = await burst(80, () => client.get('/company'));
    expect(limited).toHaveLength(0);
  });

  it('applies an environment\'s limits from its settings to its keys: the operator raises them, a Company\'s own key only lowers them', async () => {
    const admin = await freshClient();
    const raised = await admin.patch('/company', { rate_limits: { tier_3: 200 } });
    expect(raised.body).toEqual({
      code: 'invalid_request',
      error: "rate_limits.tier_3: must be an integer between 1 and 10: the operator raises a budget past the contract's (tally company update --settings)",
    });
    expect((await admin.get('/company')).body.rate_limits).toEqual({});
    // The contract's range whichever bound fails (not the schema's 2147483647, the operator's).
    for (const limit of [0, 2147483648, 9223372036854775807n]) {
      expect((await admin.patch('/company', { rate_limits: { tier_1: limit } })).body.error).toMatch(/^rate_limits\.tier_1: must be an integer between 1 and 60: /);
    }
    const lowered = await admin.patch('/company', { rate_limits: { tier_1: 30, tier_3: 10 } });
    expect(lowered.status, lowered.text).toBe(200);
    const updated = await runCli(server.dataDir, 'company', 'update', 'default', '--settings', '{"rate_limits":{"tier_3":200}}');
    expect(updated.code, JSON.stringify(updated.error)).toBe(0);
    const client = await freshClient();
    const { limited } = await burst(150, () => client.get('/company'));
    expect(limited).toHaveLength(0);
    // A settings patch replaces `rate_limits` whole, as PATCH /company does.
    expect((await client.get('/company')).body.rate_limits).toEqual({ tier_3: 200 });
  });

  it('is off with TALLY_RATE_LIMITS=off', async () => {
    const unlimited = await startServer({ env: { TALLY_RATE_LIMITS: 'off' } });
    try {
      const { limited } = await burst(100, () => unlimited.client.get('/company'));
      expect(limited).toHaveLength(0);
    } finally {
      await unlimited.dispose();
    }
  });
});

/**
 * The Limits section's numbers at their boundary, on a stopped clock (over HTTP a burst takes time, and a budget
 * refills meanwhile): the budget's last request passes, the next one is refused with the seconds to wait.
 */
describe('the contract\'s budgets, exactly', () => {
  const settings = { rate_limits: {} } as unknown as CompanySettings;
  const key = (name: string) => ({ key: name, rate_limits: {} }) as unknown as ApiKeyView;

  it('passes 60, 25 and 10 requests in one instant for Tier 1, 2 and 3, and refuses the next with Retry-After 1', () => {
    for (const [operation, budget] of [['customers.get', 60], ['customers.create', 25], ['customers.search', 10]] as const) {
      const limiter = new RateLimiter(() => 0);
      for (let i = 0; i < budget; i++) expect(limiter.take(key('k'), settings, OPERATIONS[operation]), `${operation} request ${i + 1}`).toBeUndefined();
      expect(limiter.take(key('k'), settings, OPERATIONS[operation]), `${operation} request ${budget + 1}`).toEqual({ budgets: [OPERATIONS[operation].tier], retryAfter: 1 });
    }
  });

  it('gives POST /discounts/trigger 50 a second within Tier 1\'s 60: the 51st waits, other Tier 1 operations take the last 10 (the refused one took from neither)', () => {
    const limiter = new RateLimiter(() => 0);
    for (let i = 0; i < 50; i++) expect(limiter.take(key('k'), settings, OPERATIONS['discounts.trigger'])).toBeUndefined();
    expect(limiter.take(key('k'), settings, OPERATIONS['discounts.trigger'])).toEqual({ budgets: ['discounts_trigger'], retryAfter: 1 });
    for (let i = 0; i < 10; i++) expect(limiter.take(key('k'), settings, OPERATIONS['carts.simulate']), `simulate ${i + 1}`).toBeUndefined();
    expect(limiter.take(key('k'), settings, OPERATIONS['carts.simulate'])?.retryAfter).toBe(1);
  });

  it('refills one request every 1/limit seconds: Tier 3\'s 11th request passes 100 ms after the 10th', () => {
    let now = 0;
    const limiter = new RateLimiter(() => now);
    for (let i = 0; i < 10; i++) limiter.take(key('k'), settings, OPERATIONS['customers.search']);
    now = 99;
    expect(limiter.take(key('k'), settings, OPERATIONS['customers.search'])?.retryAfter).toBe(1);
    now = 100;
    expect(limiter.take(key('k'), settings, OPERATIONS['customers.search'])).toBeUndefined();
    expect(limiter.take(key('k'), settings, OPERATIONS['customers.search'])?.retryAfter).toBe(1);
  });
});
