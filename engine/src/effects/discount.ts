/**
 * A discount campaign acting on the cart: each of its effects computes cents
 * per line, capped by the cart cap (maximum_budget_transaction) and the budget
 * left, then the lines are adjusted. No line goes below zero.
 */
import type { CompiledCampaign, CompiledEffect } from '../compile/program.js';
import { admit, commit, type Admission } from '../evaluate/admission.js';
import type { Run } from '../evaluate/run.js';
import { toMoney } from '../money.js';
import { comboPrice } from './comboPrice.js';
import { DISCOUNT_TYPES } from './discountTypes/index.js';
import { DISTRIBUTIONS, type Allocation } from './distributions/index.js';
import { fillInOrder, sum } from './split.js';

export function applyDiscountCampaign(run: Run, campaign: CompiledCampaign): void {
  const admission = admit(run, campaign);
  if (admission === null) return;
  const { lines } = run.input;
  const exclusive = campaign.stackability === 'exclusive';
  const available = lines.map((line) => !line.locked && !(exclusive && line.touched));
  const selected = campaign.application.selectLines(run.facts);
  const eligible = available.map((ok, i) => ok && selected[i]);
  let capLeft = Math.min(campaign.maxTransactionCents ?? Infinity, admission.budgetLeft ?? Infinity);
  let spent = 0;
  const acted = new Array<boolean>(lines.length).fill(false);
  for (const effect of campaign.effects) {
    const allocation = allocate(run, campaign, effect, available, eligible);
    let perLine = allocation.perLine;
    if (sum(perLine) > capLeft) perLine = fillInOrder(capLeft, perLine);
    const cents = sum(perLine);
    if (cents <= 0) continue;
    capLeft -= cents;
    spent += cents;
    perLine.forEach((value, i) => {
      if (value <= 0) return;
      lines[i].current -= value;
      lines[i].discount += value;
      acted[i] = true;
    });
    record(run, campaign, effect, admission, allocation.cartLevel ? [[-1, cents, null]] : perLine.flatMap((value, i) => (value > 0 ? [[lines[i].order, value, i] as const] : [])));
  }
  if (spent === 0) return;
  acted.forEach((done, i) => {
    if (!done) return;
    lines[i].touched = true;
    if (exclusive) lines[i].locked = true;
  });
  if (admission.coupon) run.discountVoucherCents += spent;
  else run.discountPromotionCents += spent;
  commit(run, campaign, admission, spent);
}

function allocate(run: Run, campaign: CompiledCampaign, effect: CompiledEffect, available: boolean[], eligible: boolean[]): Allocation {
  const { lines } = run.input;
  if (effect.type === 'combo_price') {
    return { perLine: comboPrice(effect, lines, available, campaign.application.bundles(run.facts)), cartLevel: false };
  }
  const type = DISCOUNT_TYPES[effect.type as 'percentage' | 'direct_value'];
  return DISTRIBUTIONS[effect.distribution]({ effect, type, lines, available, eligible });
}

/** Effects per line (or one on line -1), and the voucher entries when a coupon was used. */
function record(
  run: Run,
  campaign: CompiledCampaign,
  effect: CompiledEffect,
  admission: Admission,
  parts: readonly (readonly [line: number, cents: number, index: number | null])[],
): void {
  const coupon = admission.coupon;
  for (const [line, cents, index] of parts) {
    run.effects.push({
      rule_id: campaign.rawId,
      rule_name: campaign.name,
      type: 'discount',
      effect_type: effect.type,
      distribution_type: effect.distribution,
      select_customers: campaign.targeting.selectCustomers,
      line,
      value: cents,
      ...(coupon ? { coupon_info: coupon.info } : {}),
    });
    if (coupon) {
      run.vouchers.push({
        voucher_id: coupon.voucher?.voucher_id ?? null,
        voucher_code: coupon.voucher?.code ?? coupon.staticCode ?? '',
        discount: toMoney(cents),
        line_order: line,
        product_id: index === null ? null : (run.input.lines[index].raw.product_id ?? null),
        rule_id: campaign.rawId,
        coupon: campaign.coupon ?? {},
      });
    }
  }
}
