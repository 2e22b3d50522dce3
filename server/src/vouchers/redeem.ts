/**
 * POST /discounts/redeem: a discount given outside a cart evaluation, against
 * a voucher (by its code) or a coupon's static code. Runs inside one write
 * transaction: the voucher is read and checked again there, so two
 * concurrent redemptions never use one redemption twice. The discount is
 * added to the campaign's budget of the current period, and the redemption
 * to the customer's uses of its once limit.
 */
import { couponDatesRefusal, onceLimitOf, periodKey, TallyError } from '@tally/engine';
import type { CampaignStore } from '../campaigns/store.js';
import type { CampaignRecord } from '../campaigns/types.js';
import { customerCounterKey } from '../carts/context.js';
import type { CartStore } from '../carts/store.js';
import type { CounterStore } from '../counters/store.js';
import type { CustomerRecord } from '../customers/types.js';
import type { StoreEnv } from '../store/env.js';
import { allocateId } from '../store/ids.js';
import type { CompanySettings, Tenant } from '../tenancy/types.js';
import type { DiscountsRedeem } from '../wire/types.js';
import { campaignDatesRefusal, inactiveReason, voucherRefusal } from './status.js';
import type { VoucherStore } from './store.js';
import type { DiscountTransaction, DiscountTransactionStore } from './transactions.js';
import type { VoucherRecord } from './types.js';
import { raiseVoucherEvent } from './events.js';
import { afterUse } from './use.js';
import { wireDatetime } from '../http/wire.js';

export interface RedeemStores {
  env: StoreEnv;
  campaigns: CampaignStore;
  vouchers: VoucherStore;
  counters: CounterStore;
  transactions: DiscountTransactionStore;
  carts: CartStore;
}

export interface Redemption {
  campaign: CampaignRecord;
  /** null when a static code was redeemed without a voucher of the customer's. */
  voucher: VoucherRecord | null;
  transaction: DiscountTransaction;
}

function notFound(field: string, value: string): TallyError {
  return new TallyError('voucher_not_found', `${field}: no voucher ${value} for this customer`, field);
}

/** Call inside `env.transact`. */
export function redeemInTransaction(
  stores: RedeemStores,
  tenant: Tenant,
  settings: CompanySettings,
  customer: CustomerRecord,
  body: DiscountsRedeem,
  now: Date,
): Redemption {
  const at = wireDatetime(now);
  const { campaign, voucher } = body.voucher_code !== undefined
    ? byVoucherCode(stores, tenant, settings, customer, body.voucher_code, at)
    : byStaticCode(stores, tenant, settings, customer, body.static_code!, at);
  if (voucher) {
    stores.vouchers.putInTransaction(tenant, afterUse(voucher));
    raiseVoucherEvent(stores.env, tenant, settings, now, 'voucher.redeemed', voucher.id);
  }
  if (campaign.rule_params.budget_value !== undefined) {
    const key = periodKey(campaign.rule_params.budget_period, at, settings.timezone);
    stores.counters.addBudgetInTransaction(tenant, campaign.id, key, body.discount);
  }
  // A use of the customer's once limit too, as a cart counts it (not refused by it either), so carts stop applying it.
  const once = onceLimitOf(campaign.rule_params);
  if (once) {
    const key = periodKey(once.period, at, settings.timezone);
    stores.counters.addUsesInTransaction(tenant, campaign.id, key, customerCounterKey({ id: customer.id, code: customer.code ?? null })!, 1);
  }
  const transaction: DiscountTransaction = {
    id: allocateId(stores.env, tenant, 'discount_transactions'),
    created_at: at,
    amount_cents: body.discount,
    customer_id: customer.id,
    customer_code: customer.code ?? null,
    // A cart code names the cart Tally stored under it; an unknown one (an external till's) is kept as a code only.
    activity_id: body.cart_id ?? (body.cart_code === undefined ? null : (stores.carts.idOfCode(tenant, body.cart_code) ?? null)),
    activity_code: body.cart_code ?? null,
    campaign_id: campaign.id,
    voucher_id: voucher?.id ?? null,
    voucher_code: voucher?.code ?? body.static_code!,
  };
  stores.transactions.putInTransaction(tenant, transaction);
  return { campaign, voucher, transaction };
}

