import { describe, expect, it } from 'vitest';
import { drawFromSeed, DRAW_SCALE, type Campaign } from '../index.js';
import { ANONYMOUS, cart, context, evaluate, line } from '../../test-support/scenario.js';

const game = (prizes: Campaign['prizes'], extra: Record<string, unknown> = {}): Campaign => ({
  id: 5,
  type: 'instant_win',
  rule_params: { name: 'Scratch card', select_customers: 'loyalty', ...extra },
  prizes,
});
const sure = [{ id: 71, name: 'Mug', description: 'A mug', outcome: { promotion_type: 'reward', promotion_id: 900 }, weight: 1, stock: 3 }];
const play = (campaign: Campaign, extra: Parameters<typeof context>[0] = {}) => evaluate([campaign], cart([line(1, 10, 10)]), context(extra));

describe('instant wins', () => {
  it('realtime: a won prize is in the effect, its stock consumed through writes, the draw recorded', () => {
    const outcome = play(game(sure));
    expect(outcome.response.effects).toEqual([
      {
        rule_id: 5,
        rule_name: 'Scratch card',
        type: 'instant_win',
        effect_type: '',
        distribution_type: '',
        select_customers: 'loyalty',
        line: -1,
        value: 0,
        prize_name: 'Mug',
        prize_description: 'A mug',
        prize_rule_id: 900,
        winned_prize_index: 0,
      },
    ]);
    expect(outcome.writes.stock).toEqual([{ campaign_id: 5, prize_id: 71, amount: 1, stock_seen: 3 }]);
    expect(outcome.writes.draws).toMatchObject([{ campaign_id: 5, seed: 'test-seed:5', prize_id: 71 }]);
  });

  it('records each draw so that it can be replayed from the package\'s exports: drawFromSeed(seed) is the number drawn', () => {
    const half = [{ ...sure[0], weight: 0.5 }];
    const won = new Set();
    for (const seed of ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']) {
      const [draw] = play(game(half), { seed }).writes.draws;
      expect(draw.drawn).toBe(drawFromSeed(draw.seed));
      // Weights are fractions of DRAW_SCALE: a draw below half of it wins the prize of weight 0.5.
      expect(draw.prize_id).toBe(draw.drawn < DRAW_SCALE / 2 ? 71 : null);
      won.add(draw.prize_id);
    }
    expect(won).toEqual(new Set([71, null]));
  });

  it('a prize without stock yields no prize (remove_prize) and no stock write', () => {
    const outcome = play(game(sure), { counters: { '5': { prize_stock: { '71': 0 } } } });
    expect(outcome.response.effects[0]).not.toHaveProperty('prize_name');
    expect(outcome.writes.stock).toEqual([]);
    expect(outcome.writes.draws[0].prize_id).toBeNull();
  });

  it("the contract's no prize (empty promotion_type): taking part without prize data, no stock write, no prize in the draw", () => {
    const outcome = play(game([{ id: 72, name: 'Better luck next time', outcome: { promotion_type: '' }, weight: 1, stock: 5 }]));
    expect(outcome.response.effects).toHaveLength(1);
    for (const field of ['prize_name', 'prize_description', 'prize_rule_id', 'winned_prize_index']) expect(outcome.response.effects[0]).not.toHaveProperty(field);
    expect(outcome.writes.stock).toEqual([]);
    expect(outcome.writes.draws).toMatchObject([{ campaign_id: 5, prize_id: null }]);
  });

  it('a prize won without a description answers prize_description null, beside the rest of the prize data', () => {
    const effect = play(game([{ ...sure[0], description: undefined }])).response.effects[0];
    expect(effect).toMatchObject({ prize_name: 'Mug', prize_description: null, prize_rule_id: 900, winned_prize_index: 0 });
  });

  it('unlimited stock (-1) awards without a stock write', () => {
    const outcome = play(game([{ ...sure[0], stock: -1 }]));
    expect(outcome.response.effects[0].prize_name).toBe('Mug');
    expect(outcome.writes.stock).toEqual([]);
  });

  it('a prize whose outcome has no units left for the customer (prize_units) is a prize without stock: no prize data, no stock write', () => {
    const outcome = play(game(sure), { prize_units: { 'reward:900': 0 } });
    expect(outcome.response.effects).toHaveLength(1);
    expect(outcome.response.effects[0]).not.toHaveProperty('prize_name');
    expect(outcome.writes.stock).toEqual([]);
    expect(outcome.writes.draws[0].prize_id).toBeNull();
    // Units of another outcome do not cap it; its own units left, it wins and consumes its own stock.
    expect(play(game(sure), { prize_units: { 'reward:901': 0 } }).response.effects[0].prize_name).toBe('Mug');
    expect(play(game([{ ...sure[0], stock: -1 }]), { prize_units: { 'reward:900': 1 } }).writes.stock).toEqual([]);
  });

  it('prizes of several campaigns sharing an outcome share its units within one evaluation, in campaign order', () => {
    const second: Campaign = { ...game([{ ...sure[0], id: 72, stock: -1 }]), id: 6 };
    const outcome = evaluate([game(sure), second], cart([line(1, 10, 10)]), context({ prize_units: { 'reward:900': 1 } }));
    expect(outcome.response.effects.map((e) => [e.rule_id, e.prize_name])).toEqual([[5, 'Mug'], [6, undefined]]);
    expect(outcome.writes.draws.map((d) => d.prize_id)).toEqual([71, null]);
  });

  it('rejects prize_units that are not whole units', () => {
    expect(() => play(game(sure), { prize_units: { 'reward:900': -1 } })).toThrow(/context\.prize_units\.reward:900/);
  });

  it('weights that leave room for no prize', () => {
    const outcome = play(game([{ ...sure[0], weight: 0 }]));
    expect(outcome.response.effects).toHaveLength(1);
    expect(outcome.response.effects[0]).not.toHaveProperty('prize_name');
  });

  it('simulate: takes part, draws nothing, returns no prize data', () => {
    const outcome = play(game(sure), { mode: 'simulate' });
    expect(outcome.response.effects).toHaveLength(1);
    expect(outcome.response.effects[0]).not.toHaveProperty('prize_name');
    expect(outcome.response.effects[0]).not.toHaveProperty('winned_prize_index');
    expect(outcome.writes.draws).toEqual([]);
  });

  it('the same seed draws the same prize; the draw depends on the seed', () => {
    const half = game([{ ...sure[0], weight: 0.5, stock: -1 }]);
    const bySeed = (seed: string) => play(half, { seed }).writes.draws[0];
    expect(bySeed('a')).toEqual(bySeed('a'));
    const seeds = Array.from({ length: 40 }, (_, i) => `seed-${i}`);
    const wins = seeds.filter((seed) => bySeed(seed).prize_id !== null).length;
    expect(wins).toBeGreaterThan(0);
    expect(wins).toBeLessThan(40);
  });

  it('a targeted campaign plays through the customer\'s voucher: coupon_info and campaign_history_id', () => {
    const targeted = game(sure, { select_customers: 'targeted' });
    const holder = { customer: { id: 42, vouchers: [{ code: 'IW-1', campaign_id: 5, voucher_id: 600, campaign_history_id: 3001 }] } };
    const outcome = evaluate([targeted], cart([line(1, 10, 10)], { coupons_desired: ['IW-1'] }), context(holder));
    expect(outcome.response.effects[0]).toMatchObject({ select_customers: 'targeted', campaign_history_id: 3001, coupon_info: { voucher_id: 600, voucher_code: 'IW-1' } });
    expect(play(targeted, holder).response.effects).toEqual([]);
  });

  it('a campaign other than targeted played through a static code: no coupon_info, no campaign_history_id (targeted only)', () => {
    const coded: Campaign = { ...game(sure, { coupon_required: true }), coupon_params: { static_code: 'PLAY' } };
    const outcome = evaluate([coded], cart([line(1, 10, 10)], { coupons_desired: ['PLAY'] }), context());
    expect(outcome.response.effects).toHaveLength(1);
    expect(outcome.response.effects[0]).not.toHaveProperty('coupon_info');
    expect(outcome.response.effects[0]).not.toHaveProperty('campaign_history_id');
    expect(play(coded).response.effects).toEqual([]);
  });

  it('no participation: anonymous cart, conditions not met, once limit reached', () => {
    expect(play(game(sure), ANONYMOUS).response.effects).toEqual([]);
    expect(play(game(sure, { rule_conditions: { conditions: { and: [{ field: 'total', operator: 'gte', value: 50 }] } } })).response.effects).toEqual([]);
    const once = game(sure, { once: 'always', once_limit: 1 });
    expect(play(once, { counters: { '5': { uses: 1 } } }).response.effects).toEqual([]);
    expect(play(once).writes.limits).toMatchObject([{ campaign_id: 5, period: 'always', period_key: 'always' }]);
  });

  describe('a cart that buys nothing takes no part: no effect, no draw, no stock, no participation', () => {
    const once = game(sure, { once: 'always', once_limit: 2 });
    const ret = { ticket_id: 900, line_order: 1, from_line_order: 1, quantity: 1 };
    const nothing = (outcome: ReturnType<typeof play>) => {
      expect(outcome.response.effects).toEqual([]);
      expect(outcome.writes).toMatchObject({ draws: [], stock: [], limits: [] });
    };
    it('every line returned (the negative line a till sends, or one sent positive)', () => {
      nothing(evaluate([once], cart([line(1, 10, -2, -1)], { returns: [ret] }), context()));
      nothing(evaluate([once], cart([line(1, 10, 2, 1), line(2, 11, -3, -1)], { returns: [ret, { ...ret, line_order: 2 }] }), context()));
    });
    it('nothing bought: a refund line without a return, a line of total 0', () => {
      nothing(evaluate([once], cart([line(1, 10, -2, -1)]), context()));
      nothing(evaluate([once], cart([line(1, 10, 0)]), context()));
    });
    it('an exchange (a return and goods bought) takes part as a sale; so does a line paid in full by a discount', () => {
      const exchange = evaluate([once], cart([line(1, 10, -2, -1), line(2, 11, 5)], { returns: [ret] }), context());
      expect(exchange.response.effects).toMatchObject([{ rule_id: 5, prize_name: 'Mug' }]);
      expect(exchange.writes).toMatchObject({ draws: [{ campaign_id: 5 }], stock: [{ prize_id: 71 }], limits: [{ campaign_id: 5 }] });
      const free = { id: 6, type: 'discount', rule_params: { name: 'All free', rule_effects: [{ type: 'percentage', value: 100, distribution: 'total' }] } } as Campaign;
      const paid = evaluate([free, once], cart([line(1, 10, 5)]), context());
      expect(paid.response.total).toBe(0);
      expect(paid.response.effects.map((e) => e.type)).toEqual(['discount', 'instant_win']);
    });
  });
});
