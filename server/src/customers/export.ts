/**
 * GET /customers/{value}/export (Tally extension: the data subject's right of
 * access and portability, GDPR Art. 15 and 20; docs/customers.md "Export").
 * One document: the customer as GET /customers/{value} answers it and every
 * record the customer holds, each as its own read or list answers it (the
 * resources' own view functions). Long lists are cut at EXPORT_PAGE records:
 * such a section is the first page of its list, and its
 * next_token_starts_after goes on in that paginated list. Reads only: the
 * points ledger is exported as stored (not settled first, as its reads do).
 */
import type { ServerContext } from '../context.js';
import { AssociationStore } from '../associations/store.js';
import { associationView } from '../associations/view.js';
import { auditEntryView, pageOfEntries } from '../audit/log.js';
import { LmdbCampaignStore } from '../campaigns/store.js';
import { cartReadBody } from '../carts/present.js';
import { CartStore } from '../carts/store.js';
import { ChallengeStore } from '../challenges/store.js';
import { customerChallengeView } from '../challenges/view.js';
import { CouponStore } from '../coupons/store.js';
import { CustomEventStore } from '../custom-events/store.js';
import { customEventView } from '../custom-events/view.js';
import { GameStore } from '../games/store.js';
import { requireEnum } from '../http/params.js';
import { ok, type Reply, type TallyRequest } from '../http/types.js';
import { wireDatetime } from '../http/wire.js';
import { balanceOfCustomer, pointsView } from '../points/balance.js';
import { getTransaction, transactionIndex } from '../points/ledger.js';
import { transactionViews } from '../points/transactions.js';
import { RewardStore } from '../rewards/store.js';
import { redemptionView } from '../rewards/view.js';
import { paginate } from '../store/paginate.js';
import { idFromKey } from '../store/keys.js';
import { customerTiers } from '../tiers/customer-tier.js';
import { TierStore } from '../tiers/store.js';
import { withCoupon } from '../vouchers/find.js';
import { voucherView } from '../vouchers/present.js';
import { LmdbVoucherStore } from '../vouchers/store.js';
import { discountTransactionView, DiscountTransactionStore } from '../vouchers/transactions.js';
import { listCards } from './cards.js';
import { customerNotFound, resolveId } from './lookup.js';
import { SEARCH_PARAMS } from './read.js';
import type { CustomerStore } from './store.js';
import { customerView } from './view.js';

/** Records per list section (Tally's limit, docs/customers.md): the rest is read from the section's paginated list. */
const EXPORT_PAGE = 1000;

export function exportCustomer({ env }: ServerContext, customers: CustomerStore) {
  const carts = new CartStore(env);
  const campaigns = new LmdbCampaignStore(env);
  const vouchers = new LmdbVoucherStore(env);
  const voucherStores = { env, vouchers, coupons: new CouponStore(env, campaigns) };
  const discountTransactions = new DiscountTransactionStore(env);
  const rewards = new RewardStore(env);
  const challenges = new ChallengeStore(env);
  const tiers = new TierStore(env);
  const associations = new AssociationStore(env);
  const events = new CustomEventStore(env);
  const games = new GameStore(env);
  const first = { perPage: EXPORT_PAGE };

  return async (req: TallyRequest): Promise<Reply> => {
    const by = requireEnum(req.query.get('search_param'), 'search_param', SEARCH_PARAMS);
    const id = resolveId(customers, req.tenant, by, req.params.value, 'value');
    // A soft-deleted customer is exported too (by id: its code, dni and email are gone): what remains of it.
    const customer = id === undefined ? undefined : customers.get(req.tenant, id);
    if (!customer) throw customerNotFound('value', req.params.value);
    const { tenant } = req;
    const now = wireDatetime(req.now);
    const ledger = transactionIndex(env, tenant, 'customer', customer.id);
    const transactionView = transactionViews({ campaigns, carts }, req, false);
    const target = `customer:${customer.id}`;
    const cartPage = carts.pageOfCustomer(tenant, customer.id, first, () => true);
    return ok({
      exported_at: now,
      customer: customerView(customer, true),
      carts: { ...cartPage, data: cartPage.data.map(cartReadBody) },
      points: pointsView(balanceOfCustomer(env, req, customer), customer, req.settings),
      points_transactions: paginate<string, unknown>(ledger.db, ledger.prefix, first, (_type, key) => {
        const tx = getTransaction(env, tenant, idFromKey(String(key[2])));
        return tx && transactionView(tx);
      }),
      vouchers: vouchers.pageOfCustomer(tenant, customer.id, first, (voucher) =>
        voucherView(withCoupon(voucherStores, tenant, voucher), { language: req.language, settings: req.settings, now })),
      discount_transactions: discountTransactions.page(tenant, customer.id, first, discountTransactionView),
      reward_redemptions: rewards.page(tenant, { customer_id: customer.id }, first, redemptionView),
      challenges: [...new Set(challenges.held(tenant, 'progress', customer.id).map((record) => record.part))].flatMap((challengeId) => {
        const challenge = challenges.get(tenant, challengeId);
        return challenge ? [customerChallengeView(challenge, customer, { env, tenant, language: req.language, settings: req.settings, now: req.now, challenges })] : [];
      }),
      tiers: customerTiers(tiers, req, customer),
      // Both sides: as the customer (GET /customers/{id}/associates) and as the associate (a merged customer's merge association).
      associations: [...associations.ofCustomer(tenant, customer.id), ...associations.asAssociate(tenant, customer.id)].map(associationView),
      cards: listCards(env, tenant, customer.id),
      custom_events: events.page(tenant, customer.id, first, customEventView),
      game_deliveries: games.assignmentsOf(tenant, customer.id),
      audit_log: pageOfEntries(env, tenant, { target }, first, auditEntryView),
      audit_log_mentions: pageOfEntries(env, tenant, { mentioning: customer.id }, first, auditEntryView),
    });
  };
}
