import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { balance, createCustomer } from './points/testing.js';
import { realtimeCart } from './testing/carts.js';
import { runCli, runCliText } from './testing/cli.js';
import { startServer, TEST_KEY, TEST_SECRET, type Client, type TestServer } from './testing/server.js';

const customerById = (client: Client, id: number) => client.get(`/customers/${id}`, { query: { search_param: 'id' } });

/** Datetimes Tally writes are in whole seconds (common rule 3). */
const WHOLE_SECONDS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;

describe('the tally CLI, against the running server', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.dispose());

  it('creates and lists Companies', async () => {
    const created = await runCli(server.dataDir, 'company', 'create', 'acme', '--name', 'Acme Retail');
    expect(created).toMatchObject({ code: 0, output: { id: 'acme', name: 'Acme Retail', created_at: expect.stringMatching(WHOLE_SECONDS) } });
    const duplicate = await runCli(server.dataDir, 'company', 'create', 'acme');
    expect(duplicate.code).toBe(1);
    expect(duplicate.error.code).toBe('duplicate_id');
    const bad = await runCli(server.dataDir, 'company', 'create', 'not a slug');
    expect(bad.error.code).toBe('invalid_request');
    const long = await runCli(server.dataDir, 'company', 'create', 'a'.repeat(65));
    expect(long.error).toMatchObject({ code: 'invalid_request', error: expect.stringContaining('at most 64') });
    expect((await runCli(server.dataDir, 'company', 'create', 'b'.repeat(64))).code).toBe(0);
    const list = await runCli(server.dataDir, 'company', 'list');
    expect(list.output.map((c: { id: string }) => c.id).sort()).toEqual(['acme', 'b'.repeat(64), 'default']);
  });

  it('creates a key the running server accepts at once, for its Company and environment only', async () => {
    const created = await runCli(server.dataDir, 'key', 'create', '--company', 'acme', '--environment', 'production');
    expect(created.code).toBe(0);
    expect(created.output).toMatchObject({ company_id: 'acme', environment: 'production', enabled: true, created_at: expect.stringMatching(WHOLE_SECONDS) });
    const acme = server.clientFor({ key: created.output.key, secret: created.output.secret });
    const read = await acme.get('/company');
    expect(read.body).toMatchObject({ id: 'acme', environment: 'production' });

    // Separate data: a change by acme's production key is not seen by the default sandbox.
    await acme.patch('/company', { currency: 'MXN' });
    expect((await server.client.get('/company')).body.currency).toBe('EUR');

    // Idempotency keys are per Company environment too.
    const mine = await acme.patch('/company', { country: 'MX' }, { headers: { 'Idempotency-Key': 'shared' } });
    const theirs = await server.client.patch('/company', { country: 'FR' }, { headers: { 'Idempotency-Key': 'shared' } });
    expect(mine.status).toBe(200);
    expect(theirs.status).toBe(200);
    expect(theirs.body.country).toBe('FR');
  });

  it('never prints or stores secrets in listings', async () => {
    const list = await runCli(server.dataDir, 'key', 'list', '--company', 'acme');
    expect(list.output).toHaveLength(1);
    expect(list.output[0].secret).toBeUndefined();
    expect(list.output[0].secret_hash).toBeUndefined();
  });

  it('disables and enables a key while the server runs', async () => {
    const created = await runCli(server.dataDir, 'key', 'create', '--company', 'acme', '--description', 'pos');
    const client = server.clientFor({ key: created.output.key, secret: created.output.secret });
    expect((await client.get('/company')).status).toBe(200);

    expect((await runCli(server.dataDir, 'key', 'disable', created.output.key)).output.enabled).toBe(false);
    const refused = await client.get('/company');
    expect(refused.status).toBe(403);
    expect(refused.text).toBe('{"message":"Forbidden"}');

    await runCli(server.dataDir, 'key', 'enable', created.output.key);
    expect((await client.get('/company')).status).toBe(200);
  });

  it('updates a Company environment\'s settings, validated like PATCH /company', async () => {
    const ok = await runCli(server.dataDir, 'company', 'update', 'acme', '--environment', 'sandbox', '--settings', '{"currency":"USD"}');
    expect(ok.output).toMatchObject({ id: 'acme', environment: 'sandbox', currency: 'USD' });
    const bad = await runCli(server.dataDir, 'company', 'update', 'acme', '--settings', '{"currency":"usd"}');
    expect(bad.code).toBe(1);
    expect(bad.error).toMatchObject({ code: 'invalid_request', error: expect.stringContaining('currency') });
    const missing = await runCli(server.dataDir, 'company', 'update', 'nobody', '--name', 'x');
    expect(missing.error.code).toBe('company_not_found');
    // A settings patch refused after its schema (a default language outside languages) renamed the Company first.
    const before = (await runCli(server.dataDir, 'company', 'list')).output;
    const renamed = await runCli(server.dataDir, 'company', 'update', 'acme', '--name', 'Acme 4', '--settings', '{"default_language":"es"}');
    expect(renamed.code).toBe(1);
    expect(renamed.error).toMatchObject({ code: 'invalid_request', error: expect.stringMatching(/^default_language: /) });
    expect((await runCli(server.dataDir, 'company', 'list')).output).toEqual(before);
  });
});

