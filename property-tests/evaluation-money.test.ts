/** Money invariants of whole evaluations: exact points, no negative line, splits that add up, caps. */
import { Decimal } from 'decimal.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileCampaigns, evaluateCart, MAX_POINTS, type Outcome } from '../engine/src/index.js';
import { arbCampaigns, arbCart, arbContext, arbRatio } from './arbitraries/evaluation.js';

const SETTINGS = { currency: 'EUR', timezone: 'Europe/Madrid' };
const cents = (amount: unknown) => Math.round(Number(amount) * 100);

function discountCents(outcome: Outcome): number {
  return outcome.response.effects.filter((e) => e.type === 'discount').reduce((sum, e) => sum + e.value, 0);
}

describe('money invariants', () => {
  it('no line below zero; total discount at most the original total; the cents of every split add up', () => {
    fc.assert(
      fc.property(arbCampaigns, arbCart, arbContext, (campaigns, cart, context) => {
        const outcome = evaluateCart(compileCampaigns(campaigns, SETTINGS), cart, context);
        const { response } = outcome;
        const before = cart.lines.map((line) => cents(line.total));
        const after = response.lines.map((line) => cents(line.total));
        after.forEach((total) => expect(total).toBeGreaterThanOrEqual(0));
        const cashback = response.cashbacks.reduce((sum, c) => sum + cents(c.discount), 0);
        const reduced = before.reduce((sum, total, i) => sum + total - after[i], 0);
        // Every cent taken off a line is accounted for by a discount effect or a cashback, and vice versa.
        expect(reduced).toBe(discountCents(outcome) + cashback);
        expect(discountCents(outcome) + cashback).toBeLessThanOrEqual(before.reduce((a, b) => a + b, 0));
        expect(cents(response.total)).toBe(cents(cart.total) - reduced);
        expect(cents(response.total_discount_promotion_applied) + cents(response.total_discount_voucher_applied)).toBe(discountCents(outcome));
      }),
      { numRuns: 400, seed: 21 },
    );
  });

  it('cashback per line within its cap, and never more points than available', () => {
    fc.assert(
      fc.property(arbCampaigns, arbCart, arbContext, (campaigns, cart, context) => {
        const { response } = evaluateCart(compileCampaigns(campaigns, SETTINGS), cart, context);
        for (const cashback of response.cashbacks) {
          const line = cart.lines.find((l) => l.order === cashback.line_order);
          expect(cents(cashback.discount)).toBeLessThanOrEqual(Math.floor(cents(line?.original_total ?? line?.total) / 2));
          expect(cashback.score).toBe(cents(cashback.discount));
        }
        const used = response.cashbacks.reduce((sum, c) => sum + c.score, 0);
        expect(used).toBe(response.score_used);
        expect(used).toBeLessThanOrEqual(context.customer?.points_available ?? 0);
      }),
      { numRuns: 300, seed: 22 },
    );
  });

  it('points equal a decimal reference: floor(total x ratio), down to a multiple of the quantity', () => {
    fc.assert(
      fc.property(arbRatio, arbCart, (ratio, cart) => {
        const campaigns = [{ id: 1, type: 'points' as const, rule_params: { rule_effects: [{ type: 'ratio', value: ratio }] } }];
        const { response } = evaluateCart(compileCampaigns(campaigns, SETTINGS), { ...cart, cashback_score_desired: undefined }, { now: cart.creation_date, mode: 'simulate', seed: '' });
        const expected = cart.lines
          .map((line) => {
            const raw = new Decimal(String(line.total)).times(String(ratio)).floor().toNumber();
            return { line_order: line.order, score: raw - (raw % Number(line.quantity)) };
          })
          .filter((entry) => entry.score > 0);
        expect(response.scores.map(({ line_order, score }) => ({ line_order, score }))).toEqual(expected);
      }),
      { numRuns: 500, seed: 23 },
    );
  });

  it('a ratio up to its bound: every award is the decimal reference cut to MAX_POINTS (then to a multiple of the quantity), a safe integer', () => {
    const arbLargeRatio = fc.oneof(fc.integer({ min: 1, max: MAX_POINTS }), fc.integer({ min: 1, max: MAX_POINTS }).map((n) => n / 100));
    const capped = (total: number | string, ratio: number) => Decimal.min(new Decimal(String(total)).times(String(ratio)).floor(), MAX_POINTS).toNumber();
    fc.assert(
      fc.property(arbLargeRatio, fc.constantFrom('individual_items', 'total_cart'), arbCart, (ratio, distribution, cart) => {
        const campaigns = [{ id: 1, type: 'points' as const, rule_params: { rule_effects: [{ type: 'ratio', value: ratio, distribution }] } }];
        const { response } = evaluateCart(compileCampaigns(campaigns, SETTINGS), { ...cart, cashback_score_desired: undefined }, { now: cart.creation_date, mode: 'simulate', seed: '' });
        const expected =
          distribution === 'total_cart'
            ? [{ line_order: -1, score: capped(cart.total, ratio) }]
            : cart.lines.map((line) => {
                const raw = capped(line.total, ratio);
                return { line_order: line.order, score: raw - (raw % Number(line.quantity)) };
              });
        expect(response.scores.map(({ line_order, score }) => ({ line_order, score }))).toEqual(expected.filter((entry) => entry.score > 0));
        expect(Number.isSafeInteger(response.score)).toBe(true);
      }),
      { numRuns: 300, seed: 24 },
    );
  });
});
