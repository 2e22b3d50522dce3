/**
 * Fixtures and fast-check arbitraries for the rule language (engine/src/conditions):
 * builders of CartFacts for hand-written tests, generators of raw rules (as users write
 * them: objects with currency units, ids as numbers or strings) and of carts whose
 * values come from the same small pools, so that generated rules often match.
 */
import fc from 'fast-check';
import { referenceEngine, type CartFacts, type CompiledRule, type CustomerFacts, type LineFacts } from '../../engine/src/conditions/index.js';

// ---- builders ----

export function lineFacts(partial: Partial<LineFacts> = {}, index = 0): LineFacts {
  const total = partial.total ?? 1000;
  return { index, order: index + 1, features: [], quantity: 1, total, original_total: total, attributes: {}, ...partial };
}

export interface CartFactsInput extends Partial<Omit<CartFacts, 'customer' | 'lines'>> {
  customer?: Partial<CustomerFacts>;
  lines?: Partial<LineFacts>[];
}

/** A cart of 100.00 EUR, anonymous customer, Monday 10:00, one line of 10.00 unless told otherwise. */
export function cartFacts(input: CartFactsInput = {}): CartFacts {
  const { customer, lines, ...cart } = input;
  const total = cart.total ?? 10000;
  return {
    total,
    original_total: total,
    location_features: [],
    currency: 'EUR',
    attributes: {},
    creation_date: { weekday: 1, hour: 10 },
    ...cart,
    customer: { identified: false, attributes: {}, ...customer },
    lines: (lines ?? [{}]).map((line, i) => lineFacts(line, i)),
  };
}

/** `{conditions: {and: items}}` */
export const and = (...items: unknown[]) => ({ conditions: { and: items } });
/** `{conditions: {or: items}}` */
export const or = (...items: unknown[]) => ({ conditions: { or: items } });

/** The two implementations of the rule language, run by one shared suite (hono's pattern). */
export const evaluators = [
  {
    name: 'compiled closures',
    test: async (rule: CompiledRule, facts: CartFacts) => rule.test(facts),
    selectLines: async (rule: CompiledRule, facts: CartFacts) => rule.selectLines(facts),
  },
  {
    name: 'json-rules-engine',
    test: async (rule: CompiledRule, facts: CartFacts) => (await referenceEngine([{ id: 'r', rule }]).matching(facts)).length === 1,
    selectLines: (rule: CompiledRule, facts: CartFacts) => referenceEngine([{ id: 'r', rule }]).selectedLines('r', facts),
  },
];

// ---- pools shared by rules and carts ----

const PRODUCT_IDS = ['1', '2', '3', '9223372036854775807'];
const PRODUCT_CODES = ['A', 'B', 'C'];
const EANS = ['8410000000001', '8410000000002'];
const SUPPLIER_IDS = ['7', '8'];
const FEATURES = ['family:1', 'family:2', 'brand:9'];
const ATTRIBUTE_NAMES = ['color', 'size', 'vip'];
const ATTRIBUTE_VALUES: (string | number | boolean)[] = ['red', 'blue', '2', 1, 2, 2.5, true, false];
const LOCATION_IDS = ['10', '11', '9223372036854775806'];
const LOCATION_CODES = ['BCN', 'MAD'];
const LOCATION_FEATURES = ['kind:1', 'kind:2', 'region:9'];
const CHANNELS = ['web', 'app'];
const CURRENCIES = ['EUR', 'USD'];
const COUNTRIES = ['ES', 'FR'];
const TIERS = ['gold', 'silver'];

const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
/** Cents the facts hold; rules say the same amounts in currency units. */
const arbCents = fc.integer({ min: -500, max: 3000 });
/** Quantities with up to three decimals (0.1 + 0.2 must equal 0.3), negative in cancellations. */
const arbQuantity = fc.oneof(fc.constantFrom(1, 2, 3, 0.1, 0.2, 0.3, 1.5), fc.integer({ min: -3000, max: 5000 }).map((n) => n / 1000));
const arbAttributes = fc.dictionary(fc.constantFrom(...ATTRIBUTE_NAMES), fc.constantFrom(...ATTRIBUTE_VALUES), { maxKeys: 3 });

