import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer } from '../points/testing.js';
import { openStore, type Key, type StoreEnv } from '../store/env.js';
import { realtimeCart } from '../testing/carts.js';
import { runCli } from '../testing/cli.js';
import { everyPage } from '../testing/pages.js';
import { startServer, TEST_KEY, type Client, type TestResponse, type TestServer } from '../testing/server.js';
import { migrations } from '../store/migrations.js';
import { indexAuditTargets, PROGRESS } from './backfill.js';
import { AUDIT_LOG, AUDIT_LOG_MENTIONS, AUDIT_LOG_TARGETS, mentionKey, targetKey, type AuditEntry } from './log.js';
import { auditEntries, succeeds } from './testing.js';

const AUTHOR = { headers: { 'X-Author-Email': 'Ana@Example.com' } };
const discount = { rule_params: { name: 'Ten off', rule_effects: [{ type: 'percentage', value: 10, distribution: 'individual_items' }] } };
const TENANT = 'default/sandbox';
/** A page token of the log (store/paginate.ts): the list's database, its prefix length, the key. */
const token = (key: unknown[]) => Buffer.from(JSON.stringify(['audit_log', 1, ...key])).toString('base64url');

/** Every entry GET /audit_log lists with `query`, page after page of `perPage`. */
const logPages = (client: Client, query: Record<string, string> = {}, perPage = 100) => everyPage(client, '/audit_log', query, perPage);

const sorted = (keys: Key[][]) => keys.map((key) => JSON.stringify(key)).sort().map((key) => JSON.parse(key) as Key[]);

/** The index keys the store holds, and those its entries call for (one per entry with a target), both sorted alike. */
function indexOf(env: StoreEnv): { held: Key[][]; wanted: Key[][] } {
  const held = [...env.db(AUDIT_LOG_TARGETS).getKeys({})] as Key[][];
  const wanted = [...env.db(AUDIT_LOG).getRange({})].flatMap(({ key, value }) => {
    const [tenant, entryKey] = key as string[];
    const { target } = value as AuditEntry;
    return target === null ? [] : [targetKey(tenant, target, entryKey)];
  });
  return { held: sorted(held), wanted: sorted(wanted) };
}

/** The mention keys the store holds, and those its entries call for (one per customer an entry names besides its target). */
function mentionsOf(env: StoreEnv): { held: Key[][]; wanted: Key[][] } {
  const held = [...env.db(AUDIT_LOG_MENTIONS).getKeys({})] as Key[][];
  const wanted = [...env.db(AUDIT_LOG).getRange({})].flatMap(({ key, value }) => {
    const [tenant, entryKey] = key as string[];
    return ((value as AuditEntry).mentions ?? []).map((id) => mentionKey(tenant, id, entryKey));
  });
  return { held: sorted(held), wanted: sorted(wanted) };
}

async function withStore<T>(dataDir: string, read: (env: StoreEnv) => T | Promise<T>): Promise<T> {
  const env = openStore(dataDir);
  try {
    return await read(env);
  } finally {
    await env.close();
  }
}

