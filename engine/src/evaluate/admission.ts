/**
 * Whether a campaign may act on this cart: targeting, coupon, conditions,
 * `once` limit and budget, in that order. A refusal is data: limits and
 * budgets always land in rejected_campaigns with a reason; other refusals do
 * when the cart named the campaign's coupon (the customer asked for it).
 */
import type { CompiledCampaign } from '../compile/program.js';
import { outsideWindow } from '../time/dateWindow.js';
import { periodKeyOf } from '../time/periodKey.js';
import { couponInfo, type CouponUse } from './coupons.js';
import { isIdentified } from './contextInput.js';
import type { Run } from './run.js';
import { targetingRefusal } from './targeting.js';

export interface Admission {
  coupon: CouponUse | null;
  /** Budget left in the sale's period, in cents; null when the campaign has no budget. */
  budgetLeft: number | null;
}

export function admit(run: Run, campaign: CompiledCampaign): Admission | null {
  const refusal = targetingRefusal(run, campaign);
  if (refusal !== null) return refuse(run, campaign, refusal, false);
  const targeted = campaign.targeting.selectCustomers === 'targeted';
  // Only a campaign that needs a coupon uses (and consumes) one.
  const coupon = targeted || campaign.couponRequired ? run.coupons.couponFor(campaign) : null;
  if (targeted && !coupon?.voucher) return refuse(run, campaign, 'the customer does not hold this campaign\'s voucher', false);
  if (campaign.couponRequired && !coupon) return refuse(run, campaign, 'a coupon is required', false);
  // A voucher carries its own dates (the caller passes only usable ones); a static code has the coupon's.
  if (coupon && !coupon.voucher && campaign.couponDates) {
    const outside = outsideWindow(campaign.couponDates, run.input.createdAt, run.created.date);
    if (outside === 'before') return refuse(run, campaign, 'voucher_out_date: the coupon is not available yet at the cart date', false);
    if (outside === 'after') return refuse(run, campaign, 'voucher_expired: the coupon has expired at the cart date', false);
  }
  if (!campaign.conditions.test(run.facts)) return refuse(run, campaign, 'the cart does not meet the rule conditions', false);
  if (campaign.once) {
    if (!isIdentified(run.context)) return refuse(run, campaign, 'once_limit: the campaign is limited per customer and the cart has no customer', true);
    const uses = run.context.counters[campaign.id]?.uses ?? 0;
    if (uses >= campaign.once.limit) return refuse(run, campaign, `once_limit: reached (${uses} of ${campaign.once.limit})`, true);
  }
  let budgetLeft: number | null = null;
  if (campaign.budget) {
    budgetLeft = campaign.budget.cents - (run.context.counters[campaign.id]?.budget_spent_cents ?? 0);
    if (budgetLeft <= 0) return refuse(run, campaign, 'budget: exhausted for the current period', true);
  }
  return { coupon, budgetLeft };
}

/** Records what the caller must persist once the campaign has acted: limit use, budget, voucher. */
export function commit(run: Run, campaign: CompiledCampaign, admission: Admission, spentCents: number): void {
  const { writes, context } = run;
  const customer_id = context.customer?.id ?? null;
  const customer_code = context.customer?.code ?? null;
  if (campaign.once) {
    writes.limits.push({
      campaign_id: campaign.rawId,
      customer_id,
      customer_code,
      period: campaign.once.period,
      period_key: periodKeyOf(campaign.once.period, run.counted),
      increment: 1,
      limit: campaign.once.limit,
    });
  }
  if (campaign.budget && spentCents > 0) {
    writes.budgets.push({
      campaign_id: campaign.rawId,
      period: campaign.budget.period,
      period_key: periodKeyOf(campaign.budget.period, run.counted),
      amount_cents: spentCents,
      budget_cents: campaign.budget.cents,
    });
  }
  const coupon = admission.coupon;
  if (coupon) {
    writes.vouchers_used.push({
      campaign_id: campaign.rawId,
      voucher_code: coupon.voucher?.code ?? coupon.staticCode ?? '',
      voucher_id: coupon.voucher?.voucher_id ?? null,
      static_code: coupon.voucher === null,
    });
  }
}

function refuse(run: Run, campaign: CompiledCampaign, error: string, always: boolean): null {
  if (always || run.coupons.listed.has(campaign.id)) {
    const coupon = run.coupons.couponFor(campaign);
    run.rejected.push({
      rule_id: campaign.rawId,
      rule_name: campaign.name,
      type: campaign.type,
      error,
      coupon_info: coupon ? coupon.info : campaign.staticCode !== null ? couponInfo(campaign, null, null) : null,
    });
  }
  return null;
}
