/**
 * Stores written before `cart_orders` hold carts with an order id and no index key; the server indexes them when
 * it opens the store, before any request (docs/carts.md, Storage), as the audit log's targets were (audit/backfill.ts).
 */
import type { StoreEnv } from '../store/env.js';
import { indexKeys } from '../store/migrations.js';
import { CART_ORDERS, orderIndexKey } from './store.js';
import type { CartRecord } from './types.js';

/** Its entry in `migrations`: the `carts` key the next batch starts at, or "done". */
export const PROGRESS = CART_ORDERS;

/** Puts the index key of every cart with an order id, `batch` carts a transaction (`indexKeys`). Returns the carts indexed. */
export function indexCartOrders(env: StoreEnv, batch?: number): Promise<number> {
  return indexKeys<CartRecord>(env, 'carts', CART_ORDERS, (tenant, cart) => (cart.order_id === null ? undefined : orderIndexKey(tenant, cart.order_id, cart.id)), batch);
}