export const arbLineFacts: fc.Arbitrary<Omit<LineFacts, 'index' | 'order'>> = fc.record({
  product_id: maybe(fc.constantFrom(...PRODUCT_IDS)),
  product_code: maybe(fc.constantFrom(...PRODUCT_CODES)),
  product_ean: maybe(fc.constantFrom(...EANS)),
  supplier_id: maybe(fc.constantFrom(...SUPPLIER_IDS)),
  features: fc.uniqueArray(fc.constantFrom(...FEATURES), { maxLength: 2 }),
  quantity: arbQuantity,
  total: arbCents,
  original_total: arbCents,
  attributes: arbAttributes,
});

export const arbCartFacts: fc.Arbitrary<CartFacts> = fc
  .record({
    total: arbCents,
    original_total: arbCents,
    location_id: maybe(fc.constantFrom(...LOCATION_IDS)),
    location_code: maybe(fc.constantFrom(...LOCATION_CODES)),
    location_features: fc.uniqueArray(fc.constantFrom(...LOCATION_FEATURES), { maxLength: 2 }),
    channel: maybe(fc.constantFrom(...CHANNELS)),
    currency: fc.constantFrom(...CURRENCIES),
    attributes: arbAttributes,
    customer: fc.record({
      identified: fc.boolean(),
      id: maybe(fc.constantFrom('5', '9223372036854775807')),
      country: maybe(fc.constantFrom(...COUNTRIES)),
      tier: maybe(fc.constantFrom(...TIERS)),
      gender: maybe(fc.constantFrom('f', 'm')),
      attributes: arbAttributes,
    }),
    creation_date: fc.record({ weekday: fc.integer({ min: 1, max: 7 }), hour: fc.integer({ min: 0, max: 23 }) }),
    lines: fc.array(arbLineFacts, { minLength: 1, maxLength: 5 }),
  })
  .map(({ lines, ...cart }) => ({ ...cart, lines: lines.map((line, index) => ({ ...line, index, order: index + 1 })) }));

// ---- rules ----

type Kind = 'money' | 'id' | 'text' | 'number' | 'boolean' | 'attribute';
const EQUALITY = ['in', 'not_in', 'eq', 'neq'] as const;
const ALL_OPERATORS = [...EQUALITY, 'gt', 'gte', 'lt', 'lte'] as const;

/** A value as a user may write it for a field of this kind. */
function arbValue(kind: Kind, pool: readonly unknown[]): fc.Arbitrary<unknown> {
  switch (kind) {
    case 'money':
      return arbCents.chain((c) => fc.constantFrom<unknown>(c / 100, (c / 100).toFixed(2)));
    case 'id':
      return fc.constantFrom(...pool).chain((id) => fc.constantFrom<unknown>(id, Number.isSafeInteger(Number(id)) ? Number(id) : id));
    default:
      return fc.constantFrom(...pool);
  }
}

function arbLeaf(field: string, kind: Kind, pool: readonly unknown[]): fc.Arbitrary<Record<string, unknown>> {
  const ordered = kind === 'money' || kind === 'number' || kind === 'attribute';
  return fc.constantFrom(...(ordered ? ALL_OPERATORS : EQUALITY)).chain((operator): fc.Arbitrary<Record<string, unknown>> => {
    const orderingValue = kind === 'attribute' && !(EQUALITY as readonly string[]).includes(operator);
    const value = orderingValue ? fc.constantFrom(0, 1, 2, 2.5) : arbValue(kind, pool);
    if (operator === 'in' || operator === 'not_in') {
      return fc.record({ key: fc.constantFrom('values', 'value'), list: fc.array(value, { minLength: 1, maxLength: 3 }) }).map(({ key, list }) => ({ field, operator, [key]: list }));
    }
    return value.map((v) => ({ field, operator, value: v }));
  });
}

