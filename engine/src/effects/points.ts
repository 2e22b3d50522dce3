/**
 * A points campaign: points on the line totals after discounts and cashback.
 * ratio = points per currency unit, rounded towards zero exactly; direct_value
 * = fixed points (per unit for individual_items, once otherwise). One award
 * (an effect on a line, or on the cart) is at most MAX_POINTS, more is cut to
 * it, so every score is a safe integer whatever the cart's total or quantity.
 * Points on a line are a multiple of its integer quantity.
 */
import { Decimal } from 'decimal.js';
import type { CompiledCampaign, CompiledEffect } from '../compile/program.js';
import type { Effect } from '../types.js';
import type { LineState } from '../evaluate/cartInput.js';
import { admit, commit, type Admission } from '../evaluate/admission.js';
import { isIdentified } from '../evaluate/contextInput.js';
import type { Run } from '../evaluate/run.js';
import { MAX_POINTS, pointsFor, pointsToCents, toMoney } from '../money.js';
import { coveredCents, coveredUnits } from './units.js';

export function applyPointsCampaign(run: Run, campaign: CompiledCampaign): void {
  const admission = admit(run, campaign);
  if (admission === null) return;
  const { lines } = run.input;
  const { pointValue, pointValueCents } = run.program.settings;
  const selected = campaign.application.selectLines(run.facts);
  // Most campaigns select no line of a given cart: effects on the selected lines then earn nothing.
  if (!selected.includes(true) && campaign.effects.every(earnsOnSelectedLines)) return;
  const eligible = lines.map((line, i) => selected[i] && line.current > 0);
  // A points campaign's budget and per-cart cap are counted in the money value of its points.
  let budgetLeft = Math.min(admission.budgetLeft ?? Infinity, campaign.maxTransactionCents ?? Infinity);
  let spentCents = 0;
  const earned = campaign.availability ? campaign.availability(run.created, run.program.settings.formatter) : { from: run.created.date, to: null };
  for (const effect of campaign.effects) {
    const awards = effect.distribution === 'individual_items' ? perLine(effect, lines, eligible) : onCart(effect, lines, eligible);
    for (const award of awards) {
      let points = award.points;
      let cents = pointsToCents(points, pointValue, pointValueCents);
      if (cents > budgetLeft) {
        points = roundToUnits(pointsWithin(budgetLeft, run), award.line);
        cents = pointsToCents(points, pointValue, pointValueCents);
      }
      if (points <= 0) continue;
      budgetLeft -= cents;
      spentCents += cents;
      awardPoints(run, campaign, effect, earned, award.line, points, cents, admission.coupon);
      if (admission.coupon) run.scoreCoupon += points;
    }
  }
  if (spentCents > 0) commit(run, campaign, admission, spentCents);
}

/** Whether an effect earns only on selected lines: all but a ratio on the whole cart (total_cart). */
function earnsOnSelectedLines(effect: CompiledEffect): boolean {
  return effect.distribution !== 'total_cart' || effect.type === 'direct_value';
}

interface Award {
  line: LineState | null;
  points: number;
}

function perLine(effect: CompiledEffect, lines: readonly LineState[], eligible: readonly boolean[]): Award[] {
  const units = coveredUnits(lines, eligible, effect.limits);
  const awards: Award[] = [];
  lines.forEach((line, i) => {
    if (units[i] <= 0) return;
    const raw = effect.type === 'ratio' ? pointsFor(coveredCents(line, units[i]), effect.rate, effect.rateInt) : effect.amount * units[i];
    awards.push({ line, points: roundToUnits(Math.min(raw, MAX_POINTS), line) });
  });
  return awards;
}

/** total: on the applied lines' total (up to `limits` units); total_cart: on the whole cart. Reported on line -1. */
function onCart(effect: CompiledEffect, lines: readonly LineState[], eligible: readonly boolean[]): Award[] {
  if (effect.type === 'direct_value') return eligible.some(Boolean) ? [{ line: null, points: Math.min(effect.amount, MAX_POINTS) }] : [];
  let cents = 0;
  if (effect.distribution === 'total_cart') {
    for (const line of lines) if (line.current > 0) cents += line.current;
  } else {
    const units = coveredUnits(lines, eligible, effect.limits);
    lines.forEach((line, i) => {
      if (units[i] > 0) cents += coveredCents(line, units[i]);
    });
  }
  return [{ line: null, points: Math.min(pointsFor(cents, effect.rate, effect.rateInt), MAX_POINTS) }];
}

/** Points on a line are divisible by its integer quantity. */
function roundToUnits(points: number, line: LineState | null): number {
  if (line === null || line.units === null || line.units <= 1) return points;
  return points - (points % line.units);
}

/** The most points whose money value fits in `cents`. */
function pointsWithin(cents: number, run: Run): number {
  return Math.max(0, new Decimal(cents).div(run.program.settings.pointValue.times(100)).floor().toNumber());
}

function awardPoints(
  run: Run,
  campaign: CompiledCampaign,
  effect: CompiledEffect,
  earned: { from: string; to: string | null },
  line: LineState | null,
  points: number,
  cents: number,
  coupon: Admission['coupon'],
): void {
  const lineOrder = line === null ? -1 : line.order;
  const applied: Effect = {
    rule_id: campaign.rawId,
    rule_name: campaign.name,
    type: 'points',
    effect_type: effect.type,
    distribution_type: effect.distribution,
    select_customers: campaign.targeting.selectCustomers,
    line: lineOrder,
    value: points,
    value_as_money: toMoney(cents),
    available_from: earned.from,
    available_to: earned.to,
  };
  // Points earned through a voucher or a static code name it, as a discount's effect does.
  if (coupon) applied.coupon_info = coupon.info;
  run.effects.push(applied);
  run.scores.push({ line_order: lineOrder, score: points, loyalty_score_id: campaign.rawId, available_from: earned.from, available_to: earned.to });
  run.scoreEarned += points;
  // Counted as the ledger settles them on the evaluation's day, not the cart's: a back-dated cart's points
  // may be available already, or expired; a future-dated cart's are pending until their day.
  if (earned.to !== null && earned.to < run.now.date) run.scoreEarnedExpired += points;
  else if (earned.from <= run.now.date) run.scoreEarnedAvailable += points;
  if (isIdentified(run.context)) {
    run.writes.points.push({
      customer_id: run.context.customer?.id ?? null,
      customer_code: run.context.customer?.code ?? null,
      campaign_id: campaign.rawId,
      amount: points,
      line_order: lineOrder,
      available_from: earned.from,
      available_to: earned.to,
    });
  }
}
