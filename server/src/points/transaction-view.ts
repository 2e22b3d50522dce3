/**
 * A points transaction as GET /points/transactions lists it, and as the
 * points_transaction.created webhook event carries it (docs/webhooks.md).
 */
import { parseJson } from '../http/json.js';
import { wireInt } from '../http/wire.js';
import type { CartStore } from '../carts/store.js';
import type { Tenant } from '../tenancy/types.js';
import { activityOrigin, type PointsTransaction } from './types.js';

/** The transaction's origin_info as JSON text: stored, or the answer of the cart it names (`origin_cart`). */
export function originText(carts: CartStore, tenant: Tenant, tx: PointsTransaction): string {
  if (!tx.origin_cart) return tx.origin_info;
  const { cart_id, customer_id, comments } = tx.origin_cart;
  // The cart is committed with the transaction and never removed while it exists (activities forbid a hard
  // delete); were the store edited by hand, the listing still answers, with the cart's id only.
  return activityOrigin(carts.get(tenant, cart_id)?.response_json ?? `{"id":${cart_id}}`, customer_id, comments);
}

export function transactionView(tx: PointsTransaction, originInfo: string, name: (id: string | null, historical: string | null) => string | null) {
  return {
    id: wireInt(tx.id),
    type: tx.type,
    created_at: tx.created_at,
    amount: tx.amount,
    pending_amount: tx.pending_amount,
    location_id: tx.location_id === null ? null : wireInt(tx.location_id),
    customer_id: wireInt(tx.customer_id),
    customer_code: tx.customer_code,
    origin_info: parseJson(originInfo),
    scores: tx.scores.map((s) => ({
      loyalty_score_name: name(s.loyalty_score_id, s.loyalty_score_name),
      loyalty_score_id: s.loyalty_score_id === null ? null : wireInt(s.loyalty_score_id),
      score: s.score,
      available_from: s.available_from,
      available_to: s.available_to,
    })),
    ...(tx.author === undefined ? {} : { author: tx.author }),
    ...(tx.associate_id === undefined ? {} : { associate_id: wireInt(tx.associate_id) }),
  };
}

