/**
 * A customer's carts, points transactions, buckets, their spending and activation order, the wallet summary,
 * challenge metrics and challenge progress live in one database (`customer_entries`); stores written before kept
 * one database per kind (the challenge kinds: one database for both, `challenge_customers`), and the server
 * moves them when it opens the store.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { balance, createCustomer, expectLedgerAddsUp, grant, transactions, triggerCampaign, utcDate } from '../points/testing.js';
import { realtimeCart } from '../testing/carts.js';
import { startServer, type TestServer } from '../testing/server.js';
import { customerEntries, migrateCustomerEntries, type CustomerEntryKind } from './customer-entries.js';
import { openStore, type Key } from './env.js';
import { idKey, tenantPrefix, under } from './keys.js';
import { BOOTSTRAP_COMPANY } from '../tenancy/bootstrap.js';

const KINDS: CustomerEntryKind[] = [
  'customer_carts', 'points_by_customer', 'points_tx_buckets', 'points_available_txs', 'points_pending_txs', 'points_wallets', 'challenge_daily', 'challenge_progress',
];
/** The challenge kinds were sections of one database, keyed [tenant, section, customer, ...]. */
const SECTIONS: Partial<Record<CustomerEntryKind, string>> = { challenge_daily: 'daily', challenge_progress: 'progress' };
const OLD_DATABASES = [...KINDS.filter((kind) => !(kind in SECTIONS)), 'challenge_customers'];
const CUSTOMERS = ['1', '2'];
const TENANT = tenantPrefix({ companyId: BOOTSTRAP_COMPANY, environment: 'sandbox' });

type Entry = { key: Key[]; value: unknown };

/** Every entry of every kind of the test's customers, by kind. */
async function snapshot(dataDir: string): Promise<Record<string, Entry[]>> {
  const env = openStore(dataDir);
  try {
    const byKind: Record<string, Entry[]> = {};
    for (const kind of KINDS) {
      byKind[kind] = CUSTOMERS.flatMap((customer) => {
        const prefix = [TENANT, idKey(customer)];
        return [...customerEntries(env, kind).getRange(under(prefix))];
      });
    }
    return byKind;
  } finally {
    await env.close();
  }
}

/** Where stores before the clustering kept an entry: its database and key. */
function oldPlace(kind: CustomerEntryKind, [tenant, ...rest]: Key[]): [string, Key[]] {
  const section = SECTIONS[kind];
  return section === undefined ? [kind, [tenant, ...rest]] : ['challenge_customers', [tenant, section, ...rest]];
}

/** Rewrites the entries as stores before the clustering kept them: one database per kind (or per section set). */
async function writeSeparateDatabases(dataDir: string, entries: Record<string, Entry[]>): Promise<void> {
  const env = openStore(dataDir);
  for (const name of OLD_DATABASES) env.db(name);
  await env.transact(() => {
    for (const kind of KINDS) {
      for (const { key, value } of entries[kind]) {
        const [name, oldKey] = oldPlace(kind, key);
        env.db(name).putSync(oldKey, value);
        customerEntries(env, kind).removeSync(key);
      }
    }
  });
  await env.close();
}