describe('the audit log over HTTP', () => {
  let server: TestServer;
  beforeAll(async () => {
    // Carts inline on the main thread: only the operation's exemption keeps a realtime cart out of the log.
    server = await startServer({ env: { WORKERS: '0' } });
  });
  afterAll(() => server.dispose());

  const entries = async (query: Record<string, string> = {}) => {
    const res = await server.client.get('/audit_log', { query: { per_page: '100', ...query } });
    expect(res.status, res.text).toBe(200);
    return res.body.data as any[];
  };

  it('records who created and changed a campaign and a customer, newest first, in the same transaction as the change', async () => {
    const created = await server.client.post('/discounts', discount, AUTHOR);
    expect(created.status, created.text).toBe(200);
    const id = created.body.id;
    expect((await server.client.patch(`/discounts/${id}`, { rule_params: { name: 'Eleven off' } })).status).toBe(200);
    expect((await server.client.post('/customers', { id: 41, name: 'Eva', registration_location_id: 1 })).status).toBe(200);
    expect((await server.client.put('/customers/41', { name: 'Eve' }, { headers: { 'X-Author-Email': 'ops@example.com' } })).status).toBe(200);

    const [update, customer, patch, create] = await entries();
    expect(create).toEqual({
      id: expect.any(Number), at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/), company_id: 'default', environment: 'sandbox',
      actor: { api_key: TEST_KEY, author: 'ana@example.com' }, operation: 'discounts.create', method: 'POST', path: '/discounts',
      // Canonical JSON: keys sorted.
      target: `campaign:${id}`, body: '{"rule_params":{"name":"Ten off","rule_effects":[{"distribution":"individual_items","type":"percentage","value":10}]}}', body_truncated: false, redacted: null, status: 'committed',
    });
    expect(patch).toMatchObject({
      actor: { api_key: TEST_KEY, author: null }, operation: 'discounts.update', method: 'PATCH', path: `/discounts/${id}`,
      target: `campaign:${id}`, body: '{"rule_params":{"name":"Eleven off"}}',
    });
    expect(customer).toMatchObject({ operation: 'customers.create', target: 'customer:41' });
    expect(update).toMatchObject({
      actor: { api_key: TEST_KEY, author: 'ops@example.com' }, operation: 'customers.update', method: 'PUT', path: '/customers/41',
      target: 'customer:41', body: '{"name":"Eve"}',
    });
    expect(update.id).toBeGreaterThan(customer.id);
    expect(customer.id).toBeGreaterThan(patch.id);
    expect(patch.id).toBeGreaterThan(create.id);

    // Filters.
    expect((await entries({ target: `campaign:${id}` })).map((e) => e.operation)).toEqual(['discounts.update', 'discounts.create']);
    expect((await entries({ operation: 'customers.update' })).map((e) => e.target)).toEqual(['customer:41']);
    expect((await entries({ author: 'ANA@example.com' })).map((e) => e.operation)).toEqual(['discounts.create']);
    expect(await entries({ api_key: 'another-key' })).toEqual([]);
    expect(await entries({ api_key: TEST_KEY })).toHaveLength(4);
    expect(await entries({ from: '2999-01-01T00:00:00Z' })).toEqual([]);
    expect(await entries({ to: '2000-01-01T00:00:00Z' })).toEqual([]);
    expect(await entries({ from: create.at, to: update.at })).toHaveLength(4);
    expect((await server.client.get('/audit_log', { query: { from: 'yesterday' } })).body).toMatchObject({ code: 'invalid_request' });

    // Pagination as the other lists.
    const first = await server.client.get('/audit_log', { query: { per_page: '3' } });
    expect(first.body.data).toHaveLength(3);
    const second = await server.client.get('/audit_log', { query: { per_page: '3', starting_after: first.body.next_token_starts_after } });
    expect(second.body.data.map((e: any) => e.id)).toEqual([create.id]);
  });

  it('records each of interleaved requests with its own author', async () => {
    const ids = Array.from({ length: 12 }, (_, i) => 100 + i);
    // A create hashes the password (off the event loop) before its transaction: the requests' handlers interleave.
    const answers = await Promise.all(ids.map((id) => server.client.post(
      '/customers', { id, name: `N${id}`, registration_location_id: 1, password: 'correct horse' }, { headers: { 'X-Author-Email': `u${id}@example.com` } })));
    expect(answers.map((res) => res.status)).toEqual(ids.map(() => 200));
    const recorded = (await entries({ operation: 'customers.create' })).slice(0, ids.length);
    expect(recorded.map((entry) => entry.target).sort()).toEqual(ids.map((id) => `customer:${id}`).sort());
    for (const entry of recorded) {
      const id = entry.target.slice('customer:'.length);
      expect(entry.actor.author).toBe(`u${id}@example.com`);
      expect(JSON.parse(entry.body)).toMatchObject({ name: `N${id}` });
    }
  });

  it('records nothing for a failed write, a malformed author, or the exempt hot path', async () => {
    const before = await entries();
    expect((await server.client.post('/discounts', { rule_params: 'nope' })).status).toBe(400);
    expect((await server.client.patch('/discounts/9999', { rule_params: { name: 'x' } })).status).toBe(404);
    expect((await server.client.post('/customers', { id: 41, name: 'Again', registration_location_id: 1 })).status).toBe(409);
    expect((await server.client.patch('/customers/41', { name: 'Bad author' }, { headers: { 'X-Author-Email': 'not an email' } })).status).toBe(400);
    expect((await realtimeCart(server.client, 41, 12)).status).toBe(200);
    expect(await entries()).toEqual(before);
  });

  it('redacts passwords, secrets and tokens from the recorded body', async () => {
    const res = await server.client.post('/customers', {
      id: 42, name: 'Sam', registration_location_id: 1, password: 'hunter2hunter2', password_confirmation: 'hunter2hunter2', push_token: 'tok',
    });
    expect(res.status, res.text).toBe(200);
    const [entry] = await entries({ target: 'customer:42' });
    expect(entry.body).not.toContain('hunter2');
    expect(JSON.parse(entry.body)).toMatchObject({ name: 'Sam', password: '[redacted]', password_confirmation: '[redacted]', push_token: '[redacted]' });
  });

  it('cuts a body over 16 KB and says so', async () => {
    const long = { rule_params: { ...discount.rule_params, description: 'x'.repeat(20_000) } };
    const created = await server.client.post('/discounts', long);
    expect(created.status, created.text).toBe(200);
    const [entry] = await entries({ target: `campaign:${created.body.id}` });
    expect(entry.body_truncated).toBe(true);
    expect(entry.body).toHaveLength(16 * 1024);
    expect(entry.body.startsWith('{"rule_params":{"description":"xxx')).toBe(true);
  });

  it('shows a Company environment only its own entries; the CLI records its writes with actor cli', async () => {
    expect((await runCli(server.dataDir, 'company', 'create', 'acme')).code).toBe(0);
    const key = (await runCli(server.dataDir, 'key', 'create', '--company', 'acme')).output;
    const acme = server.clientFor({ key: key.key, secret: key.secret });
    expect((await acme.patch('/company', { currency: 'USD' })).status).toBe(200);
    expect((await runCli(server.dataDir, 'company', 'update', 'acme', '--settings', '{"country":"US"}')).code).toBe(0);

    const theirs = (await acme.get('/audit_log')).body.data;
    expect(theirs.map((e: any) => e.operation)).toEqual(['cli.company.update', 'company.update', 'cli.key.create', 'cli.company.create']);
    expect(theirs[0]).toMatchObject({ actor: { cli: true }, method: null, path: null, target: 'company:acme', body: '{"settings":{"country":"US"}}' });
    expect(theirs[1]).toMatchObject({ actor: { api_key: key.key, author: null }, target: 'company', company_id: 'acme' });
    // The key's public id is recorded, never its secret.
    expect(theirs[2]).toMatchObject({ actor: { cli: true }, target: `api_key:${key.key}` });
    expect(JSON.stringify(theirs)).not.toContain(key.secret);
    // The default Company sees none of acme's.
    expect((await entries()).filter((e) => e.company_id !== 'default')).toEqual([]);
    expect(await entries({ operation: 'company.update' })).toEqual([]);
  });

  it('records nothing for a write refused inside its transaction (a second cancellation of a cart)', async () => {
    expect((await server.client.patch('/company', { cart_cancellation_wait_seconds: 0 })).status).toBe(200);
    const cart = await realtimeCart(server.client, 41, 20, { id: 4242 });
    expect(cart.status).toBe(200);
    expect((await server.client.post('/carts/cancellation', { cart_to_cancel_id: 4242, new_cart_id: 4243 })).status).toBe(200);
    const before = await entries();
    // The cancelled cart's id, as GET /audit_log?target= finds it.
    expect(before[0]).toMatchObject({ operation: 'carts.cancellation', target: 'cart:4242' });
    expect((await entries({ target: 'cart:4242' }))[0]).toEqual(before[0]);
    const again = await server.client.post('/carts/cancellation', { cart_to_cancel_id: 4242, new_cart_id: 4244 });
    expect(again.status, again.text).toBe(409);
    expect(await entries()).toEqual(before);
    // Named by its code, the cart is still its id.
    expect((await realtimeCart(server.client, 41, 20, { id: 4250, code: 'CART-1' })).status).toBe(200);
    expect((await server.client.post('/carts/cancellation', { cart_to_cancel_code: 'CART-1', new_cart_id: 4251 })).status).toBe(200);
    expect((await entries({ target: 'cart:4250' })).map((entry) => entry.operation)).toEqual(['carts.cancellation']);
  });

  it('records nothing for a game play that does nothing (its once limit reached)', async () => {
    const game = await server.client.post('/games', {
      rule_params: { name: 'Once', once: 'always', once_limit: 1 },
      game: { type: 'wheel', game_prizes: [{ name: 'Two', outcome: 'points', points: 2, weight: 1, stock: -1 }] },
    });
    expect(game.status, game.text).toBe(200);
    expect((await server.client.post('/customers', { id: 4141, name: 'Player', registration_location_id: 1 })).status).toBe(200);
    const play = () => server.client.post(`/games/${game.body.id}/play`, { customer_id: 4141 });
    expect((await play()).body.effects).toHaveLength(1);
    const won = await entries();
    for (let i = 0; i < 2; i++) expect((await play()).body).toEqual({ code: 'success', effects: [] });
    expect(await entries()).toEqual(won);
  });

  it('filters by target through its index: the pages hold what the whole log filtered by hand holds', async () => {
    for (const round of [1, 2, 3]) {
      for (const id of [41, 42]) expect((await server.client.patch(`/customers/${id}`, { name: `Round ${round}` }, AUTHOR)).status).toBe(200);
    }
    const all = await logPages(server.client);
    const targets = new Set(all.map((entry) => entry.target as string | null).filter((target) => target !== null));
    for (const target of [...targets, 'customer:9999']) {
      const theirs = all.filter((entry) => entry.target === target);
      expect(await logPages(server.client, { target }, 2), target).toEqual(theirs);
      expect(await logPages(server.client, { target }), target).toEqual(theirs);
    }
    // The other filters apply to what the index yields.
    const updates = all.filter((entry) => entry.target === 'customer:41' && entry.operation === 'customers.update' && entry.actor.author === 'ana@example.com');
    expect(updates).toHaveLength(3);
    expect(await logPages(server.client, { target: 'customer:41', operation: 'customers.update', author: 'ana@example.com' }, 2)).toEqual(updates);

    // A page token is an entry's place in the log: it goes on in the filtered list and in the unfiltered one alike.
    const filtered = await server.client.get('/audit_log', { query: { target: 'customer:41', per_page: '2' } });
    const [, second] = filtered.body.data;
    const rest = await logPages(server.client, { starting_after: filtered.body.next_token_starts_after });
    expect(rest).toEqual(all.slice(all.findIndex((entry) => entry.id === second.id) + 1));
    const unfiltered = await server.client.get('/audit_log', { query: { per_page: '1' } });
    const [newest] = unfiltered.body.data;
    expect(newest.target).not.toBe('customer:41');
    const older = await logPages(server.client, { target: 'customer:41', starting_after: unfiltered.body.next_token_starts_after });
    expect(older).toEqual(all.filter((entry) => entry.target === 'customer:41' && entry.id < newest.id));
  });

  it('refuses a target longer than any, and a page token that is not an entry’s key', async () => {
    for (const query of [{}, { target: 'customer:41' }] as Record<string, string>[]) {
      for (const starting_after of [token([TENANT, 'a'.repeat(3000)]), token([TENANT, '0000000000000000001', 'x']), token([TENANT, 7]), token([TENANT, '123'])]) {
        const res = await server.client.get('/audit_log', { query: { ...query, starting_after } });
        expect(res.status, res.text).toBe(400);
        expect(res.body).toMatchObject({ code: 'invalid_request', error: expect.stringContaining('starting_after') });
      }
    }
    const long = await server.client.get('/audit_log', { query: { target: `customer:${'9'.repeat(292)}` } });
    expect(long.status).toBe(400);
    expect(long.body).toMatchObject({ code: 'invalid_request', error: 'target: must be at most 300 characters' });
    // At the bound, in characters of four UTF-8 bytes: a place in the index, with nothing there.
    for (const target of [`customer:${'9'.repeat(291)}`, '\u{1F600}'.repeat(300)]) {
      const res = await server.client.get('/audit_log', { query: { target, starting_after: token([TENANT, '0000000000000000001']) } });
      expect(res.status, res.text).toBe(200);
      expect(res.body.data).toEqual([]);
    }
  });

  it('keeps one index key per entry with a target, written in its transaction', async () => {
    const { held, wanted } = await withStore(server.dataDir, indexOf);
    expect(held.length).toBeGreaterThan(10);
    expect(held).toEqual(wanted);
  });
});

