/** POST /discounts/redeem, GET /discounts/transactions, POST /discounts/trigger. */
import { toMoney } from '@tally/engine';
import { auditMention, auditTarget } from '../audit/context.js';
import type { ServerContext } from '../context.js';
import { LmdbCampaignStore } from '../campaigns/store.js';
import { CartStore } from '../carts/store.js';
import { LmdbCounterStore } from '../counters/store.js';
import { CustomerStore } from '../customers/store.js';
import { exactlyOne, readPage } from '../http/params.js';
import { localize } from '../http/language.js';
import { ok, success, type Routes, type TallyRequest } from '../http/types.js';
import { validate } from '../http/validation.js';
import { wireInt } from '../http/wire.js';
import { InstantWinStore } from '../instant-wins/store.js';
import { customerNamedBy, requireStillActive, requireUnmerged } from '../points/request.js';
import { customerOfQuery, requireCustomer, UNKNOWN_HOLDER } from './customer.js';
import { redeemInTransaction, type Redemption } from './redeem.js';
import { LmdbVoucherStore } from './store.js';
import { discountTransactionView, DiscountTransactionStore } from './transactions.js';
import { issueInTransaction, triggerTarget } from './trigger.js';

/** The effect answered by POST /discounts/redeem, names in the request's language (common rule 7). */
function redemptionEffect({ campaign, voucher, transaction }: Redemption, req: TallyRequest) {
  const coupon = campaign.coupon_params;
  const couponName = campaign.texts.coupon_name ?? coupon?.name;
  return {
    rule_id: wireInt(campaign.id),
    campaign_history_id: campaign.history_id === undefined ? null : wireInt(campaign.history_id),
    rule_name: localize(campaign.texts.name ?? campaign.rule_params.name ?? '', req.language, req.settings),
    type: 'discount',
    effect_type: 'external_redeem',
    distribution_type: 'total',
    line: -1,
    value: transaction.amount_cents,
    value_as_money: toMoney(transaction.amount_cents),
    select_customers: campaign.rule_params.select_customers ?? 'all_customers',
    coupon_info: {
      voucher_id: voucher ? wireInt(voucher.id) : null,
      voucher_code: voucher?.code ?? null,
      coupon_id: campaign.coupon_id === undefined ? null : wireInt(campaign.coupon_id),
      coupon_name: couponName === undefined ? null : localize(couponName, req.language, req.settings),
      static_code: coupon?.static_code ?? null,
    },
  };
}

export function voucherRoutes({ env, duplicates }: ServerContext): Routes {
  const campaigns = new LmdbCampaignStore(env);
  const instantWins = new InstantWinStore(env);
  const vouchers = new LmdbVoucherStore(env);
  const customers = new CustomerStore(env);
  const transactions = new DiscountTransactionStore(env);
  const stores = { env, campaigns, vouchers, counters: new LmdbCounterStore(env), transactions, carts: new CartStore(env) };

  return {
    'discounts.redeem': async (req) => {
      const body = validate('discounts.redeem', req.body);
      // Each pair is listed as required by the contract: exactly one of the two.
      const sent = (field: keyof typeof body) => body[field] !== undefined;
      exactlyOne(['voucher_code', 'static_code'], sent);
      exactlyOne(['customer_id', 'customer_code'], sent);
      exactlyOne(['cart_id', 'cart_code'], sent);
      // No duplicate suppression: each call is one more use (docs/decisions.md); Idempotency-Key makes a retry safe.
      // A voucher operation: an unknown customer is voucher_not_found (part 1's table).
      const customer = requireCustomer(customers, req.tenant, body, UNKNOWN_HOLDER);
      auditMention(req, customer.id);
      const redemption = await env.transact(() => {
        // Read in the transaction: a merge committed since the lookup moved the customer's vouchers and redemptions.
        requireUnmerged(customers, req.tenant, customer.id, customerNamedBy(body), UNKNOWN_HOLDER);
        return redeemInTransaction(stores, req.tenant, req.settings, customer, body, req.now);
      });
      return ok(redemptionEffect(redemption, req));
    },

    'discounts.transactions': async (req) => {
      const customer = customerOfQuery(customers, req.tenant, req.query);
      const page = readPage(req.query);
      return ok(
        transactions.page(req.tenant, customer?.id, page, discountTransactionView),
      );
    },

    'discounts.trigger': async (req) => {
      const body = validate('discounts.trigger', req.body);
      const { campaignId } = triggerTarget({ campaigns, instantWins }, req.tenant, req.settings, body, req.now);
      const customer = requireCustomer(customers, req.tenant, { customer_id: body.customer_id });
      auditMention(req, customer.id);
      return duplicates.suppress(req, `voucher_issue:${body.customer_id}:${campaignId}`, async () => {
        const voucher = await env.transact(() => {
          // Vouchers go to active customers only, as the transaction reads them: a merge committing meanwhile is seen.
          requireStillActive(customers, req.tenant, customer.id, { field: 'customer_id', value: body.customer_id });
          // The coupon read again: one deleted (or changed) since the lookup issues nothing (or issues on its new terms).
          const target = triggerTarget({ campaigns, instantWins }, req.tenant, req.settings, body, req.now);
          const issued = issueInTransaction(env, vouchers, req.tenant, req.settings, target, body, req.now);
          // Named by its code, as the voucher operations' paths name it: one target for the voucher's history.
          auditTarget(req, `voucher:${issued.code}`);
          return issued;
        });
        return success({ voucher_id: wireInt(voucher.id), voucher_code: voucher.code });
      });
    },
  };
}
