/**
 * GET /points/transactions (+ /scores/transactions): the ledger in id order,
 * for one customer or the whole Company environment. Campaign names are the
 * current ones, in the Accept-Language language (score transactions are
 * multi-language content, common rule 7); `include=historical` shows them as
 * they were recorded (the contract: values are historical).
 */
import { invalidRequest } from '../http/errors.js';
import { localize } from '../http/language.js';
import { atMostOne, optionalInstant, optionalInt64, readPage } from '../http/params.js';
import type { TallyRequest } from '../http/types.js';
import type { CampaignStore } from '../campaigns/store.js';
import type { CartStore } from '../carts/store.js';
import type { CustomerStore } from '../customers/store.js';
import { findCustomer } from '../customers/lookup.js';
import { paginate } from '../store/paginate.js';
import type { StoreEnv } from '../store/env.js';
import { idFromKey, tenantPrefix } from '../store/keys.js';
import { getTransaction, settleIfDue, transactionIndex } from './ledger.js';
import { clockOf } from './request.js';
import { originText, transactionView } from './transaction-view.js';
import { POINTS_TRANSACTION_TYPES, type PointsTransaction } from './types.js';

const INCLUDE = ['historical'];

/** Transactions as the ledger list answers them: campaign names current, in the request's language, unless `historical`. */
export function transactionViews(stores: { campaigns: CampaignStore; carts: CartStore }, req: TallyRequest, historical: boolean) {
  const names = new Map<string, string | null>();
  const name = (id: string | null, stored: string | null): string | null => {
    if (historical || id === null) return stored;
    if (!names.has(id)) {
      const campaign = stores.campaigns.get(req.tenant, id);
      names.set(id, campaign ? localize(campaign.texts.name ?? String(campaign.rule_params.name ?? ''), req.language, req.settings) : stored);
    }
    return names.get(id)!;
  };
  return (tx: PointsTransaction) => transactionView(tx, originText(stores.carts, req.tenant, tx), name);
}

export async function listTransactions(env: StoreEnv, stores: { customers: CustomerStore; campaigns: CampaignStore; carts: CartStore }, req: TallyRequest) {
  const { customers, campaigns, carts } = stores;
  const q = req.query;
  const include = q.get('include');
  if (include && !include.split(',').every((v) => INCLUDE.includes(v))) throw invalidRequest('include', `must be ${INCLUDE.join(', ')}`);
  const historical = include !== null && include.split(',').includes('historical');
  const field = atMostOne(['customer_id', 'customer_code', 'associate_id'] as const, (name) => Boolean(q.get(name)));
  const createdAfter = optionalInstant(q.get('created_at_gt'), 'created_at_gt', req.settings.timezone);
  const originType = q.get('origin_type') || undefined;
  if (originType !== undefined && !(POINTS_TRANSACTION_TYPES as readonly string[]).includes(originType)) {
    throw invalidRequest('origin_type', `must be one of ${POINTS_TRANSACTION_TYPES.join(', ')}`);
  }
  const page = readPage(q);
  const view = transactionViews({ campaigns, carts }, req, historical);
  const keep = (tx: PointsTransaction | undefined) => {
    if (!tx) return undefined;
    if (originType !== undefined && tx.type !== originType) return undefined;
    if (createdAfter !== undefined && !(Date.parse(tx.created_at) > createdAfter)) return undefined;
    return view(tx);
  };
  const prefix = tenantPrefix(req.tenant);
  if (field === undefined) return paginate<PointsTransaction, unknown>(env.db('points_transactions'), [prefix], page, keep);
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
