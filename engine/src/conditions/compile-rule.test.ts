/** compileRule: the forms a rule arrives in, int64 ids, the ids it names, and its exported JSON. */
import { Engine } from 'json-rules-engine';
import { describe, expect, it } from 'vitest';
import { and, cartFacts } from '../../../property-tests/arbitraries/rules.js';
import { compileRule } from './index.js';

const lines = (conditions: unknown[], more: Record<string, unknown> = {}) => ({ array_field: 'lines', conditions, ...more });

describe('compileRule', () => {
  it.each([undefined, null, '', '  ', {}, { conditions: null }, '{}'])('treats %j as an absent rule: always true, every line', (raw) => {
    const rule = compileRule(raw, 'rule_conditions');
    const cart = cartFacts({ lines: [{}, {}] });
    expect(rule.test(cart)).toBe(true);
    expect(rule.selectLines(cart)).toEqual([true, true]);
    expect(rule.json).toEqual({ all: [] });
  });

  it('reads null line keys as not sent: items shaped as the contract shows them, every key present', () => {
    const absent = { array_field: null, conditions: null, grouped: null, bundle: null };
    const cart = cartFacts({ channel: 'web', lines: [{ product_id: '1' }, { product_id: '2' }] });
    const leaf = compileRule(and({ field: 'channel', operator: 'eq', value: 'web', ...absent }), 'rule_conditions');
    expect(leaf.test(cart)).toBe(true);
    expect(leaf.json).toEqual(compileRule(and({ field: 'channel', operator: 'eq', value: 'web' }), 'rule_conditions').json);
    const line = compileRule(and(lines([{ field: 'product_id', operator: 'eq', value: 2, ...absent }], { field: null, operator: null, grouped: null, bundle: null })), 'rule_application');
    expect(line.selectLines(cart)).toEqual([false, true]);
  });

  it('selects no line of a cart without the products an application names, whatever the other conditions', () => {
    const product = (ids: number[]) => lines([{ field: 'product_id', operator: 'in', values: ids }]);
    const cart = cartFacts({ lines: [{ product_id: '1' }, { product_id: '2' }, {}] });
    const select = (item: Record<string, unknown>) => compileRule('or' in item ? { conditions: item } : and(item), 'rule_application').selectLines(cart);
    expect(select(product([7, 8]))).toEqual([false, false, false]);
    expect(select(product([2, 8]))).toEqual([false, true, false]);
    expect(compileRule(and({ field: 'total', operator: 'gte', value: 0 }, product([7])), 'rule_application').selectLines(cart)).toEqual([false, false, false]);
    // `or`: narrowed only when every branch names products; a cart leaf may select every line.
    expect(select({ or: [product([7]), product([1])] })).toEqual([true, false, false]);
    expect(select({ or: [product([7]), { field: 'total', operator: 'gte', value: 0 }] })).toEqual([true, true, true]);
    expect(select(lines([{ field: 'product_id', operator: 'eq', value: 2 }]))).toEqual([false, true, false]);
    expect(select(lines([{ field: 'product_id', operator: 'not_in', values: [7] }]))).toEqual([true, true, true]);
  });

  it('reads a JSON string the same as the object', () => {
    const raw = and({ field: 'channel', operator: 'eq', value: 'web' }, lines([{ field: 'product_id', operator: 'in', values: [1] }]));
    expect(compileRule(JSON.stringify(raw), 'rule_conditions').json).toEqual(compileRule(raw, 'rule_conditions').json);
  });

  it('keeps an int64 id written as a JSON number literal exact', () => {
    const rule = compileRule('{"conditions":{"and":[{"array_field":"lines","conditions":[{"field":"product_id","operator":"in","values":[9223372036854775807, 12]}]}]}}', 'rule_conditions');
    expect(rule.productIds).toEqual(['9223372036854775807', '12']);
    expect(rule.test(cartFacts({ lines: [{ product_id: '9223372036854775807' }] }))).toBe(true);
    expect(rule.test(cartFacts({ lines: [{ product_id: '9223372036854775806' }] }))).toBe(false);
  });

  it('compares an attribute with an integer literal beyond 2^53 exactly, as the lossless facts hold it', () => {
    const attribute = (operator: string, literal: string) =>
      compileRule(`{"conditions":{"and":[{"field":"attributes.card","operator":"${operator}","value":${literal}}]}}`, 'rule_conditions');
    const card = (value: unknown) => cartFacts({ attributes: { card: value } });
    const eq = attribute('eq', '9007199254740993');
    expect(eq.test(card(9007199254740993n))).toBe(true);
    expect(eq.test(card(9007199254740992))).toBe(false);
    expect(eq.test(card('9007199254740993'))).toBe(false);
    const gt = attribute('gt', '9223372036854775806');
    expect(gt.test(card(9223372036854775807n))).toBe(true);
    expect(gt.test(card(9223372036854775806n))).toBe(false);
    expect(attribute('eq', '123456789012345678901234567890').test(card(123456789012345678901234567890n))).toBe(true);
    expect(attribute('lt', '123456789012345678901234567890').test(card(123456789012345678901234567889n))).toBe(true);
    expect(compileRule('{"conditions":{"and":[{"field":"attributes.card","operator":"eq","value":1},{"field":"attributes.card","operator":"eq","value":9007199254740993}]}}', 'rule_conditions').test(card(1))).toBe(false);
  });

  it('refuses a money or small-number field compared with an integer beyond 2^53, naming its range', () => {
    const leaf = (field: string) => () => compileRule(`{"conditions":{"and":[{"field":"${field}","operator":"lt","value":9007199254740993}]}}`, 'rule_conditions');
    expect(leaf('total')).toThrow(/must be a number between/);
    expect(leaf('creation_date.hour')).toThrow(/must be an integer between 0 and 23/);
  });

  it('does not touch long digit runs inside JSON strings', () => {
    const rule = compileRule('{"conditions":{"and":[{"field":"channel","operator":"eq","value":"web 12345678901234567890"}]}}', 'rule_conditions');
    expect(rule.test(cartFacts({ channel: 'web 12345678901234567890' }))).toBe(true);
  });

  it('lists the product ids, location ids and location codes named by in/eq (not by not_in/neq)', () => {
    const rule = compileRule(
      and(
        { field: 'location_id', operator: 'in', values: ['0010', 11] },
        { field: 'location_id', operator: 'neq', value: 12 },
        { field: 'location_code', operator: 'eq', value: 'BCN' },
        { field: 'location_code', operator: 'not_in', values: ['MAD'] },
        { or: [lines([{ field: 'product_id', operator: 'eq', value: 5 }]), lines([{ field: 'product_id', operator: 'not_in', values: [6] }])] },
        lines([], { field: 'product_id', operator: 'in', values: [7, 5] }),
      ),
      'rule_application',
    );
    expect(rule.productIds).toEqual(['5', '7']);
    expect(rule.locationIds).toEqual(['10', '11']);
    expect(rule.locationCodes).toEqual(['BCN']);
  });

  it('exports json-rules-engine JSON: cart fields by path, money in cents, attributes by params', () => {
    const rule = compileRule(and({ field: 'total', operator: 'gte', value: 12.5 }, { field: 'attributes.my attr', operator: 'lt', value: 3 }), 'rule_conditions');
    expect(rule.json).toEqual({
      all: [
        { fact: 'cart', path: '$.total', operator: 'greaterThanInclusive', value: 1250 },
        { fact: 'cartAttribute', params: { name: 'my attr' }, operator: 'numeric:lessThan', value: 3 },
      ],
    });
  });

  it('exports JSON that a plain json-rules-engine Engine loads', () => {
    const rule = compileRule(and(lines([{ field: 'feature', operator: 'not_in', values: ['a:1'] }], { field: 'count', operator: 'gte', value: 1, bundle: 2 })), 'rule_conditions');
    expect(() => new Engine([{ conditions: rule.json as never, event: { type: 'x' } }])).not.toThrow();
  });

  it('returns a frozen rule whose evaluation does not change the facts', () => {
    const rule = compileRule(and(lines([{ field: 'product_id', operator: 'eq', value: 1 }], { field: 'quantity', operator: 'gte', value: 1, grouped: true })), 'rule_conditions');
    const cart = cartFacts({ lines: [{ product_id: '1' }] });
    const before = structuredClone(cart);
    rule.test(cart);
    rule.selectLines(cart);
    rule.bundles(cart);
    expect(cart).toEqual(before);
    expect(Object.isFrozen(rule)).toBe(true);
  });
});
