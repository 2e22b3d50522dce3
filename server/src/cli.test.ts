import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { balance, createCustomer } from './points/testing.js';
import { realtimeCart } from './testing/carts.js';
import { runCli } from './testing/cli.js';
import { startServer, type TestServer } from './testing/server.js';

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
    const list = await runCli(server.dataDir, 'company', 'list');
    expect(list.output.map((c: { id: string }) => c.id).sort()).toEqual(['acme', 'default']);
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