describe('audit log retention', () => {
  let server: TestServer;
  beforeAll(async () => {
    // About 1.7 s of retention, swept every 200 ms.
    server = await startServer({ env: { AUDIT_LOG_RETENTION_DAYS: '0.00002', AUDIT_LOG_PRUNE_INTERVAL_MS: '200' } });
  });
  afterAll(() => server.dispose());

  it('removes the entries older than AUDIT_LOG_RETENTION_DAYS in the background, and their index keys', async () => {
    expect((await server.client.post('/customers', { id: 1, name: 'Old', registration_location_id: 1, code: 'old-1' })).status).toBe(200);
    // A redeem names its customer besides its target (none): a mention key.
    expect((await server.client.post('/points/redeem', { customer_code: 'old-1', amount: 10, comments: 'old' })).status).toBe(200);
    expect((await server.client.get('/audit_log')).body.data).toHaveLength(2);
    const indexed = await withStore(server.dataDir, indexOf);
    expect(indexed.held.map((key) => key[1])).toEqual(['customer:1']);
    expect((await withStore(server.dataDir, mentionsOf)).held.map((key) => key[1])).toEqual(['1']);
    await new Promise((resume) => setTimeout(resume, 3500));
    expect((await server.client.post('/customers', { id: 2, name: 'New', registration_location_id: 1, code: 'new-2' })).status).toBe(200);
    expect((await server.client.post('/points/redeem', { customer_code: 'new-2', amount: 10, comments: 'new' })).status).toBe(200);
    expect((await server.client.get('/audit_log')).body.data.map((e: any) => [e.operation, e.target])).toEqual([['points.redeem', null], ['customers.create', 'customer:2']]);
    expect(await logPages(server.client, { target: 'customer:1' })).toEqual([]);
    // None dangles: every key left names an entry of its target, every mention key an entry naming its customer.
    const { held, wanted } = await withStore(server.dataDir, indexOf);
    expect(held.map((key) => key[1])).toEqual(['customer:2']);
    expect(held).toEqual(wanted);
    const mentions = await withStore(server.dataDir, mentionsOf);
    expect(mentions.held.map((key) => key[1])).toEqual(['2']);
    expect(mentions.held).toEqual(mentions.wanted);
  });
});