function discountCampaign(stores: RedeemStores, tenant: Tenant, id: string | undefined): CampaignRecord | undefined {
  const campaign = id === undefined ? undefined : stores.campaigns.get(tenant, id);
  return campaign?.type === 'discount' ? campaign : undefined;
}

/** Whether the voucher's coupon is no longer its campaign's (deleted). */
const ofDeletedCoupon = (voucher: VoucherRecord, campaign: CampaignRecord) => voucher.coupon_id !== campaign.coupon_id;

function refuseUnusable(voucher: VoucherRecord, campaign: CampaignRecord, at: string, timezone: string): void {
  const refusal = voucherRefusal(voucher, at, timezone, {
    inactive: inactiveReason(campaign, campaign.coupon_params),
    campaignDates: campaignDatesRefusal(campaign, at, timezone),
    deleted: ofDeletedCoupon(voucher, campaign),
  });
  if (refusal) throw refusal;
}

function byVoucherCode(stores: RedeemStores, tenant: Tenant, settings: CompanySettings, customer: CustomerRecord, code: string, at: string) {
  const voucher = stores.vouchers.byCode(tenant, code);
  const campaign = discountCampaign(stores, tenant, voucher?.campaign_id);
  if (!voucher || !campaign || voucher.customer_id !== customer.id) throw notFound('voucher_code', code);
  refuseUnusable(voucher, campaign, at, settings.timezone);
  return { campaign, voucher };
}

/**
 * The customer's voucher of the coupon that expires first; the static code
 * itself when they hold none usable (not for targeted campaigns), within the
 * coupon's own dates as carts take them (the Company's days).
 */
function byStaticCode(stores: RedeemStores, tenant: Tenant, settings: CompanySettings, customer: CustomerRecord, code: string, at: string) {
  const campaign = stores.campaigns.byStaticCode(tenant, code);
  if (!campaign || campaign.type !== 'discount') throw notFound('static_code', code);
  const held = stores.vouchers
    .ofCustomer(tenant, customer.id)
    .filter((voucher) => voucher.campaign_id === campaign.id)
    .sort((a, b) => expiry(a) - expiry(b));
  const usable = held.find((voucher) => voucherRefusal(voucher, at, settings.timezone, { inactive: null, campaignDates: null, deleted: ofDeletedCoupon(voucher, campaign) }) === null);
  if (usable) {
    refuseUnusable(usable, campaign, at, settings.timezone);
    return { campaign, voucher: usable };
  }
  if (campaign.rule_params.select_customers === 'targeted') {
    if (held.length > 0) refuseUnusable(held[0], campaign, at, settings.timezone);
    throw notFound('static_code', code);
  }
  const inactive = inactiveReason(campaign, campaign.coupon_params);
  if (inactive !== null) throw new TallyError('voucher_inactive', `static_code ${code}: ${inactive}`);
  const outside = couponDatesRefusal(campaign.coupon_params ?? {}, at, settings.timezone);
  if (outside === 'voucher_out_date') throw new TallyError(outside, `static_code ${code}: the coupon is available from ${campaign.coupon_params?.available_from}`);
  if (outside === 'voucher_expired') throw new TallyError(outside, `static_code ${code}: the coupon expired at ${campaign.coupon_params?.available_to}`);
  const campaignDates = campaignDatesRefusal(campaign, at, settings.timezone);
  if (campaignDates) throw new TallyError(campaignDates.code, `static_code ${code}: ${campaignDates.message}`);
  return { campaign, voucher: null };
}

function expiry(voucher: VoucherRecord): number {
  return voucher.available_to === null ? Infinity : Date.parse(voucher.available_to);
}
