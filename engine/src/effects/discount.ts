/**
 * A discount campaign acting on the cart: each of its effects computes cents
 * per line, capped by the cart cap (maximum_budget_transaction) and the budget
 * left, then the lines are adjusted. No line goes below zero.
 */
import { NO_COUPON } from '../compile/coupon.js';
import type { CompiledCampaign, CompiledEffect } from '../compile/program.js';
import { admit, commit, type Admission } from '../evaluate/admission.js';
import type { Run } from '../evaluate/run.js';
import { toMoney } from '../money.js';
import type { Effect } from '../types.js';
import { comboPrice } from './comboPrice.js';
import { DISCOUNT_TYPES } from './discountTypes/index.js';
import { DISTRIBUTIONS, type Allocation } from './distributions/index.js';
import { fillInOrder, sum } from './split.js';

export function applyDiscountCampaign(run: Run, campaign: CompiledCampaign): void {
  const admission = admit(run, campaign);
  if (admission === null) return;
  const selected = campaign.application.selectLines(run.facts);
  // Most campaigns select no line of a given cart: effects on the selected lines then have nothing to act on.
  if (!selected.includes(true) && campaign.effects.every(actsOnSelectedLines)) return;
  const { lines } = run.input;
  const exclusive = campaign.stackability === 'exclusive';
  const available = lines.map((line) => !line.locked && !(exclusive && line.touched));
  const eligible = available.map((ok, i) => ok && selected[i]);
  let capLeft = Math.min(campaign.maxTransactionCents ?? Infinity, admission.budgetLeft ?? Infinity);
  let spent = 0;
  for (const effect of campaign.effects) {
    const allocation = allocate(run, campaign, effect, available, eligible);
    let perLine = allocation.perLine;
    let cents = sum(perLine);
    if (cents > capLeft) {
      // In whole steps of each line: the cap may leave a few cents unused.
      perLine = fillInOrder(capLeft, perLine, lines);
      cents = sum(perLine);
    }
    if (cents <= 0) continue;
    capLeft -= cents;
    spent += cents;
    perLine.forEach((value, i) => {
      if (value <= 0) return;
      lines[i].current -= value;
      // `available` was fixed before the first effect, so marking now keeps the campaign's own effects stacking.
      lines[i].touched = true;
      if (exclusive) lines[i].locked = true;
    });
    if (allocation.cartLevel) record(run, campaign, effect, admission, -1, cents, null);
    else perLine.forEach((value, i) => value > 0 && record(run, campaign, effect, admission, lines[i].order, value, i));
  }
  if (spent === 0) return;
  if (admission.coupon) run.discountVoucherCents += spent;
  else run.discountPromotionCents += spent;
  commit(run, campaign, admission, spent);
}

/** Whether an effect discounts only lines the application selects (total_cart spreads over the cart, combo_price over its bundles). */
function actsOnSelectedLines(effect: CompiledEffect): boolean {
  return effect.type !== 'combo_price' && effect.distribution !== 'total_cart';
}

function allocate(run: Run, campaign: CompiledCampaign, effect: CompiledEffect, available: boolean[], eligible: boolean[]): Allocation {
  const { lines } = run.input;
  if (effect.type === 'combo_price') {
    return { perLine: comboPrice(effect, lines, available, campaign.application.bundles(run.facts)), cartLevel: false };
  }
  const type = DISCOUNT_TYPES[effect.type as 'percentage' | 'direct_value'];
  return DISTRIBUTIONS[effect.distribution]({ effect, type, lines, available, eligible });
}

/** One effect (a line, or -1), and its voucher entry when a coupon was used. */
function record(
  run: Run,
  campaign: CompiledCampaign,
  effect: CompiledEffect,
  admission: Admission,
  line: number,
  cents: number,
  index: number | null,
): void {
  const coupon = admission.coupon;
  const applied: Effect = {
    rule_id: campaign.rawId,
    rule_name: campaign.name,
    type: 'discount',
    effect_type: effect.type,
    distribution_type: effect.distribution,
    select_customers: campaign.targeting.selectCustomers,
    line,
    value: cents,
  };
  run.effects.push(applied);
  if (!coupon) return;
  applied.coupon_info = coupon.info;
  run.vouchers.push({
    voucher_id: coupon.voucher?.voucher_id ?? null,
    voucher_code: coupon.voucher?.code ?? coupon.staticCode ?? '',
    discount: toMoney(cents),
    line_order: line,
    product_id: index === null ? null : (run.input.lines[index].raw.product_id ?? null),
    rule_id: campaign.rawId,
    coupon: campaign.coupon ?? NO_COUPON,
  });
}
