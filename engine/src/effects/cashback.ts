/**
 * Cashback: points spent as money off the lines, after discounts and before
 * points are earned. Per line at most the cap share of its original_total (and
 * never below zero); spread by line order for cashback_score_desired (-1 = all
 * available), or on the lines the explicit `cashbacks` name. The result is the
 * recommended `cashbacks` array and score_used.
 */
import { Decimal } from 'decimal.js';
import { isIdentified } from '../evaluate/contextInput.js';
import type { LineState } from '../evaluate/cartInput.js';
import type { Run } from '../evaluate/run.js';
import { floorShare, pointsToCents, toMoney } from '../money.js';

export function applyCashback(run: Run): void {
  const { cart, lines, lineByOrder } = run.input;
  const requests = cart.cashbacks
    ? cart.cashbacks.map((c) => ({ line: lineByOrder.get(c.line_order) as LineState, score: c.score }))
    : cart.cashback_score_desired !== undefined && cart.cashback_score_desired !== null
      ? lines.map((line) => ({ line, score: Infinity }))
      : [];
  if (requests.length === 0 || !isIdentified(run.context)) return;
  const available = run.context.pointsAvailable;
  if (available <= 0 || available < run.program.settings.scoreThresholdCashback) return;
  const desired = cart.cashback_score_desired;
  let left = desired === undefined || desired === null || desired === -1 ? available : Math.min(desired, available);
  for (const { line, score } of requests) {
    if (left <= 0) break;
    const points = Math.min(score, left, maxPoints(run, line));
    if (points <= 0) continue;
    const cents = pointsToCents(points, run.program.settings.pointValue, run.program.settings.pointValueCents);
    line.current -= cents;
    line.cashback += cents;
    left -= points;
    run.scoreUsed += points;
    run.cashbacks.push({ line_order: line.order, score: points, discount: toMoney(cents) });
  }
  if (run.scoreUsed > 0) {
    run.writes.points_used = {
      customer_id: run.context.customer?.id ?? null,
      customer_code: run.context.customer?.code ?? null,
      amount: run.scoreUsed,
    };
  }
}

/** The most points a line takes: its cap (share of original_total, within what is left of it) over the point value. */
function maxPoints(run: Run, line: LineState): number {
  const { cashbackCap, pointValue, pointValueCents } = run.program.settings;
  const capCents = Math.min(floorShare(line.originalCents, cashbackCap) - line.cashback, line.current);
  if (capCents <= 0) return 0;
  if (pointValueCents !== null) return Math.floor(capCents / pointValueCents);
  return new Decimal(capCents).div(pointValue.times(100)).floor().toNumber();
}
