/**
 * A stored cart: the request as received (canonical values), the response
 * of its evaluation (kept as the JSON text that was answered: storing a
 * string costs a copy where packing the object costs a walk), and what the realtime transaction wrote, so that a
 * cancellation can roll back exactly that. ids are int64 decimal strings.
 */
import type { Writes } from '@tally/engine';

/** How the cart arrived. */
export type CartKind = 'realtime' | 'create' | 'cancellation';

/** A client retrying a duplicate forever must not grow the stored cart: the errors past this many are only counted. */
export const MAX_DEFERRED_ERRORS = 10;

export interface DeferredError {
  code: string;
  message: string;
  received_at: string;
}

export interface CartRecord {
  id: string;
  code: string | null;
  kind: CartKind;
  customer_id: string | null;
  customer_code: string | null;
  /** The customer the cart was moved from by a merge (the contract's associate). */
  associate_id: string | null;
  /**
   * The customer the cart was stored for. Merges change customer_id and
   * associate_id, not this: challenge metrics are kept under the customer a
   * cart came from (challenges/owned-kind.ts), and a cancellation takes the
   * cart out of those.
   */
  origin_customer_id: string | null;
  location_id: string | null;
  location_code: string | null;
  order_id: string | null;
  /** The customer's country when the cart was stored (GET /carts country filters). */
  country: string | null;
  creation_date: string;
  /** Server time of the write. */
  stored_at: string;
  /**
   * The Company-local day the cart was added to its customer's daily metrics (challenges, tiers): its sale's
   * (challenges/progress.ts, salesDay), which its cancellation takes it out of. Absent on an anonymous cart and on
   * carts stored before it was recorded, which were added on the day of stored_at.
   */
  metrics_day?: string;
  /**
   * What the cart added to its customer's `total_spent` metric, in cents: its `total` as answered (after the
   * evaluation's discounts), which its cancellation takes back. Absent on a cart without a customer record (it added no
   * metrics) and on carts stored before it was recorded, which added the total they sent.
   */
  total_spent_cents?: number;
  /**
   * False on a cart whose customer id named no customer record when it was written (cart rule 1: an id is not
   * validated): it added nothing to any metrics, and its cancellation takes nothing out of them. Absent otherwise.
   */
  metrics_added?: false;
  /** The request body, after validation (int64 as strings, datetimes in UTC). */
  request: Record<string, unknown>;
  /** The evaluation's response as answered (JSON); read it with `cartResponse`. */
  response_json: string;
  /** The cart total after discounts, as answered. */
  total: number;
  writes: Writes;
  /** The points transaction of the cart (points ledger), when it earned or spent points. */
  points_transaction_id: string | null;
  /** Set on the original when a cancellation mirrored it; on the mirror, the original. */
  cancelled_by: string | null;
  cancels: string | null;
  /** Later POST /carts with this id (deferred duplicate errors, docs/carts.md): the first MAX_DEFERRED_ERRORS. */
  deferred_errors: DeferredError[];
  /** How many deferred errors came after the first MAX_DEFERRED_ERRORS (counted, not kept); absent: none. */
  deferred_errors_omitted?: number;
  /** The instant-win prizes the cart won (`instant_win_deliveries` ids), which its cancellation takes back; absent: none. */
  prize_deliveries?: string[];
  /**
   * The points transactions of POST /points/redeem_cart spends on the cart, in order, which its returns give back
   * their share of and its cancellation the rest;
   * absent: none (or spent before carts recorded them, docs/carts.md).
   */
  points_redemptions?: string[];
}
