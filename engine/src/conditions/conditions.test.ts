/**
 * The rule language as a campaign condition, one shared suite run against both
 * implementations: the compiled closures (hot path) and json-rules-engine (reference).
 */
import { describe, expect, it } from 'vitest';
import { and, cartFacts, evaluators, or, type CartFactsInput } from '../../../property-tests/arbitraries/rules.js';
import { compileRule } from './index.js';

interface Case {
  title: string;
  rule: unknown;
  cart: CartFactsInput;
  holds: boolean;
}

const leaf = (field: string, operator: string, value: unknown) =>
  operator === 'in' || operator === 'not_in' ? { field, operator, values: value } : { field, operator, value };
const lines = (conditions: unknown[], more: Record<string, unknown> = {}) => ({ array_field: 'lines', conditions, ...more });

const TEN = { total: 1000 };
const operatorCases: Case[] = [
  ['eq', 10, true], ['eq', 10.01, false],
  ['neq', 10, false], ['neq', 9.99, true],
  ['gt', 9.99, true], ['gt', 10, false],
  ['gte', 10, true], ['gte', 10.01, false],
  ['lt', 10.01, true], ['lt', 10, false],
  ['lte', 10, true], ['lte', 9.99, false],
  ['in', [5, 10], true], ['in', [5], false],
  ['not_in', [5, 10], false], ['not_in', [5], true],
].map(([operator, value, holds]) => ({
  title: `total (10.00) ${operator} ${JSON.stringify(value)}`,
  rule: and(leaf('total', operator as string, value)),
  cart: TEN,
  holds: holds as boolean,
}));

