import { describe, expect, it } from 'vitest';
import { compileGame, playGame, type Game, type GameContext } from '../index.js';
import { errorOf, SETTINGS } from '../../test-support/scenario.js';

const PLAY_AT = '2026-11-20T18:30:00Z';
const prizes: Game['prizes'] = [
  { id: 1, name: 'Big', weight: '0.1', stock: -1 },
  { id: 2, name: 'Small', weight: '0.3', stock: 10 },
  { id: 3, name: 'Sticker', weight: '0.2', stock: 5, stock_management_strategy: 'unlimited' },
];
const game = (params: Game['rule_params'] = {}, p = prizes): Game => ({ id: 9, rule_params: { name: 'Wheel', select_customers: 'loyalty', ...params }, prizes: p });
const ctx = (extra: Partial<GameContext> = {}): GameContext => ({ now: PLAY_AT, seed: 'seed-1', customer: { id: 42, country: 'ES' }, ...extra });
const play = (g: Game, c: GameContext = ctx()) => playGame(compileGame(g, SETTINGS), c);

describe('playGame', () => {
  it('draws by weight: 10,000 seeded plays match the weights (chi-square, 3 degrees of freedom)', () => {
    const compiled = compileGame(game(), SETTINGS);
    const counts = { 1: 0, 2: 0, 3: 0, none: 0 };
    for (let i = 0; i < 10_000; i++) {
      const result = playGame(compiled, ctx({ seed: `chi:${i}` }));
      if (!result.eligible) throw new Error('not eligible');
      counts[(result.prize_id ?? 'none') as keyof typeof counts] += 1;
    }
    const expected = { 1: 1000, 2: 3000, 3: 2000, none: 4000 };
    const chi = (Object.keys(expected) as (keyof typeof expected)[]).reduce((sum, k) => sum + (counts[k] - expected[k]) ** 2 / expected[k], 0);
    expect(chi).toBeLessThan(16.27); // p = 0.001
  });

  it('is deterministic: the same seed gives the same draw', () => {
    expect(play(game(), ctx({ seed: 'again' }))).toEqual(play(game(), ctx({ seed: 'again' })));
  });

  it('won with counted stock asks for one unit, re-checkable against the stock seen', () => {
    const sure = [{ id: 2, name: 'Small', weight: 1, stock: 10 }];
    expect(play(game({}, sure), ctx({ prize_stock: { '2': 4 } }))).toMatchObject({
      eligible: true, status: 'won', prize_id: 2, prize_index: 0, stock: { campaign_id: 9, prize_id: 2, amount: 1, stock_seen: 4 },
    });
  });

  it('a drawn prize without stock is stock_exhausted; unlimited and the unlimited strategy never run out', () => {
    const sure = (stock: number, strategy?: string) => [{ id: 2, name: 'Small', weight: 1, stock, stock_management_strategy: strategy }];
    expect(play(game({}, sure(10)), ctx({ prize_stock: { '2': 0 } }))).toMatchObject({ status: 'stock_exhausted', prize_id: 2, stock: null });
    expect(play(game({}, sure(-1)))).toMatchObject({ status: 'won', stock: null });
    expect(play(game({}, sure(0, 'unlimited')), ctx({ prize_stock: { '2': 0 } }))).toMatchObject({ status: 'won', stock: null });
  });

  it('no prize when the draw falls outside every prize', () => {
    expect(play(game({}, [{ id: 2, name: 'Never', weight: 0, stock: 1 }]))).toMatchObject({ status: 'no_prize', prize_id: null, stock: null });
  });

  it('a no_prize slot drawn is a play without a win: its id for the front end, no stock asked, never stock_exhausted', () => {
    const nothing = (stock: number) => [{ id: 4, name: 'Nothing', outcome: 'no_prize', weight: 1, stock }];
    expect(play(game({}, nothing(3)))).toMatchObject({ eligible: true, status: 'no_prize', prize_id: 4, prize_index: 0, stock: null });
    expect(play(game({}, nothing(3)), ctx({ prize_stock: { '4': 0 } }))).toMatchObject({ status: 'no_prize', prize_id: 4, stock: null });
    // Only no_prize is a slot without a win: the contract's other outcomes are prizes.
    expect(play(game({}, [{ id: 5, name: 'Fifty', outcome: 'points', weight: 1, stock: -1 }]))).toMatchObject({ status: 'won', prize_id: 5 });
  });

  it('the once limit: counted per period, refused once reached', () => {
    const limited = game({ once: 'num_month', once_limit: 2 });
    expect(play(limited, ctx({ uses: 1 }))).toMatchObject({ eligible: true, limit: { period: 'num_month', period_key: '2026-11', limit: 2 } });
    expect(play(limited, ctx({ uses: 2 }))).toEqual({ eligible: false, reason: 'once_limit: reached (2 of 2)' });
  });

  it('targeting: inactive, outside dates, wrong weekday, other country', () => {
    expect(play(game({ active: false }))).toMatchObject({ eligible: false });
    expect(play(game({ available_from: '2026-11-21' }))).toMatchObject({ eligible: false });
    expect(play(game({ available_to: '2026-11-19' }))).toMatchObject({ eligible: false });
    expect(play(game({ recurrence_type: 'weekly', recurrence_days: [1] }))).toMatchObject({ eligible: false });
    expect(play(game({ customer_registration_countries: ['FR'] }))).toMatchObject({ eligible: false });
    expect(play(game({ available_from: '2026-11-20', customer_registration_countries: ['ES'] }))).toMatchObject({ eligible: true });
  });

  it('conditions see the customer and the play date', () => {
    const vip = { conditions: { and: [{ field: 'customer.tier', operator: 'eq', value: 'gold' }] } };
    expect(play(game({ rule_conditions: vip }), ctx({ customer: { id: 42, tier: 'silver' } }))).toMatchObject({ eligible: false });
    expect(play(game({ rule_conditions: vip }), ctx({ customer: { id: 42, tier: 'gold' } }))).toMatchObject({ eligible: true });
  });

  it('compile errors name the field', () => {
    expect(errorOf(() => compileGame(game({}, [{ ...prizes[0], stock_management_strategy: 'remove' }]), SETTINGS)).field).toBe('prizes[0].stock_management_strategy');
    expect(errorOf(() => compileGame(game({}, [{ ...prizes[0], weight: 2 }]), SETTINGS)).field).toBe('prizes[0].weight');
    expect(errorOf(() => compileGame(game({ rule_conditions: { conditions: { and: [{ field: 'nope', operator: 'eq', value: 1 }] } } }), SETTINGS)).field).toMatch(/^rule_params\.rule_conditions/);
  });
});
