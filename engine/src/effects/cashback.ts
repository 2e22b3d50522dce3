/**
 * Cashback: points spent as money off the lines, after discounts and before
 * points are earned. Per line at most the line share of its original_total (and
 * never below zero), per cart at most the cap's points and what the cart's lines
 * still add up to (a cart returning lines, an exchange, never pays points out as money); spread by line order for
 * cashback_score_desired (-1 = all available), or on the lines the explicit
 * `cashbacks` name. The money off a line
 * is a whole number of its steps (cart rule 4), as the cap, and exactly what the points spent are worth, by spending
 * fewer points: those not spent stay the customer's. The result is the recommended
 * `cashbacks` array and score_used. A point is worth money of the Company's
 * currency only (no exchange rates), so a cart in another currency spends none.
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
  if (requests.length === 0 || !isIdentified(run.context) || run.input.currency !== run.program.settings.currency) return;
  const available = run.context.pointsAvailable;
  if (available <= 0 || available < run.program.settings.scoreThresholdCashback) return;
  const desired = cart.cashback_score_desired;
  const { pointValue, pointValueCents, cashbackCap } = run.program.settings;
  // The cart's cap bounds what it spends as the balance does: lines and steps then take what they can of it.
  const spendable = cashbackCap === null ? available : Math.min(available, cashbackCap);
  let left = desired === undefined || desired === null || desired === -1 ? spendable : Math.min(desired, spendable);
  let payable = lines.reduce((cents, line) => cents + line.current, 0);
  for (const { line, score } of requests) {
    if (left <= 0 || payable <= 0) break;
    let points = Math.min(score, left, maxPoints(run, line, payable));
    let cents = pointsToCents(points, pointValue, pointValueCents);
    // A point worth a fraction of a cent buys money exactly only in blocks (2 points at 0.005): else rounding gave away money.
    if (pointValueCents === null || cents % line.step !== 0) {
      points = inWholeSteps(run, line, points);
      cents = pointsToCents(points, pointValue, pointValueCents);
    }
    if (points <= 0) continue;
    line.current -= cents;
    line.cashback += cents;
    payable -= cents;
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

/** The most points a line takes: its share of original_total (within what is left of it and of the cart's `payable` cents) over the point value. */
function maxPoints(run: Run, line: LineState, payable: number): number {
  const { cashbackLineShare, pointValue, pointValueCents } = run.program.settings;
  const capCents = Math.min(floorShare(line.originalCents, cashbackLineShare) - line.cashback, line.current, payable);
  if (capCents <= 0) return 0;
  if (pointValueCents !== null) return Math.floor(capCents / pointValueCents);
  return new Decimal(capCents).div(pointValue.times(100)).floor().toNumber();
}

/**
 * The most points, up to `points`, in blocks whose money is a whole number of the line's steps: at a point value of
 * c cents for p points, p × step / gcd(step, c) points buy c × step / gcd(step, c) cents exactly.
 */
function inWholeSteps(run: Run, line: LineState, points: number): number {
  const fraction = run.program.settings.pointValueFraction;
  if (fraction === null) return 0;
  const [cents, per] = fraction;
  return points - (points % (per * (line.step / gcd(line.step, cents))));
}

function gcd(a: number, b: number): number {
  while (b !== 0) [a, b] = [b, a % b];
  return a;
}