const cartFieldCases: Case[] = [
  { title: 'money compares exactly in cents (0.30 eq 0.1 + 0.2)', rule: and(leaf('total', 'eq', 0.3)), cart: { total: 30 }, holds: true },
  { title: 'money given as a decimal string', rule: and(leaf('total', 'gte', '10.00')), cart: TEN, holds: true },
  { title: 'original_total', rule: and(leaf('original_total', 'gt', 50)), cart: { total: 1000, original_total: 6000 }, holds: true },
  { title: 'location_id as an int64 string', rule: and(leaf('location_id', 'eq', '9223372036854775807')), cart: { location_id: '9223372036854775807' }, holds: true },
  { title: 'location_id differing in the last digit', rule: and(leaf('location_id', 'eq', '9223372036854775806')), cart: { location_id: '9223372036854775807' }, holds: false },
  { title: 'location_id given as a number', rule: and(leaf('location_id', 'in', [12, 13])), cart: { location_id: '12' }, holds: true },
  { title: 'location_id with leading zeros', rule: and(leaf('location_id', 'eq', '0012')), cart: { location_id: '12' }, holds: true },
  { title: 'location_id given as a bigint', rule: and(leaf('location_id', 'eq', 9223372036854775807n)), cart: { location_id: '9223372036854775807' }, holds: true },
  { title: 'location_code', rule: and(leaf('location_code', 'eq', 'BCN')), cart: { location_code: 'BCN' }, holds: true },
  { title: 'location_code is case-sensitive', rule: and(leaf('location_code', 'eq', 'bcn')), cart: { location_code: 'BCN' }, holds: false },
  { title: 'location_feature in: one of the location features', rule: and(leaf('location_feature', 'in', ['kind:1', 'kind:3'])), cart: { location_features: ['region:9', 'kind:1'] }, holds: true },
  { title: 'location_feature in: none of the location features', rule: and(leaf('location_feature', 'in', ['kind:2'])), cart: { location_features: ['region:9', 'kind:1'] }, holds: false },
  { title: 'location_feature in at a location without features', rule: and(leaf('location_feature', 'in', ['kind:1'])), cart: {}, holds: false },
  { title: 'location_feature eq', rule: and(leaf('location_feature', 'eq', 'region:9')), cart: { location_features: ['region:9', 'kind:1'] }, holds: true },
  { title: 'location_feature eq is case-sensitive', rule: and(leaf('location_feature', 'eq', 'Region:9')), cart: { location_features: ['region:9'] }, holds: false },
  { title: 'location_feature not_in when one matches', rule: and(leaf('location_feature', 'not_in', ['kind:1'])), cart: { location_features: ['region:9', 'kind:1'] }, holds: false },
  { title: 'location_feature not_in when none matches', rule: and(leaf('location_feature', 'not_in', ['kind:1'])), cart: { location_features: ['region:9'] }, holds: true },
  { title: 'location_feature not_in at a location without features', rule: and(leaf('location_feature', 'not_in', ['kind:1'])), cart: {}, holds: true },
  { title: 'location_feature neq when one matches', rule: and(leaf('location_feature', 'neq', 'kind:1')), cart: { location_features: ['kind:1'] }, holds: false },
  { title: 'location_feature neq at a location without features', rule: and(leaf('location_feature', 'neq', 'kind:1')), cart: {}, holds: true },
  { title: 'channel in', rule: and(leaf('channel', 'in', ['web', 'app'])), cart: { channel: 'app' }, holds: true },
  { title: 'currency in lower case means the ISO code', rule: and(leaf('currency', 'eq', 'eur')), cart: { currency: 'EUR' }, holds: true },
  { title: 'cart attribute eq text', rule: and(leaf('attributes.segment', 'eq', 'vip')), cart: { attributes: { segment: 'vip' } }, holds: true },
  { title: 'cart attribute gte number', rule: and(leaf('attributes.visits', 'gte', 3)), cart: { attributes: { visits: 3 } }, holds: true },
  // A lossless JSON parser gives integers beyond 2^53 as bigints: orderings compare them exactly (not as the nearest double).
  { title: 'a bigint attribute gte a number', rule: and(leaf('attributes.amount', 'gte', 10)), cart: { attributes: { amount: 12345678901234567890n } }, holds: true },
  { title: 'a negative bigint attribute lt a number', rule: and(leaf('attributes.amount', 'lt', -10)), cart: { attributes: { amount: -12345678901234567890n } }, holds: true },
  { title: 'a bigint attribute compared exactly (2^53 + 1 gt 2^53)', rule: and(leaf('attributes.amount', 'gt', 2 ** 53)), cart: { attributes: { amount: 2n ** 53n + 1n } }, holds: true },
  { title: 'a bigint attribute lte a larger number', rule: and(leaf('attributes.amount', 'lte', 2 ** 53)), cart: { attributes: { amount: 2n ** 53n + 1n } }, holds: false },
  { title: 'an ordering never holds on a text attribute', rule: and(leaf('attributes.visits', 'gte', 3)), cart: { attributes: { visits: '5' } }, holds: false },
  { title: 'attributes compare strictly (2 is not "2")', rule: and(leaf('attributes.size', 'eq', 2)), cart: { attributes: { size: '2' } }, holds: false },
  { title: 'boolean attribute', rule: and(leaf('attributes.gift', 'eq', true)), cart: { attributes: { gift: true } }, holds: true },
  { title: 'attribute names are own properties only', rule: and(leaf('attributes.constructor', 'neq', 'x')), cart: {}, holds: true },
  { title: 'customer.country in lower case means the ISO code', rule: and(leaf('customer.country', 'eq', 'es')), cart: { customer: { country: 'ES' } }, holds: true },
  { title: 'customer.gender', rule: and(leaf('customer.gender', 'eq', 'f')), cart: { customer: { gender: 'f' } }, holds: true },
  { title: 'customer.kind', rule: and(leaf('customer.kind', 'neq', 'company')), cart: { customer: { kind: 'person' } }, holds: true },
  { title: 'customer.tier', rule: and(leaf('customer.tier', 'in', ['gold', 'platinum'])), cart: { customer: { tier: 'silver' } }, holds: false },
  { title: 'customer.identified', rule: and(leaf('customer.identified', 'eq', true)), cart: { customer: { identified: true } }, holds: true },
  { title: 'customer.identified given as text', rule: and(leaf('customer.identified', 'eq', 'false')), cart: { customer: { identified: true } }, holds: false },
  { title: 'customer.id', rule: and(leaf('customer.id', 'eq', '9223372036854775807')), cart: { customer: { id: '9223372036854775807' } }, holds: true },
  { title: 'customer.code', rule: and(leaf('customer.code', 'eq', 'C-1')), cart: { customer: { code: 'C-1' } }, holds: true },
  { title: 'customer attribute', rule: and(leaf('customer.attributes.age', 'gte', 18)), cart: { customer: { attributes: { age: 17 } } }, holds: false },
  { title: 'creation_date.weekday (1 = Monday) in the weekend', rule: and(leaf('creation_date.weekday', 'in', [6, 7])), cart: { creation_date: { weekday: 7, hour: 10 } }, holds: true },
  { title: 'creation_date.hour', rule: and(leaf('creation_date.hour', 'gte', 18)), cart: { creation_date: { weekday: 1, hour: 17 } }, holds: false },
  { title: 'an absent fact is not equal to anything', rule: and(leaf('location_id', 'eq', 5)), cart: {}, holds: false },
  { title: 'an absent fact satisfies neq', rule: and(leaf('location_id', 'neq', 5)), cart: {}, holds: true },
  { title: 'an absent fact satisfies not_in', rule: and(leaf('customer.tier', 'not_in', ['gold'])), cart: {}, holds: true },
  { title: 'an absent attribute never satisfies an ordering', rule: and(leaf('attributes.visits', 'lt', 3)), cart: {}, holds: false },
];

