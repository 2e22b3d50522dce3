/**
 * GET /points/transactions (+ /scores/transactions): the ledger in id order,
 * for one customer or the whole Company environment. Campaign names are the
 * current ones, in the Accept-Language language (score transactions are
 * multi-language content, common rule 7); `include=historical` shows them as
 * they were recorded (the contract: values are historical).
 */
import { invalidRequest } from '../http/errors.js';
import { parseJson } from '../http/json.js';
import { localize } from '../http/language.js';
import { optionalInstant, optionalInt64, readPage } from '../http/params.js';
import type { TallyRequest } from '../http/types.js';
import { wireInt } from '../http/wire.js';
import type { CampaignStore } from '../campaigns/store.js';
import type { CartStore } from '../carts/store.js';
import type { CustomerStore } from '../customers/store.js';
import { findCustomer } from '../customers/lookup.js';
import { paginate } from '../store/paginate.js';
import type { StoreEnv } from '../store/env.js';
import { idFromKey, tenantPrefix } from '../store/keys.js';
import { getTransaction, settleIfDue, transactionIndex } from './ledger.js';
import { clockOf } from './request.js';
import { activityOrigin, POINTS_TRANSACTION_TYPES, type PointsTransaction } from './types.js';

const INCLUDE = ['historical'];

/** The transaction's origin_info as JSON text: stored, or the answer of the cart it names (`origin_cart`). */
function originText(carts: CartStore, tenant: TallyRequest['tenant'], tx: PointsTransaction): string {
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

export async function listTransactions(env: StoreEnv, stores: { customers: CustomerStore; campaigns: CampaignStore; carts: CartStore }, req: TallyRequest) {
  const { customers, campaigns, carts } = stores;
  const q = req.query;
  const include = q.get('include');
  if (include && !include.split(',').every((v) => INCLUDE.includes(v))) throw invalidRequest('include', `must be ${INCLUDE.join(', ')}`);
  const historical = include !== null && include.split(',').includes('historical');
  const given = ['customer_id', 'customer_code', 'associate_id'].filter((f) => q.get(f));
  if (given.length > 1) throw invalidRequest(given[1], `is exclusive with ${given[0]}`);
  const createdAfter = optionalInstant(q.get('created_at_gt'), 'created_at_gt');
  const originType = q.get('origin_type') || undefined;
  if (originType !== undefined && !(POINTS_TRANSACTION_TYPES as readonly string[]).includes(originType)) {
    throw invalidRequest('origin_type', `must be one of ${POINTS_TRANSACTION_TYPES.join(', ')}`);
  }
  const page = readPage(q);
  const names = new Map<string, string | null>();
  const name = (id: string | null, stored: string | null): string | null => {
    if (historical || id === null) return stored;
    if (!names.has(id)) {
      const campaign = campaigns.get(req.tenant, id);
      names.set(id, campaign ? localize(campaign.texts.name ?? String(campaign.rule_params.name ?? ''), req.language, req.settings) : stored);
    }
    return names.get(id)!;
  };
  const keep = (tx: PointsTransaction | undefined) => {
    if (!tx) return undefined;
    if (originType !== undefined && tx.type !== originType) return undefined;
    if (createdAfter !== undefined && !(Date.parse(tx.created_at) > createdAfter)) return undefined;
    return transactionView(tx, originText(carts, req.tenant, tx), name);
  };
  const prefix = tenantPrefix(req.tenant);
  if (given.length === 0) return paginate<PointsTransaction, unknown>(env.db('points_transactions'), [prefix], page, keep);
  const field = given[0];
  const value = q.get(field)!;
  // associate_id: the transactions a merge moved from that (former) customer.
  const customerId =
    field === 'customer_code'
      ? findCustomer(customers, req.tenant, 'code', value, field).id
      : field === 'customer_id'
        ? findCustomer(customers, req.tenant, 'id', optionalInt64(value, field)!, field).id
        : optionalInt64(value, field)!;
  if (field !== 'associate_id') await settleIfDue(env, req.tenant, customerId, customers.get(req.tenant, customerId)?.code ?? null, clockOf(req));
  const index = transactionIndex(env, req.tenant, field === 'associate_id' ? 'associate' : 'customer', customerId);
  return paginate<string, unknown>(index.db, index.prefix, page, (_type, key) => keep(getTransaction(env, req.tenant, idFromKey(String(key[2])))));
}
