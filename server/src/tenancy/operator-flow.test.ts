/**
 * The platform operator's flow (contract part 1, Authentication rules 1, 4, 6;
 * Sandbox and production Companies have separate credentials): two Companies,
 * each with a sandbox and a production key made by the CLI while the server
 * runs, write the same ids, codes, emails and Idempotency-Keys; no answer of
 * one environment shows anything of another. Then a key is disabled and a new
 * one made: the old one is refused everywhere, the new one reads what the old
 * one wrote.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { balance, expectLedgerAddsUp } from '../points/testing.js';
import { realtimeCart } from '../testing/carts.js';
import { runCli } from '../testing/cli.js';
import { startServer, type Client, type TestServer } from '../testing/server.js';

const ENVIRONMENTS = [
  ['north', 'sandbox'],
  ['north', 'production'],
  ['south', 'sandbox'],
  ['south', 'production'],
] as const;

describe('two Companies, sandbox and production: no data crosses', () => {
  let server: TestServer;
  /** One client per Company environment, in ENVIRONMENTS' order. */
  const clients: Client[] = [];
  const keys: string[] = [];

  async function newKey(company: string, environment: string, description: string): Promise<{ key: string; client: Client }> {
    const made = await runCli(server.dataDir, 'key', 'create', '--company', company, '--environment', environment, '--description', description);
    expect(made.code, JSON.stringify(made.error)).toBe(0);
    return { key: made.output.key, client: server.clientFor({ key: made.output.key, secret: made.output.secret }) };
  }

  beforeAll(async () => {
    server = await startServer({ env: { WORKERS: '1', REALTIME_WORKERS: '1' } });
    for (const company of ['north', 'south']) expect((await runCli(server.dataDir, 'company', 'create', company)).code).toBe(0);
    for (const [company, environment] of ENVIRONMENTS) {
      const { key, client } = await newKey(company, environment, 'till');
      keys.push(key);
      clients.push(client);
    }
    // The same customer id, code and email everywhere, each with its own name and points.
    for (const [i, client] of clients.entries()) {
      const customer = { id: 1, code: 'C1', email: 'ann@example.com', name: `Ann ${i}`, registration_location_id: 1 };
      expect((await client.post('/customers', customer)).status).toBe(200);
      const campaign = await client.post('/points', { rule_params: { name: `Points ${i}`, rule_effects: [{ type: 'ratio', value: i + 1, distribution: 'individual_items' }] } });
      expect(campaign.body.id).toBe(1);
      expect((await realtimeCart(client, 1, 10, { id: 500 })).body.score).toBe(10 * (i + 1));
    }
  }, 60_000);
  afterAll(() => server.dispose());

  it('reads each environment\'s own customer, by id, code and email, through the customer cache too', async () => {
    for (let round = 0; round < 2; round++) {
      for (const [i, client] of clients.entries()) {
        for (const [value, search_param] of [['1', 'id'], ['C1', 'code'], ['ann@example.com', 'email']]) {
          const read = await client.get(`/customers/${value}`, { query: { search_param } });
          expect(read.body, `${ENVIRONMENTS[i].join('/')} by ${search_param}`).toMatchObject({ id: 1, name: `Ann ${i}` });
        }
        expect((await client.post('/customers/search', { email: 'ann@example.com' })).body.name).toBe(`Ann ${i}`);
      }
    }
  });

  it('keeps balances, ledgers, carts and campaigns per environment', async () => {
    for (const [i, client] of clients.entries()) {
      expect(await balance(client, 1)).toMatchObject({ score: 10 * (i + 1), score_available: 10 * (i + 1) });
      await expectLedgerAddsUp(client, 1);
      const ledger = await client.get('/points/transactions');
      expect(ledger.body.data.map((t: { amount: number }) => t.amount)).toEqual([10 * (i + 1)]);
      const carts = await client.get('/carts');
      expect(carts.body.data.map((c: { id: number; score: number }) => [c.id, c.score])).toEqual([[500, 10 * (i + 1)]]);
      const campaigns = await client.get('/points');
      expect(campaigns.body.data.map((c: { name: string }) => c.name)).toEqual([`Points ${i}`]);
    }
  });

  it('answers one Idempotency-Key per environment, and runs an identical create in each (duplicate suppression is per environment)', async () => {
    const answers = [];
    for (const [i, client] of clients.entries()) {
      const res = await client.post('/customers', { id: 2, name: 'Same body', registration_location_id: 1 }, { headers: { 'Idempotency-Key': 'batch-2026-11-30' } });
      expect(res.status, res.text).toBe(200);
      expect(res.headers.get('idempotent-replayed'), ENVIRONMENTS[i].join('/')).toBeNull();
      answers.push(res.body);
    }
    expect(answers).toEqual(clients.map(() => ({ status: 'success', id: 2 })));
    for (const client of clients) expect((await client.get('/customers/2', { query: { search_param: 'id' } })).body.name).toBe('Same body');
  });

  it('refuses a page token another environment issued', async () => {
    for (const client of clients) await client.post('/points', { rule_params: { name: 'Second', rule_effects: [{ type: 'ratio', value: 1, distribution: 'individual_items' }] } });
    const first = await clients[0].get('/points', { query: { per_page: '1' } });
    const token = first.body.next_token_starts_after;
    expect(typeof token).toBe('string');
    expect((await clients[0].get('/points', { query: { per_page: '1', starting_after: token } })).body.data.map((c: { name: string }) => c.name)).toEqual(['Second']);
    for (const client of clients.slice(1)) {
      const refused = await client.get('/points', { query: { per_page: '1', starting_after: token } });
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({ code: 'invalid_request', error: 'starting_after: is not a token returned by this list' });
    }
  });

  it('refuses a disabled key on every operation with 403 {"message":"Forbidden"}; a new key of its environment reads what it wrote', async () => {
    const [company, environment] = ENVIRONMENTS[3];
    const old = clients[3];
    expect((await old.patch('/customers/1', { surname_1: 'Written before' }, { query: { search_param: 'id' } })).status).toBe(200);
    const disabled = await runCli(server.dataDir, 'key', 'disable', keys[3]);
    expect(disabled.output).toMatchObject({ key: keys[3], enabled: false });
    for (const refused of [
      await old.get('/check'),
      await old.get('/customers/1', { query: { search_param: 'id' } }),
      await old.post('/carts/simulate', { total: 1, lines: [{ order: 1, product_id: 1, total: 1, quantity: 1 }] }),
      await old.patch('/customers/1', { surname_1: 'Written after' }, { query: { search_param: 'id' } }),
      await old.get('/no/such/path'),
    ]) {
      expect([refused.status, refused.text]).toEqual([403, '{"message":"Forbidden"}']);
    }
    const { client: replacement } = await newKey(company, environment, 'till, replacing the disabled key');
    expect((await replacement.get('/check')).body).toEqual({ status: 'ok', environment });
    expect((await replacement.get('/customers/1', { query: { search_param: 'id' } })).body).toMatchObject({ name: 'Ann 3', surname_1: 'Written before' });
    expect(await balance(replacement, 1)).toMatchObject({ score: 40 });
    // The record stays (rule 4): listed, disabled.
    const listed = await runCli(server.dataDir, 'key', 'list', '--company', company);
    expect(listed.output.filter((k: { environment: string }) => k.environment === environment).map((k: { enabled: boolean }) => k.enabled).sort()).toEqual([false, true]);
    // The other environments' keys are untouched.
    for (const client of clients.slice(0, 3)) expect((await client.get('/check')).status).toBe(200);
  });
});