const web = leaf('channel', 'eq', 'web');
const big = leaf('total', 'gte', 50);
const nestingCases: Case[] = [
  { title: 'absent rule', rule: undefined, cart: {}, holds: true },
  { title: 'empty and', rule: and(), cart: {}, holds: true },
  { title: 'empty or puts no constraint', rule: or(), cart: {}, holds: true },
  { title: 'and: both hold', rule: and(web, big), cart: { channel: 'web', total: 5000 }, holds: true },
  { title: 'and: one fails', rule: and(web, big), cart: { channel: 'app', total: 5000 }, holds: false },
  { title: 'or: one holds', rule: or(web, big), cart: { channel: 'app', total: 5000 }, holds: true },
  { title: 'or: none holds', rule: or(web, big), cart: { channel: 'app', total: 10 }, holds: false },
  { title: 'or inside and', rule: and(leaf('currency', 'eq', 'EUR'), { or: [web, big] }), cart: { channel: 'web', total: 10 }, holds: true },
  { title: 'and inside or', rule: or({ and: [web, big] }, leaf('customer.identified', 'eq', true)), cart: { channel: 'web', total: 10 }, holds: false },
  { title: 'a group item with a key', rule: and({ key: 'weekend or web', or: [web] }), cart: { channel: 'web' }, holds: true },
  { title: 'three levels', rule: and({ or: [{ and: [web] }, { and: [] }] }), cart: { channel: 'app' }, holds: true },
];

