/**
 * Each kind of customer entries (server/src/store/customer-entries.ts: one database for a customer's
 * carts, points transactions, buckets, spending and activation order, wallet summary, challenge metrics and progress) reads as the
 * database of its own it replaced: after any puts and removes over several tenants, customers and
 * kinds, every customer's range of every kind, and every key's value, are what a plain database given
 * the same writes holds. A tag that let one kind's range reach into another's, or a key that lost or
 * gained a part on the way in or out, fails it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CUSTOMER_ENTRIES, customerEntries, type CustomerEntryKind } from '../server/src/store/customer-entries.js';
import { openStore, type Key, type StoreEnv } from '../server/src/store/env.js';
import { idKey, under } from '../server/src/store/keys.js';

const KINDS: CustomerEntryKind[] = [
  'customer_carts', 'points_by_customer', 'points_tx_buckets', 'points_available_txs', 'points_pending_txs', 'points_wallets', 'challenge_daily', 'challenge_progress',
];
const TENANTS = ['acme/sandbox', 'acme/production', 'zeta/sandbox'];
const CUSTOMERS = ['1', '2', '10'].map(idKey);
const PARTS = ['~', '2026-01-01', '2026-12-31', idKey('1'), idKey('42'), 'x'];

interface Write {
  kind: CustomerEntryKind;
  key: Key[];
  value: number | null;
  remove: boolean;
}

const arbWrite: fc.Arbitrary<Write> = fc.record({
  kind: fc.constantFrom(...KINDS),
  key: fc.tuple(fc.constantFrom(...TENANTS), fc.constantFrom(...CUSTOMERS), fc.array(fc.constantFrom(...PARTS), { maxLength: 3 })).map(([tenant, customer, rest]) => [tenant, customer, ...rest]),
  value: fc.option(fc.integer({ min: 0, max: 99 })),
  remove: fc.boolean(),
});

const plain = (env: StoreEnv, kind: CustomerEntryKind) => env.db(`plain_${kind}`);

describe('customer entries', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tally-customer-entries-'));
  let env: StoreEnv;
  beforeAll(() => {
    env = openStore(dir);
    for (const kind of KINDS) plain(env, kind);
  });
  afterAll(async () => {
    await env.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('each kind reads as a database of its own, whatever the writes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(arbWrite, { minLength: 1, maxLength: 30 }), async (writes) => {
        await env.transact(() => {
          for (const db of [env.db(CUSTOMER_ENTRIES), ...KINDS.map((kind) => plain(env, kind))]) for (const key of [...db.getKeys({})]) db.removeSync(key);
          for (const { kind, key, value, remove } of writes) {
            if (remove) {
              customerEntries(env, kind).removeSync(key);
              plain(env, kind).removeSync(key);
            } else {
              customerEntries(env, kind).putSync(key, value);
              plain(env, kind).putSync(key, value);
            }
          }
        });
        for (const kind of KINDS) {
          for (const tenant of TENANTS) {
            for (const customer of CUSTOMERS) {
              const range = under([tenant, customer]);
              expect([...customerEntries(env, kind).getRange(range)]).toEqual([...plain(env, kind).getRange(range)].map(({ key, value }) => ({ key, value })));
              expect([...customerEntries(env, kind).getKeys({ ...range, limit: 1 })]).toEqual([...plain(env, kind).getKeys({ ...range, limit: 1 })]);
            }
          }
          for (const { key } of writes) expect(customerEntries(env, kind).get(key)).toEqual(plain(env, kind).get(key));
        }
      }),
      { numRuns: 60 },
    );
  });
});
