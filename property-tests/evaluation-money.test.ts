/** Money invariants of whole evaluations: exact points, no negative line, splits that add up, caps. */
import { Decimal } from 'decimal.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readCart } from '../engine/src/evaluate/cartInput.js';
import { compileCampaigns, evaluateCart, MAX_POINTS, type Cart, type Outcome } from '../engine/src/index.js';
import { arbCampaigns, arbCart, arbContext, arbRatio, arbSteppedCart } from './arbitraries/evaluation.js';

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

  it("the Company's cashback_cap bounds the points a cart spends, and changes nothing it does not cut", () => {
    fc.assert(
      fc.property(arbCampaigns, arbCart, arbContext, fc.integer({ min: 0, max: 3000 }), (campaigns, cart, context, cap) => {
        const uncapped = evaluateCart(compileCampaigns(campaigns, SETTINGS), cart, context);
        const capped = evaluateCart(compileCampaigns(campaigns, { ...SETTINGS, cashback_cap: cap }), cart, context);
        expect(capped.response.score_used).toBeLessThanOrEqual(Math.min(cap, uncapped.response.score_used));
        // A simulation writes nothing.
        if (context.mode === 'realtime') expect(capped.writes.points_used?.amount ?? 0).toBe(capped.response.score_used);
        if (cap >= uncapped.response.score_used) expect(capped).toEqual(uncapped);
      }),
      { numRuns: 300, seed: 23 },
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

describe('cart rule 4 on the answer: every line total stays divisible by its quantity', () => {
  const arbSettings = fc.constantFrom(0.01, 0.005, 0.02, 0.03, 0.05, 0.025).map((point_value) => ({ ...SETTINGS, point_value }));

  it('the engine reads the answered lines back as a request\'s, for any campaigns, cashback and point value', () => {
    fc.assert(
      fc.property(arbCampaigns, arbSteppedCart, arbContext, arbSettings, (campaigns, { cart, steps }, context, settings) => {
        const { response } = evaluateCart(compileCampaigns(campaigns, settings), cart, context);
        response.lines.forEach((line, i) => {
          expect(cents(line.total)).toBeGreaterThanOrEqual(0);
          expect(cents(line.total) % steps[i]).toBe(0);
        });
        for (const cashback of response.cashbacks) expect(cents(cashback.discount) % steps[cashback.line_order - 1]).toBe(0);
        // Points on a line stay a multiple of its integer quantity.
        for (const score of response.scores.filter((s) => s.line_order > 0)) {
          const quantity = Number(cart.lines[score.line_order - 1].quantity);
          if (Number.isInteger(quantity)) expect(score.score % quantity).toBe(0);
        }
        const answered: Cart = { creation_date: cart.creation_date, total: response.total, lines: response.lines };
        expect(() => readCart(answered, SETTINGS.currency)).not.toThrow();
      }),
      { numRuns: 400, seed: 25 },
    );
  });

  /** One discount effect on every line, with its nominal amount worked out here: what the rounding rules promise. */
  const arbEffect = fc.record({
    type: fc.constantFrom('percentage', 'direct_value'),
    percent: fc.oneof(fc.integer({ min: 1, max: 100 }), fc.integer({ min: 1, max: 1000 }).map((n) => n / 10)),
    cents: fc.integer({ min: 1, max: 5000 }),
    distribution: fc.constantFrom('individual_items', 'individual_items_pro_rata', 'total', 'total_cart'),
    limits: fc.option(fc.integer({ min: 1, max: 12 }), { nil: undefined }),
    capCents: fc.option(fc.integer({ min: 0, max: 5000 }), { nil: undefined }),
  });
  const percentOf = (amount: number, percent: number) => new Decimal(amount).times(percent).div(100).toDecimalPlaces(0, Decimal.ROUND_HALF_UP).toNumber();

  it('no discount above its nominal amount, and below it by less than the steps of the lines', () => {
    fc.assert(
      fc.property(arbEffect, arbSteppedCart, ({ type, percent, cents: amount, distribution, limits, capCents }, { cart, steps }) => {
        const value = type === 'percentage' ? percent : amount / 100;
        const rule_params = {
          rule_effects: [{ type, value, distribution, ...(limits === undefined ? {} : { limits }) }],
          ...(capCents === undefined ? {} : { maximum_budget_transaction: capCents / 100 }),
        };
        const { response } = evaluateCart(compileCampaigns([{ id: 1, type: 'discount', rule_params }], SETTINGS), { ...cart, cashbacks: undefined, cashback_score_desired: undefined }, { now: cart.creation_date, mode: 'simulate', seed: '' });
        const totals = cart.lines.map((line) => cents(line.total));
        // Units in line order up to `limits` (a weighed line is one unit; total_cart ignores limits).
        let unitsLeft = limits === undefined || distribution === 'total_cart' ? Infinity : limits;
        const covered = cart.lines.map((line, i) => {
          const all = Number.isInteger(line.quantity) ? Number(line.quantity) : 1;
          const units = Math.min(all, unitsLeft);
          unitsLeft -= units;
          return { units, unitPrice: totals[i] / all, cents: (totals[i] / all) * units };
        });
        const base = covered.reduce((sum, c) => sum + c.cents, 0);
        const nominal =
          distribution === 'individual_items'
            ? covered.reduce((sum, c, i) => sum + Math.min(totals[i], (type === 'percentage' ? percentOf(c.unitPrice, percent) : amount) * c.units), 0)
            : Math.min(base, type === 'percentage' ? percentOf(base, percent) : amount);
        const capped = Math.min(nominal, capCents ?? Infinity);
        const given = discountCents({ response } as Outcome);
        expect(given).toBeLessThanOrEqual(capped);
        expect(capped - given).toBeLessThan(steps.reduce((a, b) => a + b, 0));
      }),
      { numRuns: 500, seed: 26 },
    );
  });
});
