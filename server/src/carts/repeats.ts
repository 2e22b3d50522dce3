/**
 * Duplicate suppression (common rule 8) of carts sent without `id` and `code`:
 * the id check covers a cart that names itself (realtime: 409 duplicate_id;
 * POST /carts: a deferred error), but a till retrying an unnamed cart after a
 * timeout would be stored, and earn, twice. An identical request (same
 * operation, same body as parsed: formatting and key order do not count)
 * within 5 minutes answers the first cart's answer and writes nothing, while
 * that cart is stored and not cancelled (a cancellation changed it: A, B, A
 * runs all three).
 *
 * Unlike the main thread's suppressor (http/duplicates.ts) this runs on the
 * writer threads, which parse the body, and inside the cart's transaction, so
 * two writers or a restart never let an identical cart through. Keys
 * (docs/storage.md): `cart_repeats` [tenant, sha256 of the request] ->
 * {cart_id, at}; entries past the window are swept.
 */
import { createHash } from 'node:crypto';
import { canonicalBody } from '../http/json.js';
import { DUPLICATE_WINDOW_MS } from '../http/duplicates.js';
import type { Db, StoreEnv } from '../store/env.js';
import { tenantPrefix } from '../store/keys.js';
import type { Tenant } from '../tenancy/types.js';
import type { CartStore } from './store.js';
import type { CartRecord } from './types.js';

interface Remembered {
  cart_id: string;
  /** Epoch milliseconds of the first request. */
  at: number;
}

/** What makes two cart requests the same: the operation and the body as parsed. */
export function cartFingerprint(operation: string, body: string): string {
  return createHash('sha256').update(`${operation}\u0000${canonicalBody(body)}`).digest('hex');
}

export class CartRepeats {
  private readonly db: Db;

  /** Opens its database (docs/storage.md: before the first write transaction). */
  constructor(private readonly env: StoreEnv) {
    this.db = env.db('cart_repeats');
  }

  /** Inside the cart's transaction: the cart an identical request stored within the window before `now`, if it still stands. */
  first(carts: CartStore, tenant: Tenant, fingerprint: string, now: Date): CartRecord | undefined {
    const remembered = this.db.get([tenantPrefix(tenant), fingerprint]) as Remembered | undefined;
    if (!remembered || remembered.at <= now.getTime() - DUPLICATE_WINDOW_MS) return undefined;
    const cart = carts.get(tenant, remembered.cart_id);
    return cart && cart.cancelled_by === null ? cart : undefined;
  }

  /** Inside the cart's transaction: remembers the cart this request stored. */
  remember(tenant: Tenant, fingerprint: string, cartId: string, now: Date): void {
    this.db.putSync([tenantPrefix(tenant), fingerprint], { cart_id: cartId, at: now.getTime() } satisfies Remembered);
  }

  /** Removes the entries of requests made before `before` (epoch ms), in one transaction when there are any; returns how many. */
  async removeExpired(before: number): Promise<number> {
    const expired = (entry: unknown) => entry !== undefined && (entry as Remembered).at < before;
    const keys = [...this.db.getRange({})].filter(({ value }) => expired(value)).map(({ key }) => key);
    if (keys.length === 0) return 0;
    // Checked again in the transaction: an identical request may have remembered a new cart under a key meanwhile.
    return this.env.transact(() => {
      let removed = 0;
      for (const key of keys) if (expired(this.db.get(key)) && this.db.removeSync(key)) removed += 1;
      return removed;
    });
  }
}