const product = (...ids: unknown[]) => leaf('product_id', 'in', ids);
const lineCases: Case[] = [
  { title: 'a line with the product', rule: and(lines([product(2)])), cart: { lines: [{ product_id: '1' }, { product_id: '2' }] }, holds: true },
  { title: 'no line with the product', rule: and(lines([product(3)])), cart: { lines: [{ product_id: '1' }, { product_id: '2' }] }, holds: false },
  { title: 'int64 product id', rule: and(lines([product('9223372036854775807')])), cart: { lines: [{ product_id: '9223372036854775807' }] }, holds: true },
  {
    title: 'all leaves must hold on the same line',
    rule: and(lines([product(1), leaf('quantity', 'gte', 2)])),
    cart: { lines: [{ product_id: '1', quantity: 1 }, { product_id: '2', quantity: 3 }] },
    holds: false,
  },
  { title: 'no leaves: any line', rule: and(lines([])), cart: {}, holds: true },
  { title: 'product_code', rule: and(lines([leaf('product_code', 'eq', 'SKU-1')])), cart: { lines: [{ product_code: 'SKU-1' }] }, holds: true },
  { title: 'product_ean given as a number', rule: and(lines([leaf('product_ean', 'eq', 8410000000001)])), cart: { lines: [{ product_ean: '8410000000001' }] }, holds: true },
  { title: 'supplier_id', rule: and(lines([leaf('supplier_id', 'not_in', [7])])), cart: { lines: [{ supplier_id: '7' }] }, holds: false },
  { title: 'line total', rule: and(lines([leaf('total', 'lt', 5)])), cart: { lines: [{ total: 499 }] }, holds: true },
  { title: 'line original_total', rule: and(lines([leaf('original_total', 'gte', 5)])), cart: { lines: [{ total: 100, original_total: 500 }] }, holds: true },
  { title: 'line attribute', rule: and(lines([leaf('attributes.color', 'eq', 'red')])), cart: { lines: [{ attributes: { color: 'red' } }] }, holds: true },
  { title: 'feature in: one of the line features', rule: and(lines([leaf('feature', 'in', ['family:1', 'family:3'])])), cart: { lines: [{ features: ['brand:9', 'family:1'] }] }, holds: true },
  { title: 'feature not_in: none of the line features', rule: and(lines([leaf('feature', 'not_in', ['family:1'])])), cart: { lines: [{ features: ['brand:9', 'family:1'] }] }, holds: false },
  { title: 'feature eq', rule: and(lines([leaf('feature', 'eq', 'brand:9')])), cart: { lines: [{ features: ['brand:9'] }] }, holds: true },
  { title: 'feature neq on a line without features', rule: and(lines([leaf('feature', 'neq', 'brand:9')])), cart: { lines: [{ features: [] }] }, holds: true },
  {
    title: 'field without grouped: one matching line must satisfy it',
    rule: and(lines([product(1)], { field: 'total', operator: 'gte', value: 5 })),
    cart: { lines: [{ product_id: '1', total: 300 }, { product_id: '1', total: 400 }, { product_id: '2', total: 900 }] },
    holds: false,
  },
  {
    title: 'grouped: the matching lines sum their totals',
    rule: and(lines([product(1)], { field: 'total', operator: 'gte', value: 7, grouped: true })),
    cart: { lines: [{ product_id: '1', total: 300 }, { product_id: '1', total: 400 }, { product_id: '2', total: 900 }] },
    holds: true,
  },
  {
    title: 'grouped original_total',
    rule: and(lines([], { field: 'original_total', operator: 'eq', value: 30, grouped: true })),
    cart: { lines: [{ total: 0, original_total: 1000 }, { total: 0, original_total: 2000 }] },
    holds: true,
  },
  {
    // Regression: json-rules-engine evaluates sibling conditions concurrently; the reference once
    // shared one nested Engine between them and dropped lines from the group sums.
    title: 'several grouped line conditions in one rule each see every line',
    rule: and(
      lines([], { field: 'quantity', operator: 'in', values: [1], grouped: true }),
      {
        or: [
          lines([], { field: 'count', operator: 'gte', value: 0, grouped: true }),
          { and: [lines([], { field: 'total', operator: 'in', values: [0], grouped: true }), lines([product(1)])] },
        ],
      },
    ),
    cart: { lines: [{ product_id: '1', quantity: 1 }, { product_id: '1', quantity: 1 }] },
    holds: false,
  },
  {
    title: 'grouped quantity sums exactly (0.1 + 0.2 eq 0.3)',
    rule: and(lines([product(1)], { field: 'quantity', operator: 'eq', value: 0.3, grouped: true })),
    cart: { lines: [{ product_id: '1', quantity: 0.1 }, { product_id: '1', quantity: 0.2 }] },
    holds: true,
  },
  {
    title: 'grouped quantity with more than six decimals still sums exactly',
    rule: and(lines([], { field: 'quantity', operator: 'gte', value: 0.3, grouped: true })),
    cart: { lines: [{ quantity: 0.1000001 }, { quantity: 0.1999999 }] },
    holds: true,
  },
  {
    title: 'count of matching lines',
    rule: and(lines([product(1, 2)], { field: 'count', operator: 'gte', value: 2, grouped: true })),
    cart: { lines: [{ product_id: '1' }, { product_id: '3' }, { product_id: '2' }] },
    holds: true,
  },
  {
    title: 'count implies grouped',
    rule: and(lines([product(1, 2)], { field: 'count', operator: 'eq', value: 2 })),
    cart: { lines: [{ product_id: '1' }, { product_id: '3' }, { product_id: '2' }] },
    holds: true,
  },
  {
    title: 'count eq 0: the cart has no such line',
    rule: and(lines([product(9)], { field: 'count', operator: 'eq', value: 0 })),
    cart: { lines: [{ product_id: '1' }] },
    holds: true,
  },
  {
    title: 'a bundle part holds like any line condition',
    rule: and(lines([product(1)], { bundle: 1 }), lines([product(2)], { bundle: 2 })),
    cart: { lines: [{ product_id: '1' }] },
    holds: false,
  },
  { title: 'the contract shape: grouped false and bundle null on a cart leaf', rule: and({ key: 'k', ...web, grouped: false, bundle: null }), cart: { channel: 'web' }, holds: true },
];

describe.each(evaluators)('rule conditions through $name', ({ test }) => {
  describe.each([
    ['operators', operatorCases],
    ['cart fields', cartFieldCases],
    ['nesting', nestingCases],
    ['line conditions', lineCases],
  ] as const)('%s', (_, cases) => {
    it.each(cases)('$title', async ({ rule, cart, holds }) => {
      expect(await test(compileRule(rule, 'rule_conditions'), cartFacts(cart))).toBe(holds);
    });
  });

  it('accepts the rule as a JSON string', async () => {
    const json = JSON.stringify(and(lines([product(1)], { field: 'quantity', operator: 'gte', value: 2, grouped: true })));
    const cart = cartFacts({ lines: [{ product_id: '1', quantity: 1 }, { product_id: '1', quantity: 1 }] });
    expect(await test(compileRule(json, 'rule_conditions'), cart)).toBe(true);
  });
});
