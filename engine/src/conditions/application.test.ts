/**
 * The rule language as a campaign application (which lines an effect acts on), run against
 * both implementations; and the bundle parts of a combo (fast path only).
 */
import { describe, expect, it } from 'vitest';
import { and, cartFacts, evaluators, or, type CartFactsInput } from '../../../property-tests/arbitraries/rules.js';
import { compileRule } from './index.js';

interface Case {
  title: string;
  rule: unknown;
  cart: CartFactsInput;
  selects: boolean[];
}

const lines = (conditions: unknown[], more: Record<string, unknown> = {}) => ({ array_field: 'lines', conditions, ...more });
const product = (...ids: unknown[]) => ({ field: 'product_id', operator: 'in', values: ids });
const THREE = { lines: [{ product_id: '1', total: 300 }, { product_id: '2', total: 600 }, { product_id: '1', total: 900 }] };

const cases: Case[] = [
  { title: 'absent rule: every line', rule: undefined, cart: THREE, selects: [true, true, true] },
  { title: 'empty string: every line', rule: '', cart: THREE, selects: [true, true, true] },
  { title: 'a line condition selects its matching lines', rule: and(lines([product(1)])), cart: THREE, selects: [true, false, true] },
  { title: 'a cart leaf that holds gates every line in', rule: and({ field: 'total', operator: 'gte', value: 50 }), cart: { ...THREE, total: 5000 }, selects: [true, true, true] },
  { title: 'a cart leaf that fails gates every line out', rule: and({ field: 'total', operator: 'gte', value: 50 }, lines([product(1)])), cart: { ...THREE, total: 10 }, selects: [false, false, false] },
  {
    title: 'and intersects',
    rule: and(lines([product(1)]), lines([{ field: 'total', operator: 'gte', value: 5 }])),
    cart: THREE,
    selects: [false, false, true],
  },
  { title: 'or unites', rule: or(lines([product(2)]), lines([{ field: 'total', operator: 'lt', value: 5 }])), cart: THREE, selects: [true, true, false] },
  {
    title: 'a non-grouped field narrows the selection',
    rule: and(lines([product(1)], { field: 'total', operator: 'gt', value: 5 })),
    cart: THREE,
    selects: [false, false, true],
  },
  {
    title: 'a grouped condition that holds selects its matching lines',
    rule: and(lines([product(1)], { field: 'total', operator: 'gte', value: 12, grouped: true })),
    cart: THREE,
    selects: [true, false, true],
  },
  {
    title: 'a grouped condition that fails selects nothing',
    rule: and(lines([product(1)], { field: 'total', operator: 'gt', value: 12, grouped: true })),
    cart: THREE,
    selects: [false, false, false],
  },
  {
    title: 'count eq 0 holds but selects no line',
    rule: and(lines([product(9)], { field: 'count', operator: 'eq', value: 0 })),
    cart: THREE,
    selects: [false, false, false],
  },
  {
    title: 'or of a cart leaf and a line condition',
    rule: or({ field: 'channel', operator: 'eq', value: 'web' }, lines([product(2)])),
    cart: { ...THREE, channel: 'app' },
    selects: [false, true, false],
  },
];

describe.each(evaluators)('rule application through $name', ({ selectLines }) => {
  it.each(cases)('$title', async ({ rule, cart, selects }) => {
    expect(await selectLines(compileRule(rule, 'rule_application'), cartFacts(cart))).toEqual(selects);
  });
});

describe('one compiled rule, many carts', () => {
  it('recomputes a group total for every cart', () => {
    const rule = compileRule(and(lines([product(1)], { field: 'quantity', operator: 'gte', value: 2, grouped: true })), 'rule_application');
    const small = cartFacts({ lines: [{ product_id: '1', quantity: 1 }, { product_id: '2', quantity: 5 }] });
    const large = cartFacts({ lines: [{ product_id: '1', quantity: 1 }, { product_id: '1', quantity: 1 }] });
    expect(rule.selectLines(small)).toEqual([false, false]);
    expect(rule.selectLines(large)).toEqual([true, true]);
    expect(rule.selectLines(small)).toEqual([false, false]);
    expect(rule.test(large)).toBe(true);
    expect(rule.test(small)).toBe(false);
  });
});

describe('bundles', () => {
  const combo = and(lines([product(1)], { bundle: 1 }), lines([product(2)], { bundle: 2 }));
  const cart = cartFacts({ lines: [{ product_id: '1' }, { product_id: '2' }, { product_id: '1' }, { product_id: '3' }] });

  it('returns the lines of each part by bundle number', () => {
    expect(compileRule(combo, 'rule_application').bundles(cart)).toEqual(new Map([[1, [0, 2]], [2, [1]]]));
  });

  it('is empty for a rule without bundle', () => {
    expect(compileRule(and(lines([product(1)])), 'rule_application').bundles(cart)).toEqual(new Map());
    expect(compileRule(undefined, 'rule_application').bundles(cart)).toEqual(new Map());
  });

  it('gives a grouped part no line while its group total fails', () => {
    const rule = compileRule(and(lines([product(1)], { bundle: 1, field: 'quantity', operator: 'gte', value: 3, grouped: true })), 'rule_application');
    expect(rule.bundles(cart)).toEqual(new Map([[1, []]]));
    const more = cartFacts({ lines: [{ product_id: '1', quantity: 2 }, { product_id: '1', quantity: 1 }] });
    expect(rule.bundles(more)).toEqual(new Map([[1, [0, 1]]]));
  });

  it('joins two line conditions numbered as the same part', () => {
    const rule = compileRule(or(lines([product(2)], { bundle: 1 }), lines([product(1)], { bundle: 1 })), 'rule_application');
    expect(rule.bundles(cart)).toEqual(new Map([[1, [0, 1, 2]]]));
  });
});
