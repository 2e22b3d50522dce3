/**
 * Returns (cart rule 3): the caller works out from each original ticket what
 * a return moves (the points its line earned, pro rata to the units
 * returned, taken back; the points spent on it given back) and passes it in
 * the context; an identified customer's cart takes them into its totals and
 * its writes. An anonymous cart's returns move nothing.
 */
import { isIdentified } from '../evaluate/contextInput.js';
import type { Run } from '../evaluate/run.js';

export function applyReturns(run: Run): void {
  if (!isIdentified(run.context)) return;
  for (const returned of run.context.returns) {
    if (returned === null) continue;
    run.scoreReturnedFrom += returned.score_from_customer;
    run.scoreReturnedTo += returned.score_to_customer + (returned.redeemed_to_customer ?? 0);
    run.writes.returns.push(returned);
  }
}

/** The points a return took back (the response's `returns[].score`). */
export function returnedScore(run: Run, index: number): number {
  return isIdentified(run.context) ? (run.context.returns[index]?.score_from_customer ?? 0) : 0;
}
