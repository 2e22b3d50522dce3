/**
 * Stores written before 2026-11-27 index only the first holder of a duplicated email or dni, and release the value
 * when that holder lets it go. The server lists the other holders when it opens such a store, so the value passes
 * to the remaining holder of lowest id as it does in a store written since.
 *
 * The store is written by the live code (over HTTP, and through CustomerStore for the production environment,
 * which the test's key cannot reach), then turned into the old layout: no other holder listed, a value that passed
 * on released, no mark of the migration. Listing it again must give back the index the live code wrote.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Key, type StoreEnv } from '../store/env.js';
import { idKey, tenantPrefix, under } from '../store/keys.js';
import { migrations } from '../store/migrations.js';
import { BOOTSTRAP_COMPANY } from '../tenancy/bootstrap.js';
import type { Tenant } from '../tenancy/types.js';
import { startServer, type TestServer } from '../testing/server.js';
import { migrateDuplicateHolders } from './duplicate-holders.js';
import { CustomerStore } from './store.js';
import { deleteById, postCustomer, searchId } from './testing.js';
import type { CustomerRecord } from './types.js';

const SANDBOX: Tenant = { companyId: BOOTSTRAP_COMPANY, environment: 'sandbox' };
const PRODUCTION: Tenant = { companyId: BOOTSTRAP_COMPANY, environment: 'production' };
const TENANTS = [SANDBOX, PRODUCTION];
/** Values whose indexed holder let them go, so they passed on: a store written before released them. */
const PASSED_ON: [Tenant, 'email' | 'dni', string][] = [[SANDBOX, 'email', 'passed@example.com']];
/** Listed by the live code: 111, 112, 113 (first@), 113, 202, 203 (ZZ1), 303 (passed@), 2 and 3 in production. */
const LISTED = 9;

type Entry = { key: Key[]; value: unknown };

/** Every customer_index entry of the test's tenants. */
function indexEntries(env: StoreEnv): Entry[] {
  return TENANTS.flatMap((tenant) => [...env.db('customer_index').getRange(under([tenantPrefix(tenant)]))] as Entry[]);
}

const isOtherHolder = ({ key }: Entry) => key[1] === 'email_duplicate' || key[1] === 'dni_duplicate';

/** The index as stores written before 2026-11-27 left it, and the store not marked as listed. */
async function writeOldLayout(env: StoreEnv): Promise<void> {
  await env.transact(() => {
    const index = env.db('customer_index');
    for (const { key } of indexEntries(env).filter(isOtherHolder)) index.removeSync(key);
    for (const [tenant, kind, value] of PASSED_ON) index.removeSync([tenantPrefix(tenant), kind, value]);
    migrations(env).removeSync('duplicate_holders');
  });
}

async function withStore<T>(dataDir: string, work: (env: StoreEnv) => Promise<T>): Promise<T> {
  const env = openStore(dataDir);
  try {
    return await work(env);
  } finally {
    await env.close();
  }
}