describe('customer entries: a store with one database per kind', () => {
  let server: TestServer;
  let before: Record<string, Entry[]>;
  let answers: unknown[];
  let challenge: number;

  const reads = async () =>
    Promise.all(
      CUSTOMERS.flatMap((id) => [
        server.client.get(`/carts?customer_id=${id}`).then((res) => res.body),
        transactions(server.client, Number(id)),
        balance(server.client, Number(id)),
        server.client.get(`/customers/${id}/points_expiring`).then((res) => res.body),
        server.client.get(`/customers/${id}/challenges/${challenge}`).then((res) => res.body),
      ]),
    );

  beforeAll(async () => {
    server = await startServer();
    for (const id of CUSTOMERS) await createCustomer(server.client, Number(id));
    const soon = await triggerCampaign(server.client, 'soon', 20, { expiration_period_type: 'fixed', expiration_date: utcDate(10) });
    const pending = await triggerCampaign(server.client, 'tomorrow', 7, { activation_period_type: 'relative', activation_delay: 1, activation_delay_unit: 'days' });
    const res = await server.client.post('/points', { rule_params: { name: 'cart 1 per euro', rule_effects: [{ type: 'ratio', value: 1 }] } });
    expect(res.status, res.text).toBe(200);
    const created = await server.client.post('/challenges', { name: 'Spend', attribute: 'total_spent', structure: [{ level: 1, name: 'Starter', threshold: 30, points: 5 }] });
    expect(created.status, created.text).toBe(200);
    challenge = created.body.id;
    expect((await server.client.post(`/challenges/${challenge}/enroll`, { customer_id: 1 })).status).toBe(200);
    for (const id of [1, 2]) {
      await grant(server.client, 'soon', id, soon);
      await grant(server.client, 'tomorrow', id, pending);
      for (const total of [10, 25]) expect((await realtimeCart(server.client, id, total)).status).toBe(200);
    }
    answers = await reads();
    await server.stop();
    before = await snapshot(server.dataDir);
  });
  afterAll(async () => {
    await server.dispose();
  });

  it('holds every kind of a customer’s entries in one database', () => {
    for (const kind of KINDS) expect(before[kind].length, kind).toBeGreaterThan(0);
  });

  it('moves them at start: carts, transactions, balances and expiring points read the same, and later carts and spends work', async () => {
    await writeSeparateDatabases(server.dataDir, before);
    await server.restart();
    expect(await reads()).toEqual(answers);
    const progress = (await server.client.get(`/customers/1/challenges/${challenge}`)).body;
    expect(progress).toMatchObject({ attribute_value: 35, current_level: 1, enrolled: true });
    expect((await realtimeCart(server.client, 1, 5)).status).toBe(200);
    expect((await server.client.get(`/customers/1/challenges/${challenge}`)).body).toMatchObject({ attribute_value: 40, current_level: 1, enrolled: true });
    expect((await server.client.post('/points/redeem', { customer_id: 1, amount: 25, comments: 'after the move' })).status).toBe(200);
    const [spent] = (await transactions(server.client, 1)).filter((t) => t.type === 'subtract');
    // The points that expire first are spent first.
    expect(spent.scores[0].score).toBe(-20);
    for (const id of [1, 2]) await expectLedgerAddsUp(server.client, id);
    await server.stop();
    const env = openStore(server.dataDir);
    for (const name of OLD_DATABASES) expect([...env.db(name).getKeys({})], name).toEqual([]);
    await env.close();
    await server.restart();
  });

  it('moves a store in batches: each batch a transaction, every entry once', async () => {
    await server.stop();
    const now = await snapshot(server.dataDir);
    await writeSeparateDatabases(server.dataDir, now);
    const env = openStore(server.dataDir);
    const total = Object.values(now).reduce((sum, entries) => sum + entries.length, 0);
    expect(await migrateCustomerEntries(env, 3)).toBe(total);
    expect(await migrateCustomerEntries(env, 3)).toBe(0);
    await env.close();
    expect(await snapshot(server.dataDir)).toEqual(now);
    await server.restart();
  });

  it('stops at an entry of an unknown section rather than dropping it or reading it again forever', async () => {
    await server.stop();
    const env = openStore(server.dataDir);
    const old = env.db('challenge_customers');
    const stray: Key[] = [TENANT, 'unknown', idKey('1'), '2026-11-20'];
    await env.transact(() => old.putSync(stray, { carts: 1 }));
    await expect(migrateCustomerEntries(env)).rejects.toThrow(/no kind for the key .*unknown.* of challenge_customers/);
    expect(old.get(stray)).toEqual({ carts: 1 });
    await env.transact(() => old.removeSync(stray));
    await env.close();
    await server.restart();
  });
});
