/**
 * Stores written before `cart_orders` hold carts with an order id and no index key; the server indexes them when
 * it opens the store, before any request (docs/carts.md, Storage), as the audit log's targets were (audit/backfill.ts).
 */
import type { Key, StoreEnv } from '../store/env.js';
import { migrations } from '../store/migrations.js';
import { CART_ORDERS, orderIndexKey } from './store.js';
import type { CartRecord } from './types.js';

/** Its entry in `migrations`: the `carts` key the next batch starts at, or DONE. */
export const PROGRESS = CART_ORDERS;
const DONE = 'done';

/**
 * Walks every cart of `carts` in key order and puts the index key of each that has an order id, `batch` carts a
 * transaction; each transaction records where the next one starts, so a restart after a crash goes on from there,
 * and putting a key again changes nothing. Once done, a start reads one key. Returns the carts indexed.
 */
export async function indexCartOrders(env: StoreEnv, batch = 10_000): Promise<number> {
  if (migrations(env).get(PROGRESS) === DONE) return 0;
  let indexed = 0;
  for (;;) {
    const { count, done } = await env.transact(() => indexSome(env, batch));
    indexed += count;
    if (done) return indexed;
  }
}

function indexSome(env: StoreEnv, batch: number): { count: number; done: boolean } {
  const index = env.db(CART_ORDERS);
  const next = migrations(env).get(PROGRESS) as Key[] | undefined;
  let read = 0;
  let count = 0;
  // One cart more than the batch: where the next batch starts. Iterated, not collected: 10,000 carts of about 8.7 KB.
  for (const { key, value } of env.db('carts').getRange({ start: next, limit: batch + 1 })) {
    if (read++ === batch) {
      migrations(env).putSync(PROGRESS, key);
      return { count, done: false };
    }
    const cart = value as CartRecord;
    if (cart.order_id === null) continue;
    const [tenant] = key as string[];
    index.putSync(orderIndexKey(tenant, cart.order_id, cart.id), null);
    count++;
  }
  migrations(env).putSync(PROGRESS, DONE);
  return { count, done: true };
}