const CART_FIELDS: [string, Kind, readonly unknown[]][] = [
  ['total', 'money', []],
  ['original_total', 'money', []],
  ['location_id', 'id', LOCATION_IDS],
  ['location_code', 'text', LOCATION_CODES],
  ['location_feature', 'text', LOCATION_FEATURES],
  ['channel', 'text', CHANNELS],
  ['currency', 'text', [...CURRENCIES, 'eur']],
  ['customer.identified', 'boolean', [true, false]],
  ['customer.id', 'id', ['5', '9223372036854775807']],
  ['customer.country', 'text', [...COUNTRIES, 'es']],
  ['customer.tier', 'text', TIERS],
  ['customer.gender', 'text', ['f', 'm']],
  ['creation_date.weekday', 'number', [1, 2, 6, 7]],
  ['creation_date.hour', 'number', [0, 9, 10, 18, 23]],
  ...ATTRIBUTE_NAMES.map((name): [string, Kind, readonly unknown[]] => [`attributes.${name}`, 'attribute', ATTRIBUTE_VALUES]),
  ...ATTRIBUTE_NAMES.map((name): [string, Kind, readonly unknown[]] => [`customer.attributes.${name}`, 'attribute', ATTRIBUTE_VALUES]),
];

const LINE_FIELDS: [string, Kind, readonly unknown[]][] = [
  ['product_id', 'id', PRODUCT_IDS],
  ['product_code', 'text', PRODUCT_CODES],
  ['product_ean', 'text', EANS],
  ['supplier_id', 'id', SUPPLIER_IDS],
  ['feature', 'text', FEATURES],
  ['quantity', 'number', [0.1, 0.3, 1, 2, 1.5]],
  ['total', 'money', []],
  ['original_total', 'money', []],
  ...ATTRIBUTE_NAMES.map((name): [string, Kind, readonly unknown[]] => [`attributes.${name}`, 'attribute', ATTRIBUTE_VALUES]),
];

export const arbCartLeaf = fc.constantFrom(...CART_FIELDS).chain(([field, kind, pool]) => arbLeaf(field, kind, pool));
export const arbLineLeaf = fc.constantFrom(...LINE_FIELDS).chain(([field, kind, pool]) => arbLeaf(field, kind, pool));

/** The comparison of a line condition: none, one matching line's field, or a group total. */
const arbLineComparison: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  fc.constant({}),
  arbLineLeaf,
  fc.constantFrom<[string, Kind]>(['quantity', 'number'], ['total', 'money'], ['original_total', 'money'], ['count', 'number']).chain(([field, kind]) =>
    arbLeaf(field, kind, field === 'count' ? [0, 1, 2, 3] : [0.3, 0.5, 1, 2, 3.5]).map((leaf) => ({ ...leaf, grouped: true })),
  ),
);

export const arbLineCondition: fc.Arbitrary<Record<string, unknown>> = fc
  .record({
    conditions: fc.array(arbLineLeaf, { maxLength: 3 }),
    comparison: arbLineComparison,
    bundle: maybe(fc.integer({ min: 1, max: 3 })),
  })
  .map(({ conditions, comparison, bundle }) => ({
    array_field: 'lines',
    conditions,
    ...comparison,
    ...(bundle === undefined ? {} : { bundle }),
  }));

/** An `{and|or: [...]}` group up to `depth` levels deep. */
export function arbGroup(depth: number): fc.Arbitrary<Record<string, unknown>> {
  const item = depth <= 1 ? fc.oneof(arbCartLeaf, arbLineCondition) : fc.oneof(arbCartLeaf, arbLineCondition, arbGroup(depth - 1));
  return fc.record({ kind: fc.constantFrom('and', 'or'), items: fc.array(item, { minLength: 1, maxLength: 4 }) }).map(({ kind, items }) => ({ [kind]: items }));
}

/** A raw rule_conditions / rule_application as users write them. */
export const arbRule: fc.Arbitrary<{ conditions: Record<string, unknown> }> = arbGroup(3).map((conditions) => ({ conditions }));