describe('the tally CLI on a directory without a store (a mistyped --data-dir)', () => {
  let scratch: string;
  beforeAll(() => {
    scratch = mkdtempSync(join(tmpdir(), 'tally-nostore-'));
  });
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  const NEEDS_A_STORE = [
    ['company', 'list'],
    ['company', 'update', 'acme', '--name', 'Acme'],
    ['key', 'list'],
    ['key', 'create', '--company', 'acme'],
    ['key', 'disable', 'k'],
    ['key', 'enable', 'k'],
    ['key', 'update', 'k', '--description', 'pos'],
  ];

  it('refuses every command but company create, in one line naming the directory, and creates nothing', async () => {
    const empty = join(scratch, 'empty');
    mkdirSync(empty);
    // Every command on a missing directory; an empty one and a single-file store's name (lmdb-js's form for a name with
    // an extension) with two (every command goes through storeAction's one check: each CLI run costs a Node start).
    const backup = ['backup', join(scratch, 'copy')];
    const runs = [
      ...[...NEEDS_A_STORE, backup].map((args) => [join(scratch, 'typo'), args] as const),
      ...[empty, join(scratch, 'tally.db')].flatMap((dir) => [NEEDS_A_STORE[0], backup].map((args) => [dir, args] as const)),
    ];
    for (const [dir, args] of runs) {
      const run = await runCliText(['--data-dir', dir, ...args]);
      expect(run, `${dir} ${args.join(' ')}`).toMatchObject({ code: 1, stdout: '' });
      expect(run.stderr.split('\n')).toEqual([expect.any(String), '']);
      expect(JSON.parse(run.stderr)).toEqual({
        error: `no Tally store at ${dir}: a mistyped --data-dir or DATA_DIR? (tally company create makes one)`,
        code: 'store_not_found',
      });
    }
    expect(readdirSync(scratch).sort()).toEqual(['empty']);
    expect(readdirSync(empty)).toEqual([]);
  });

  it('company create makes the store, and says so on stderr the first time only', async () => {
    const dir = join(scratch, 'new');
    const created = await runCliText(['--data-dir', dir, 'company', 'create', 'acme']);
    expect(created).toMatchObject({ code: 0, stderr: `created a new store at ${dir}\n` });
    expect(JSON.parse(created.stdout)).toMatchObject({ id: 'acme' });
    const next = await runCliText(['--data-dir', dir, 'company', 'create', 'other']);
    expect(next).toMatchObject({ code: 0, stderr: '' });
    expect((await runCli(dir, 'company', 'list')).output.map((c: { id: string }) => c.id).sort()).toEqual(['acme', 'other']);
    expect((await runCli(dir, 'key', 'create', '--company', 'acme')).code).toBe(0);
  });

  // lmdb-js takes a path named with an extension for a one-file store: this directory failed with "Is a directory".
  it('takes an existing directory named with a dot (mktemp -d\'s tmp.AbC123) for the store\'s directory', async () => {
    const dir = join(scratch, 'tmp.AbC123');
    mkdirSync(dir);
    const created = await runCliText(['--data-dir', dir, 'company', 'create', 'acme']);
    expect(created).toMatchObject({ code: 0, stderr: `created a new store at ${dir}\n` });
    expect(readdirSync(dir).sort()).toEqual(['data.mdb', 'lock.mdb']);
    expect((await runCli(dir, 'company', 'list')).output.map((c: { id: string }) => c.id)).toEqual(['acme']);
  });

  it('a company create that fails leaves no store it made, and says nothing of one; a store that was there is kept', async () => {
    const parent = join(scratch, 'failed');
    const empty = join(parent, 'empty');
    mkdirSync(empty, { recursive: true });
    // A missing directory (and its missing parent), an empty one, a single-file store's name.
    for (const dir of [join(parent, 'missing', 'data'), empty, join(parent, 'tally.db')]) {
      const run = await runCliText(['--data-dir', dir, 'company', 'create', 'Not a slug!']);
      expect(run, dir).toMatchObject({ code: 1, stdout: '' });
      expect(run.stderr.split('\n'), dir).toEqual([expect.any(String), '']);
      expect(JSON.parse(run.stderr).code).toBe('invalid_request');
    }
    expect(readdirSync(parent)).toEqual(['empty']);
    expect(readdirSync(empty)).toEqual([]);
    // Created by an earlier run: a failed create keeps it, and its Companies.
    expect((await runCli(empty, 'company', 'create', 'acme')).code).toBe(0);
    const again = await runCliText(['--data-dir', empty, 'company', 'create', 'acme']);
    expect(again).toMatchObject({ code: 1, stdout: '' });
    expect(JSON.parse(again.stderr).code).not.toBe('store_not_found');
    expect((await runCli(empty, 'company', 'list')).output.map((c: { id: string }) => c.id)).toEqual(['acme']);
  });
});