describe('the target index of a store written before it', () => {
  let server: TestServer;
  let all: any[];
  beforeAll(async () => {
    server = await startServer();
    const c = server.client;
    // A points redeem has no target (no path parameter, nothing created): it is not indexed.
    for (const id of [1, 2, 3]) await createCustomer(c, id);
    expect((await c.post('/points/redeem', { customer_id: 1, amount: 10, comments: 'no target' })).status).toBe(200);
    for (const name of ['A', 'B']) expect((await c.patch('/customers/1', { name })).status).toBe(200);
    expect((await c.patch('/company', { currency: 'USD' })).status).toBe(200);
    expect((await c.delete('/customers/3', { query: { hard: 'true' }, headers: { 'Content-Type': 'application/json' } })).status).toBe(200);
    all = await logPages(c);
    expect(all.some((entry) => entry.target === null)).toBe(true);
    await server.stop();
  });
  afterAll(() => server.dispose());

  /** The store as written before the index: no `audit_log_targets` database, no backfill recorded. */
  const withoutIndex = () => withStore(server.dataDir, (env) => env.transact(() => {
    env.db(AUDIT_LOG_TARGETS).dropSync();
    migrations(env).removeSync(PROGRESS);
  }));

  it('is built at start: a target’s entries read as the whole log filtered by hand', async () => {
    await withoutIndex();
    await server.restart();
    const targeted = all.filter((entry) => entry.target !== null);
    const built = server.lines.filter((line) => line.startsWith('{')).map((line) => JSON.parse(line)).find((line) => line.msg === 'audit log entries indexed by target');
    expect(built).toMatchObject({ entries: targeted.length });
    for (const target of new Set(targeted.map((entry) => entry.target as string))) {
      expect(await logPages(server.client, { target }, 2), target).toEqual(all.filter((entry) => entry.target === target));
    }
    await server.stop();
    const { held, wanted } = await withStore(server.dataDir, indexOf);
    expect(held).toHaveLength(targeted.length);
    expect(held).toEqual(wanted);
    // Once built, a start does not build it again.
    await server.restart();
    expect(server.lines.some((line) => line.includes('indexed by target'))).toBe(false);
    await server.stop();
  });

  it('is built in batches, a failed one resumed where it stopped, a key put twice changing nothing', async () => {
    await withoutIndex();
    await withStore(server.dataDir, async (env) => {
      const entries = [...env.db(AUDIT_LOG).getRange({})];
      const total = entries.filter(({ value }) => (value as AuditEntry).target !== null).length;
      const firstBatch = entries.slice(0, 3).filter(({ value }) => (value as AuditEntry).target !== null).length;
      // The second batch's transaction fails, as a crash would stop it.
      let batches = 0;
      const failing: StoreEnv = { ...env, transact: (work) => (++batches === 2 ? Promise.reject(new Error('crash')) : env.transact(work)) };
      await expect(indexAuditTargets(failing, 3)).rejects.toThrow('crash');
      expect(indexOf(env).held).toHaveLength(firstBatch);
      expect(await indexAuditTargets(env, 3)).toBe(total - firstBatch);
      expect(await indexAuditTargets(env, 3)).toBe(0);
      const { held, wanted } = indexOf(env);
      expect(held).toHaveLength(total);
      expect(held).toEqual(wanted);
    });
    await server.restart();
    expect(await logPages(server.client, { target: 'customer:1' })).toEqual(all.filter((entry) => entry.target === 'customer:1'));
  });
});

