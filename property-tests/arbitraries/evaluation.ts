/**
 * fast-check arbitraries for whole evaluations: carts as POST /carts/simulate
 * receives them, contexts, and discount and points campaigns whose rules come
 * from the rule-language arbitraries (so that generated rules often match).
 */
import fc from 'fast-check';
import type { Campaign, Cart, CartLine, Context } from '../../engine/src/index.js';
import { arbRule } from './rules.js';

/** Product ids of the rule arbitraries' pool, as numbers or strings. */
const PRODUCT_IDS: (number | string)[] = [1, 2, 3, '9223372036854775807'];
const INSTANTS = ['2026-11-20T18:30:00Z', '2026-11-23T08:00:00Z', '2026-12-31T23:30:00Z'];

const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
/** A decimal with up to two decimals, as a JSON number. */
const money = (min: number, max: number) => fc.integer({ min, max }).map((cents) => cents / 100);

export const arbLine = (order: number): fc.Arbitrary<CartLine> =>
  fc
    .record({
      product_id: fc.constantFrom(...PRODUCT_IDS),
      quantity: fc.integer({ min: 1, max: 4 }),
      unitCents: fc.integer({ min: 1, max: 5000 }),
      markupCents: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 500 })),
      attributes: fc.dictionary(fc.constantFrom('color', 'size', 'vip'), fc.constantFrom('red', 'blue', 1, 2, true), { maxKeys: 2 }),
    })
    .map(({ product_id, quantity, unitCents, markupCents, attributes }) => ({
      order,
      product_id,
      quantity,
      total: (unitCents * quantity) / 100,
      original_total: (unitCents * quantity + markupCents) / 100,
      attributes,
    }));

export const arbCart: fc.Arbitrary<Cart> = fc
  .record({
    lineCount: fc.integer({ min: 1, max: 6 }),
    creation_date: fc.constantFrom(...INSTANTS),
    location_id: maybe(fc.constantFrom(10, 11, '9223372036854775806')),
    channel: maybe(fc.constantFrom('web', 'app')),
    cashback_score_desired: maybe(fc.oneof(fc.constant(-1), fc.integer({ min: 0, max: 3000 }))),
  })
  .chain(({ lineCount, ...rest }) =>
    fc.tuple(...Array.from({ length: lineCount }, (_, i) => arbLine(i + 1))).map((lines) => ({
      ...rest,
      total: lines.reduce((sum, line) => sum + Math.round(Number(line.total) * 100), 0) / 100,
      lines,
    })),
  )
  .map((cart) => Object.fromEntries(Object.entries(cart).filter(([, v]) => v !== undefined)) as unknown as Cart);

/**
 * Quantities with their steps (cart rule 4: the cents a quantity divides), integers and weighed fractions p/r in
 * lowest terms (the step is p): a line's total is a whole number of steps.
 */
const STEPPED: readonly (readonly [number, number])[] = [
  [0.5, 1],
  [1.5, 3],
  [0.25, 1],
  [2.75, 11],
  [1.2, 6],
  [0.75, 3],
  [0.125, 1],
  [0.333, 333],
];
const arbQuantityStep = fc.oneof(
  fc.integer({ min: 1, max: 12 }).map((q) => [q, q] as const),
  fc.constantFrom(...STEPPED),
);

/** A line whose total its quantity divides, with its step, and a markup on original_total (a multiple of the step too). */
export const arbSteppedLine = (order: number): fc.Arbitrary<{ line: CartLine; step: number }> =>
  fc
    .record({
      product_id: fc.constantFrom(...PRODUCT_IDS),
      quantityStep: arbQuantityStep,
      steps: fc.integer({ min: 1, max: 3000 }),
      markupSteps: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 300 })),
    })
    .map(({ product_id, quantityStep: [quantity, step], steps, markupSteps }) => ({
      step,
      line: { order, product_id, quantity, total: (steps * step) / 100, original_total: ((steps + markupSteps) * step) / 100 },
    }));