describe('tally backup', () => {
  let server: TestServer;
  let scratch: string;
  beforeAll(async () => {
    server = await startServer({ env: { WORKERS: '1' } });
    scratch = mkdtempSync(join(tmpdir(), 'tally-backup-'));
  });
  afterAll(async () => {
    await server.dispose();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('copies the store while the server runs: a server started on the copy answers the same customer, cart and balance', async () => {
    await createCustomer(server.client, 7, { email: 'ann@example.com' });
    await server.client.post('/points', { rule_params: { name: 'Ten per unit', rule_effects: [{ type: 'ratio', value: 10, distribution: 'individual_items' }] } });
    expect((await realtimeCart(server.client, 7, 2.99, { id: 501 })).body.score).toBe(29);
    for (const compact of [false, true]) {
      const target = join(scratch, compact ? 'compact' : 'plain');
      const made = await runCli(server.dataDir, 'backup', target, ...(compact ? ['--compact'] : []));
      expect(made).toMatchObject({ code: 0, output: { path: target, bytes: expect.any(Number) } });
      expect(made.output.bytes).toBeGreaterThan(0);
      expect(readdirSync(target)).toEqual(['data.mdb']);
      const restored = await startServer({ dataDir: target });
      try {
        for (const path of ['/customers/7?search_param=id', '/carts/501', '/customers/7/points']) {
          const [original, copy] = await Promise.all([server.client.get(path), restored.client.get(path)]);
          expect(copy.status, copy.text).toBe(200);
          expect(copy.body).toEqual(original.body);
        }
        expect((await balance(restored.client, 7)).score).toBe(29);
      } finally {
        await restored.dispose();
      }
    }
  });

  it('refuses a directory that is not empty and writes nothing into it', async () => {
    const target = join(scratch, 'taken');
    mkdirSync(target);
    writeFileSync(join(target, 'notes.txt'), 'keep me');
    const refused = await runCli(server.dataDir, 'backup', target);
    expect(refused.code).toBe(1);
    expect(refused.error).toEqual({ code: 'invalid_request', error: `dir: ${target} is not empty` });
    expect(refused.output).toBeUndefined();
    expect(readdirSync(target)).toEqual(['notes.txt']);
  });
});

describe('tally import customers, through the running server', () => {
  let server: TestServer;
  let scratch: string;
  const credentials = ['--key', TEST_KEY, '--secret', TEST_SECRET];
  const customer = (id: number, fields: Record<string, unknown> = {}) => JSON.stringify({ id, name: `Imported ${id}`, registration_location_id: 1, ...fields });
  /** N = 6 valid lines (one by code), a bad email (line 6), a blank line, an existing id (line 8). */
  const lines = [
    customer(201, { email: 'c201@example.com' }),
    customer(202),
    customer(203),
    customer(204),
    customer(205),
    customer(206, { email: 'not-an-email' }),
    '',
    customer(100),
    JSON.stringify({ code: 'IMPORTED-CODE', name: 'By code', registration_location_id: 1 }),
  ];
  const expectedErrors = [
    { line: 6, status: 400, code: 'invalid_request', error: expect.stringContaining('email') },
    { line: 8, status: 409, code: 'duplicate_id', error: expect.any(String) },
  ];
  const readErrors = (file: string) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l))
      .sort((a, b) => a.line - b.line);

  beforeAll(async () => {
    server = await startServer();
    scratch = mkdtempSync(join(tmpdir(), 'tally-import-'));
    writeFileSync(join(scratch, 'customers.ndjson'), `${lines.join('\n')}\n`);
    await createCustomer(server.client, 100);
  });
  afterAll(async () => {
    await server.dispose();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('creates the customer of every valid line, reports each failed line with its code, exits 1', async () => {
    const errors = join(scratch, 'errors-1.ndjson');
    const run = await runCliText(['import', 'customers', join(scratch, 'customers.ndjson'), '--url', server.url, ...credentials, '--errors', errors]);
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout)).toEqual({ created: 6, failed: 2, skipped: 1 });
    expect(readErrors(errors)).toEqual(expectedErrors);
    for (const id of [201, 202, 203, 204, 205]) expect((await customerById(server.client, id)).body).toMatchObject({ id, name: `Imported ${id}` });
    expect((await server.client.get('/customers/c201@example.com', { query: { search_param: 'email' } })).body.id).toBe(201);
    expect((await server.client.get('/customers/IMPORTED-CODE', { query: { search_param: 'code' } })).body.name).toBe('By code');
    expect((await customerById(server.client, 206)).status).toBe(404);
    expect((await customerById(server.client, 100)).body.name).toBe('Customer 100');
  });

  it('imports the same file again without creating anything: every line gets its first answer back, also after a restart', async () => {
    // A restart forgets duplicate suppression (common rule 8, in memory): only the lines' Idempotency-Keys answer as the first run.
    await server.restart();
    const before = await server.client.get('/customers/IMPORTED-CODE', { query: { search_param: 'code' } });
    const errors = join(scratch, 'errors-2.ndjson');
    const run = await runCliText(['import', 'customers', join(scratch, 'customers.ndjson'), '--url', server.url, ...credentials, '--errors', errors, '--concurrency', '3']);
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout)).toEqual({ created: 6, failed: 2, skipped: 1 });
    expect(readErrors(errors)).toEqual(expectedErrors);
    expect((await server.client.get('/customers/IMPORTED-CODE', { query: { search_param: 'code' } })).body).toEqual(before.body);
  });

  it('reads stdin (-) with the credentials of TALLY_API_KEY and TALLY_API_SECRET; failed lines go to stderr', async () => {
    const input = `${customer(301)}\r\n${customer(302)}\r\n{"id": 303\n`;
    const run = await runCliText(['import', 'customers', '-', '--url', server.url], { input, env: { TALLY_API_KEY: TEST_KEY, TALLY_API_SECRET: TEST_SECRET } });
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout)).toEqual({ created: 2, failed: 1, skipped: 0 });
    expect(JSON.parse(run.stderr)).toMatchObject({ line: 3, status: 400, code: 'invalid_request' });
    for (const id of [301, 302]) expect((await customerById(server.client, id)).status).toBe(200);
  });

  // --secret is visible to every user of the machine in `ps`; a file (mode 0600) or the environment is not.
  it('reads the secret from --secret-file (its first line), and refuses it with --secret or when it cannot be read', async () => {
    const secretFile = join(scratch, 'secret');
    writeFileSync(secretFile, `${TEST_SECRET}\n`, { mode: 0o600 });
    const run = await runCliText(['import', 'customers', '-', '--url', server.url, '--key', TEST_KEY, '--secret-file', secretFile], { input: `${customer(311)}\n`, env: { TALLY_API_SECRET: 'not-the-secret-at-all' } });
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(run.stdout)).toEqual({ created: 1, failed: 0, skipped: 0 });
    expect((await customerById(server.client, 311)).status).toBe(200);
    const both = await runCliText(['import', 'customers', '-', '--url', server.url, ...credentials, '--secret-file', secretFile], { input: `${customer(312)}\n` });
    expect(both.code).toBe(1);
    expect(JSON.parse(both.stderr)).toEqual({ code: 'invalid_request', error: 'secret: give --secret or --secret-file, not both' });
    const missing = join(scratch, 'no-such-secret');
    const unreadable = await runCliText(['import', 'customers', '-', '--url', server.url, '--key', TEST_KEY, '--secret-file', missing], { input: `${customer(312)}\n` });
    expect(unreadable.code).toBe(1);
    expect(JSON.parse(unreadable.stderr)).toMatchObject({ code: 'invalid_request', error: expect.stringContaining(`secret-file: ${missing} cannot be read`) });
    expect((await customerById(server.client, 312)).status).toBe(404);
  });

  it('refuses a concurrency below 1, its range in the words of every other range', async () => {
    const run = await runCliText(['import', 'customers', '-', '--url', server.url, ...credentials, '--concurrency', '0'], { input: `${customer(403)}\n` });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('must be an integer of at least 1');
    expect((await customerById(server.client, 403)).status).toBe(404);
  });

  it('exits 0 when every line succeeds; refuses to start without credentials', async () => {
    const run = await runCliText(['import', 'customers', '-', '--url', server.url, ...credentials], { input: `${customer(401)}\n` });
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(run.stdout)).toEqual({ created: 1, failed: 0, skipped: 0 });
    const anonymous = await runCliText(['import', 'customers', '-', '--url', server.url], { input: `${customer(402)}\n`, env: { TALLY_API_KEY: '', TALLY_API_SECRET: '' } });
    expect(anonymous.code).toBe(1);
    expect(JSON.parse(anonymous.stderr)).toMatchObject({ code: 'invalid_request', error: expect.stringContaining('TALLY_API_KEY') });
    expect((await customerById(server.client, 402)).status).toBe(404);
  });

  it('waits out 429 answers as Retry-After says, so every line lands', async () => {
    const limited = await startServer({ env: { TALLY_RATE_LIMITS: 'on' } });
    try {
      expect((await limited.client.patch('/company', { rate_limits: { tier_2: 4 } })).status).toBe(200);
      const input = Array.from({ length: 12 }, (_, i) => customer(500 + i)).join('\n');
      const run = await runCliText(['import', 'customers', '-', '--url', limited.url, ...credentials], { input });
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(JSON.parse(run.stdout)).toEqual({ created: 12, failed: 0, skipped: 0 });
      expect((await customerById(limited.client, 511)).status).toBe(200);
    } finally {
      await limited.dispose();
    }
  });
});