describe('duplicate holders of a store written before they were listed', () => {
  let server: TestServer;
  /** The index the live code wrote. */
  let written: Entry[];

  const create = (body: Record<string, unknown>, ...allow: ('email' | 'dni')[]) => postCustomer(server.client, body, ...allow);
  const patch = (id: number, body: Record<string, unknown>) => server.client.patch(`/customers/${id}`, body, { query: { search_param: 'id' } });
  const ok = async (res: Promise<{ status: number; text: string }>) => {
    const done = await res;
    expect(done.status, done.text).toBe(200);
  };
  const byEmail = async (email: string) => {
    const res = await server.client.get(`/customers/${email}`, { query: { search_param: 'email' } });
    return res.status === 200 ? res.body.id : res.status;
  };

  beforeAll(async () => {
    server = await startServer();
    // first@: 110 is indexed though not the lowest id.
    await ok(create({ id: 110, email: 'first@example.com' }));
    await ok(create({ id: 112, email: 'first@example.com' }, 'email'));
    await ok(create({ id: 111, email: 'first@example.com' }, 'email'));
    // ZZ1: 201 is indexed; 203 is merged (it keeps its data, so it still holds it); 204 is soft-deleted (emptied).
    await ok(create({ id: 201, dni: 'zz1' }));
    for (const id of [203, 202, 204]) await ok(create({ id, dni: 'zz1' }, 'dni'));
    await ok(create({ id: 205 }));
    await ok(server.client.post('/customers/transfer', { old_customer_id: 203, new_customer_id: 205 }));
    expect((await deleteById(server.client, 204, false)).body.deleted).toBe('soft');
    // 113 holds both.
    await ok(create({ id: 113, email: 'first@example.com', dni: 'ZZ1' }, 'email', 'dni'));
    // passed@: 301 lets it go, so it passes to 302.
    await ok(create({ id: 301, email: 'passed@example.com' }));
    for (const id of [302, 303]) await ok(create({ id, email: 'passed@example.com' }, 'email'));
    await ok(patch(301, { email: 'moved@example.com' }));
    await server.stop();
    written = await withStore(server.dataDir, async (env) => {
      const store = new CustomerStore(env);
      await env.transact(() => {
        for (const id of ['3', '1', '2']) {
          const record: CustomerRecord = { id, email: 'prod@example.com', status: 'active', profile: {}, attributes: {}, password_hash: '', creation_date: '2026-11-01T00:00:00Z', updated_at: '2026-11-01T00:00:00Z' };
          store.put(PRODUCTION, record);
        }
      });
      return indexEntries(env);
    });
  });
  afterAll(() => server.dispose());

  it('the live code lists every other holder, a merged one too, and no soft-deleted one', () => {
    expect(written.filter(isOtherHolder).length).toBe(LISTED);
    expect(written.some(({ key }) => key[3] === idKey('203'))).toBe(true);
    expect(written.some(({ key }) => key[3] === idKey('204'))).toBe(false);
  });

  it('lists every holder once in batches smaller than their number, in each environment', async () => {
    await withStore(server.dataDir, async (env) => {
      await writeOldLayout(env);
      expect(indexEntries(env).filter(isOtherHolder)).toEqual([]);
      expect(await migrateDuplicateHolders(env, TENANTS, 2)).toEqual({ listed: LISTED, held: PASSED_ON.length });
      expect(indexEntries(env)).toEqual(written);
    });
  });

  it('running it again changes nothing: at once (the store is marked), or after a crash before the mark', async () => {
    await withStore(server.dataDir, async (env) => {
      await writeOldLayout(env);
      expect(await migrateDuplicateHolders(env, TENANTS, 4)).toEqual({ listed: LISTED, held: PASSED_ON.length });
      expect(await migrateDuplicateHolders(env, TENANTS, 4)).toEqual({ listed: 0, held: 0 });
      await env.transact(() => migrations(env).removeSync('duplicate_holders'));
      expect(await migrateDuplicateHolders(env, TENANTS, 4)).toEqual({ listed: 0, held: 0 });
      expect(indexEntries(env)).toEqual(written);
    });
  });

  it('does nothing on a store already marked (one get): a holder missing then stays missing', async () => {
    await withStore(server.dataDir, async (env) => {
      const [listed] = indexEntries(env).filter(isOtherHolder);
      await env.transact(() => env.db('customer_index').removeSync(listed.key));
      expect(await migrateDuplicateHolders(env, TENANTS)).toEqual({ listed: 0, held: 0 });
      expect(env.db('customer_index').doesExist(listed.key)).toBe(false);
      await env.transact(() => env.db('customer_index').putSync(listed.key, listed.value));
    });
  });

  it('lists them when the server opens the store: the value passes to the lowest remaining id and stays taken', async () => {
    await withStore(server.dataDir, writeOldLayout);
    await server.restart();
    const logged = server.lines.filter((line) => line.includes('holders of duplicated emails and dnis listed')).map((line) => JSON.parse(line));
    expect(logged).toMatchObject([{ listed: LISTED, held: PASSED_ON.length }]);

    expect(await byEmail('first@example.com')).toBe(110);
    expect((await deleteById(server.client, 110, true)).body.deleted).toBe('hard');
    expect(await byEmail('first@example.com')).toBe(111);
    const taken = await create({ id: 120, email: 'first@example.com' });
    expect(taken.status).toBe(409);
    expect(taken.body).toMatchObject({ code: 'conflict' });
    expect(taken.body.error).toMatch(/^email: /);
    await ok(patch(111, { email: null }));
    expect(await byEmail('first@example.com')).toBe(112);

    // The value a store written before had released is held again, by the lowest id of its holders.
    expect(await byEmail('passed@example.com')).toBe(302);
    expect((await deleteById(server.client, 302, false)).body.deleted).toBe('soft');
    expect(await byEmail('passed@example.com')).toBe(303);
    expect((await create({ id: 320, email: 'passed@example.com' })).status).toBe(409);

    expect(await searchId(server.client, { dni: 'zz1' })).toBe(201);
    await ok(patch(201, { dni: 'other' }));
    expect(await searchId(server.client, { dni: 'zz1' })).toBe(113);
    await ok(patch(113, { dni: null }));
    expect(await searchId(server.client, { dni: 'zz1' })).toBe(202);
    await ok(patch(202, { dni: null }));
    // The merged customer keeps its data, the dni included.
    expect(await searchId(server.client, { dni: 'zz1' })).toBe(203);
    expect((await create({ id: 220, dni: 'ZZ1' })).status).toBe(409);
  });
});
