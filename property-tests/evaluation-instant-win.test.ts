/** Instant-win draws: stock never below zero; with fixed seeds, frequencies match the weights. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileCampaigns, evaluateCart, type Campaign, type CampaignCounters } from '../engine/src/index.js';

const SETTINGS = { currency: 'EUR', timezone: 'Europe/Madrid' };
const CART = { creation_date: '2026-11-20T18:30:00Z', total: 10, lines: [{ order: 1, product_id: 1, total: 10, quantity: 1 }] };
const WEIGHTS = [0.1, 0.25, 0.4];

function game(stocks: number[]): Campaign {
  return {
    id: 9,
    type: 'instant_win',
    rule_params: { name: 'Scratch', select_customers: 'loyalty' },
    prizes: stocks.map((stock, i) => ({ id: i + 1, name: `prize ${i + 1}`, weight: WEIGHTS[i], stock })),
  };
}

function play(program: ReturnType<typeof compileCampaigns>, seed: string, counters: CampaignCounters) {
  return evaluateCart(program, CART, { now: CART.creation_date, mode: 'realtime', seed, customer: { id: 5 }, counters: { '9': counters } });
}

describe('instant-win draws', () => {
  it('stock never goes below zero when the caller applies the stock writes', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 3, maxLength: 3 }), fc.array(fc.string(), { minLength: 1, maxLength: 60 }), (stocks, seeds) => {
        const program = compileCampaigns([game(stocks)], SETTINGS);
        const left: Record<string, number> = Object.fromEntries(stocks.map((s, i) => [String(i + 1), s]));
        const won: Record<string, number> = {};
        for (const seed of seeds) {
          const { writes, response } = play(program, seed, { prize_stock: { ...left } });
          for (const write of writes.stock) left[String(write.prize_id)] -= write.amount;
          const prize = response.effects[0].prize_name;
          if (prize) won[prize] = (won[prize] ?? 0) + 1;
        }
        Object.values(left).forEach((stock) => expect(stock).toBeGreaterThanOrEqual(0));
        stocks.forEach((stock, i) => expect(won[`prize ${i + 1}`] ?? 0).toBeLessThanOrEqual(stock));
      }),
      { numRuns: 100, seed: 31 },
    );
  });

  it('frequencies match the weights (chi-square, 3 degrees of freedom, fixed seeds)', () => {
    const program = compileCampaigns([game([-1, -1, -1])], SETTINGS);
    const draws = 6000;
    const observed = [0, 0, 0, 0];
    for (let i = 0; i < draws; i++) {
      const index = play(program, `draw-${i}`, {}).response.effects[0].winned_prize_index;
      observed[index ?? 3] += 1;
    }
    const expected = [...WEIGHTS, 1 - WEIGHTS.reduce((a, b) => a + b, 0)].map((w) => w * draws);
    const chiSquare = observed.reduce((sum, o, i) => sum + (o - expected[i]) ** 2 / expected[i], 0);
    // 16.27 is the 0.999 quantile of chi-square with 3 degrees of freedom.
    expect(chiSquare).toBeLessThan(16.27);
  });

  it('a draw is replayable from the seed in writes', () => {
    const program = compileCampaigns([game([-1, -1, -1])], SETTINGS);
    fc.assert(
      fc.property(fc.string(), (seed) => {
        const first = play(program, seed, {}).writes.draws[0];
        expect(first.seed).toBe(`${seed}:9`);
        expect(play(program, seed, {}).writes.draws[0]).toEqual(first);
      }),
      { numRuns: 100, seed: 32 },
    );
  });
});