/** A cart of such lines, spending points by cashback_score_desired or by explicit cashbacks, or not at all. */
export const arbSteppedCart: fc.Arbitrary<{ cart: Cart; steps: number[] }> = fc
  .record({
    lineCount: fc.integer({ min: 1, max: 5 }),
    creation_date: fc.constantFrom(...INSTANTS),
    spend: fc.oneof(
      fc.constant({}),
      fc.record({ cashback_score_desired: fc.oneof(fc.constant(-1), fc.integer({ min: 0, max: 3000 })) }),
      fc.record({ cashbacks: fc.array(fc.record({ line_order: fc.integer({ min: 1, max: 5 }), score: fc.integer({ min: 1, max: 3000 }) }), { maxLength: 3 }) }),
    ),
  })
  .chain(({ lineCount, creation_date, spend }) =>
    fc.tuple(...Array.from({ length: lineCount }, (_, i) => arbSteppedLine(i + 1))).map((stepped) => {
      const lines = stepped.map((s) => s.line);
      const cashbacks = 'cashbacks' in spend ? { cashbacks: spend.cashbacks.filter((c) => c.line_order <= lineCount) } : spend;
      const cart: Cart = { creation_date, total: lines.reduce((sum, line) => sum + Math.round(Number(line.total) * 100), 0) / 100, lines, ...cashbacks };
      return { cart, steps: stepped.map((s) => s.step) };
    }),
  );

export const arbContext: fc.Arbitrary<Context> = fc.record({
  now: fc.constantFrom(...INSTANTS),
  mode: fc.constantFrom<'simulate' | 'realtime'>('simulate', 'realtime'),
  seed: fc.string({ maxLength: 8 }),
  customer: maybe(
    fc.record({
      id: fc.constantFrom<number | string>(5, '9223372036854775807'),
      points_available: fc.integer({ min: 0, max: 5000 }),
      country: fc.constantFrom('ES', 'FR'),
      tier: fc.constantFrom('gold', 'silver'),
    }),
  ),
});

const arbDiscountEffect: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  fc.record({
    type: fc.constant('percentage'),
    value: fc.oneof(fc.integer({ min: 1, max: 100 }), fc.integer({ min: 1, max: 1000 }).map((n) => n / 10)),
    distribution: fc.constantFrom('individual_items', 'individual_items_pro_rata', 'total', 'total_cart'),
    limits: maybe(fc.integer({ min: 1, max: 5 })),
  }),
  fc.record({
    type: fc.constant('direct_value'),
    value: money(1, 5000),
    distribution: fc.constantFrom('individual_items', 'individual_items_pro_rata', 'total', 'total_cart'),
    limits: maybe(fc.integer({ min: 1, max: 5 })),
  }),
  fc.record({ type: fc.constant('combo_price'), value: money(0, 3000) }),
);

/** Points per currency unit with up to two decimals: where binary floats go wrong. */
export const arbRatio = fc.oneof(fc.integer({ min: 1, max: 100 }), fc.integer({ min: 1, max: 10000 }).map((n) => n / 100));

const arbPointsEffect: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  fc.record({ type: fc.constant('ratio'), value: arbRatio, distribution: fc.constantFrom('individual_items', 'total', 'total_cart') }),
  fc.record({ type: fc.constant('direct_value'), value: fc.integer({ min: 1, max: 500 }), distribution: fc.constantFrom('individual_items', 'total', 'total_cart') }),
);

const strip = <T extends object>(value: T): T => Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;

export const arbCampaign = (id: number): fc.Arbitrary<Campaign> =>
  fc.boolean().chain((isDiscount) =>
    fc
      .record({
        rule_conditions: maybe(arbRule),
        rule_application: maybe(arbRule),
        rule_effects: fc.array(isDiscount ? arbDiscountEffect : arbPointsEffect, { minLength: 1, maxLength: 2 }),
        stackability_properties: fc.constantFrom('stackable', 'exclusive'),
        priority: fc.integer({ min: 0, max: 3 }),
        maximum_budget_transaction: maybe(money(0, 5000)),
      })
      .map((params) => ({
        id,
        type: isDiscount ? ('discount' as const) : ('points' as const),
        rule_params: strip({ name: `campaign ${id}`, ...params, rule_effects: params.rule_effects.map(strip) }),
      })),
  );

export const arbCampaigns: fc.Arbitrary<Campaign[]> = fc
  .integer({ min: 1, max: 6 })
  .chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => arbCampaign(i + 1))));
