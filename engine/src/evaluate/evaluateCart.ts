/**
 * evaluateCart: one cart against a compiled program. Pure and deterministic:
 * the clock, the seed and the counters come in the context; the result is
 * the contract's response plus the writes the caller must persist. Inputs
 * are never mutated.
 */
import { isProgram } from '../compile/compileCampaigns.js';
import type { Program } from '../compile/program.js';
import { invalidRequest } from '../errors.js';
import { applyCashback } from '../effects/cashback.js';
import { applyDiscountCampaign } from '../effects/discount.js';
import { playInstantWin } from '../effects/instantWin.js';
import { applyPointsCampaign } from '../effects/points.js';
import { applyReturns } from '../effects/returns.js';
import { zonedDate } from '../time/zonedDate.js';
import type { Cart, Context, Outcome } from '../types.js';
import { readCart } from './cartInput.js';
import { readContext } from './contextInput.js';
import { resolveCoupons } from './coupons.js';
import { buildFacts } from './facts.js';
import { buildResponse } from './response.js';
import { emptyWrites, type Run } from './run.js';

export function evaluateCart(program: Program, cart: Cart, context: Context): Outcome {
  if (!isProgram(program)) throw invalidRequest('program', 'must be the result of compileCampaigns');
  const { formatter } = program.settings;
  const input = readCart(cart, program.settings.currency);
  const ctx = readContext(context, input.cart.returns?.length ?? 0);
  const created = zonedDate(input.createdAt, formatter);
  const now = ctx.now === input.createdAt ? created : zonedDate(ctx.now, formatter);
  const coupons = resolveCoupons(program, input, ctx);
  const run: Run = {
    program,
    input,
    context: ctx,
    facts: buildFacts(input, ctx, created),
    created,
    now,
    // countedAt: the sale's day, never one after today.
    counted: input.createdAt <= ctx.now ? created : now,
    coupons,
    effects: [],
    // The cart's own codes first: vouchers it listed that cannot be used.
    rejected: coupons.refused,
    vouchers: [],
    scores: [],
    cashbacks: [],
    discountPromotionCents: 0,
    discountVoucherCents: 0,
    scoreEarned: 0,
    scoreEarnedAvailable: 0,
    scoreEarnedExpired: 0,
    scoreUsed: 0,
    scoreCoupon: 0,
    scoreReturnedFrom: 0,
    scoreReturnedTo: 0,
    prizeUnitsWon: new Map(),
    writes: emptyWrites(),
  };
  // The contract's order: discounts, then cashback and points on the discounted lines, then instant wins; then what returns move.
  if (input.applyDiscounts) for (const campaign of program.discounts) applyDiscountCampaign(run, campaign);
  applyCashback(run);
  if (input.applyPoints) for (const campaign of program.points) applyPointsCampaign(run, campaign);
  // A cart that buys nothing (a refund) takes no part in instant wins: a chance to win is the reward of a purchase.
  if (input.buys) for (const campaign of program.instantWins) playInstantWin(run, campaign);
  applyReturns(run);
  // A simulation persists nothing.
  return { response: buildResponse(run), writes: ctx.mode === 'simulate' ? emptyWrites() : run.writes };
}