describe('an entry for what a request changes, and none for what it does not', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.dispose());

  const entries = (query: Record<string, string> = {}) => auditEntries(server.client, query);
  const created = async (client: Client, path: string, body: unknown): Promise<number> => {
    const res = await client.post(path, body);
    expect(res.status, res.text).toBe(200);
    return res.body.id as number;
  };
  const wheel = (active: boolean) => ({
    rule_params: { name: active ? 'Open' : 'Closed', active },
    game: { type: 'wheel', game_prizes: [{ name: 'P', outcome: 'points', points: 3, weight: 1, stock: -1 }] },
  });

  it('records nothing for the first play of an environment that plays nothing, and one entry for a first play that plays', async () => {
    // The first play of a Company environment creates its draw secret (carts/seed.ts): the server's own write.
    await createCustomer(server.client, 1);
    const closed = await created(server.client, '/games', wheel(false));
    const before = await entries();
    const play = await server.client.post(`/games/${closed}/play`, { customer_id: 1 });
    expect(play.status, play.text).toBe(200);
    expect(play.body).toEqual({ code: 'success', effects: [] });
    expect(await entries()).toEqual(before);

    expect((await runCli(server.dataDir, 'company', 'create', 'fresh')).code).toBe(0);
    const key = (await runCli(server.dataDir, 'key', 'create', '--company', 'fresh')).output;
    const fresh = server.clientFor({ key: key.key, secret: key.secret });
    await createCustomer(fresh, 1);
    const open = await created(fresh, '/games', wheel(true));
    const played = await fresh.post(`/games/${open}/play`, { customer_id: 1 }, AUTHOR);
    expect(played.body.effects, played.text).toHaveLength(1);
    const [entry, ...rest] = (await auditEntries(fresh)).filter((e) => e.operation === 'games.play');
    expect(rest).toEqual([]);
    expect(entry).toMatchObject({ target: `game:${open}`, actor: { api_key: key.key, author: 'ana@example.com' }, body: '{"customer_id":"1"}' });
  });

  it('records nothing for a voucher operation or an enrolment that changes nothing, and answers it as before', async () => {
    const c = server.client;
    await createCustomer(c, 2);
    const campaign = await created(c, '/discounts', {
      rule_params: { name: 'Gift', select_customers: 'targeted', rule_effects: [{ type: 'direct_value', value: 1, distribution: 'total' }] },
      coupon_params: { name: 'Gift coupon' },
    });
    for (const code of ['G1', 'G2']) await succeeds(c.post('/discounts/trigger', { customer_id: 2, loyalty_rule_id: campaign, external_voucher_code: code }));
    const challenge = await created(c, '/challenges', { name: 'Spend', attribute: 'total_spent', open_to_all: true, structure: [{ level: 1, name: 'Starter', threshold: 10, points: 5 }] });
    /** Sends `write` twice: the first records one entry, the second answers alike and records none. */
    const twice = async (write: () => Promise<TestResponse>, operation: string) => {
      const first = await write();
      expect(first.status, first.text).toBe(200);
      const after = await entries();
      expect(after[0].operation).toBe(operation);
      const second = await write();
      expect(second.status, second.text).toBe(200);
      expect(second.body).toEqual(first.body);
      expect(await entries(), operation).toEqual(after);
    };
    await twice(() => c.post('/vouchers/G1/freeze', {}), 'vouchers.freeze');
    await twice(() => c.post('/vouchers/G1/unfreeze', { customer_id: 2 }), 'vouchers.unfreeze');
    await twice(() => c.post('/vouchers/G1/select', {}), 'vouchers.select');
    await twice(() => c.post('/vouchers/G1/deselect', {}), 'vouchers.deselect');
    await twice(() => c.put('/vouchers/select', { codes: ['G1', 'G2'] }), 'vouchers.select_many');
    await twice(() => c.put('/vouchers/deselect', { codes: ['G1', 'G2'] }), 'vouchers.deselect_many');
    await twice(() => c.post(`/challenges/${challenge}/enroll`, { customer_id: 2 }), 'challenges.enroll');
    // Checked first, as before: an unknown voucher is still its 404.
    expect((await c.post('/vouchers/NOPE/deselect', {})).status).toBe(404);
  });

  it('records nothing for a PATCH of the values held', async () => {
    const c = server.client;
    await createCustomer(c, 3);
    await createCustomer(c, 4);
    const discountId = await created(c, '/discounts', { rule_params: { ...discount.rule_params, name: 'Same' }, coupon_params: { name: 'Same coupon' } });
    const couponId = (await c.get(`/discounts/${discountId}`)).body.coupon_info.coupon_id;
    const challenge = await created(c, '/challenges', { name: 'Same', attribute: 'total_spent', structure: [{ level: 1, name: 'Starter', threshold: 10, points: 5 }] });
    const program = await created(c, '/tier_programs', { name: 'Same', attribute: 'total_spent', structure: [{ level: 1, name: 'Member', threshold: 0 }] });
    const game = await created(c, '/games', wheel(true));
    const prizePoints = await created(c, '/points', { rule_params: { name: 'Prize', when: 'prize-only', rule_effects: [{ type: 'direct_value', value: 1, distribution: 'total' }] } });
    const instantWin = await created(c, '/instant_wins', { rule_params: { name: 'Same' }, instant_win: { instant_win_prizes: [{ name: 'P', outcome: { promotion_type: 'points', promotion_id: prizePoints }, weight: 1, stock: -1 }] } });
    for (const [path, body] of [
      ['/products', { id: 300, code: 'P300', name: 'Bread' }],
      ['/locations', { id: 10, code: 'MAD-01', name: 'Madrid', country: 'ES' }],
      ['/promotions', { id: 2, name: 'Summer' }],
      ['/taxonomies', { slug: 'family', name: 'Family' }],
      ['/taxonomies/family/features', { id: 2, name: 'Bakery' }],
      ['/locations/taxonomies', { slug: 'zone', name: 'Zone' }],
      ['/associations', { customer_id: 3, associate_customer_id: 4, relationship_type: 'child' }],
    ] as const) await succeeds(c.post(path, body));
    const patches: [string, unknown][] = [
      [`/discounts/${discountId}`, { rule_params: { name: 'Same' } }],
      [`/coupons/${couponId}`, { coupon_params: { name: 'Same coupon' } }],
      [`/challenges/${challenge}`, { name: 'Same' }],
      [`/tier_programs/${program}`, { name: 'Same' }],
      [`/games/${game}`, { rule_params: { name: 'Open' } }],
      [`/instant_wins/${instantWin}`, { rule_params: { name: 'Same' } }],
      [`/points/${prizePoints}`, { rule_params: { name: 'Prize' } }],
      ['/products/300', { name: 'Bread' }],
      ['/locations/10', { name: 'Madrid' }],
      ['/promotions/2', { name: 'Summer' }],
      ['/taxonomies/family', { name: 'Family' }],
      ['/taxonomies/family/features/2', { name: 'Bakery' }],
      ['/locations/taxonomies/zone', { name: 'Zone' }],
      ['/associations', { customer_id: 3, associate_customer_id: 4, relationship_type: 'child' }],
    ];
    /** The paths whose PATCH added an entry. */
    const recorded = async (sent: [string, unknown][]) => {
      const paths: string[] = [];
      for (const [path, body] of sent) {
        const before = await entries();
        const res = await c.patch(path, body);
        expect(res.status, `${path} ${res.text}`).toBe(200);
        if ((await entries()).length > before.length) paths.push(path);
      }
      return paths;
    };
    expect(await recorded(patches)).toEqual([]);
    // A change is still one.
    const changes: [string, unknown][] = [
      [`/coupons/${couponId}`, { coupon_params: { name: 'Other coupon' } }],
      [`/tier_programs/${program}`, { name: 'Other' }],
      ['/products/300', { name: 'Rye' }],
      ['/taxonomies/family/features/2', { name: 'Cakes' }],
      ['/associations', { customer_id: 3, associate_customer_id: 4, relationship_type: 'family' }],
    ];
    expect(await recorded(changes)).toEqual(changes.map(([path]) => path));
  });

  it('records a voucher issued by POST /discounts/trigger, with its author, under the voucher’s code', async () => {
    const c = server.client;
    await createCustomer(c, 5, { code: 'C5' });
    const campaign = await created(c, '/discounts', {
      rule_params: { name: 'Issued', select_customers: 'targeted', rule_effects: [{ type: 'direct_value', value: 1, distribution: 'total' }] },
      coupon_params: { name: 'Issued coupon' },
    });
    const issued = await c.post('/discounts/trigger', { customer_id: 5, loyalty_rule_id: campaign }, AUTHOR);
    expect(issued.status, issued.text).toBe(200);
    const [entry] = await entries({ operation: 'discounts.trigger' });
    expect(entry).toMatchObject({
      actor: { api_key: TEST_KEY, author: 'ana@example.com' }, method: 'POST', path: '/discounts/trigger',
      target: `voucher:${issued.body.voucher_code}`, body: `{"customer_id":"5","loyalty_rule_id":"${campaign}"}`,
    });
    // Indexed under the voucher its later operations target, and under the customer it names.
    await succeeds(c.post(`/vouchers/${issued.body.voucher_code}/freeze`, {}));
    expect((await entries({ target: `voucher:${issued.body.voucher_code}` })).map((e) => e.operation)).toEqual(['vouchers.freeze', 'discounts.trigger']);
    expect((await entries({ mentions: '5' })).map((e) => e.operation)).toEqual(['discounts.trigger']);
    // A refused issue records nothing.
    const before = await entries();
    expect((await c.post('/discounts/trigger', { customer_id: 5, loyalty_rule_id: 987654 })).status).toBe(404);
    expect(await entries()).toEqual(before);
  });
});
