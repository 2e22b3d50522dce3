/** A leaf `{field, operator, value | values}`, compiled once into a predicate and its json-rules-engine form. */
import { cannotBeSentWith, invalidRequest, mustBe } from '../errors.js';
import type { Field } from './fields/field.js';
import { OPERATORS, operatorNamed, type Operator, type Scalar } from './operators/index.js';

export interface CompiledLeaf<F> {
  readonly json: Record<string, unknown>;
  readonly holds: (facts: F) => boolean;
  readonly field: Field<F>;
  readonly operator: Operator;
  /** The compiled value(s): cents, canonical ids, ... */
  readonly values: readonly Scalar[];
}

export const LEAF_KEYS = ['key', 'field', 'operator', 'value', 'values'] as const;

/** Unknown properties are errors: a misspelt `grouped` or `values` must not silently change a campaign. */
export function checkKeys(raw: Record<string, unknown>, allowed: readonly string[], path: string): void {
  for (const key of Object.keys(raw)) {
    if (!allowed.includes(key)) throw invalidRequest(`${path}.${key}`, 'is not an accepted field');
  }
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function compileLeaf<F>(
  raw: Record<string, unknown>,
  path: string,
  lookup: (name: string) => Field<F> | undefined,
  where: 'cart' | 'line',
): CompiledLeaf<F> {
  const fieldName = raw.field;
  if (fieldName === undefined || fieldName === null) throw invalidRequest(`${path}.field`, 'is required');
  if (typeof fieldName !== 'string') throw invalidRequest(`${path}.field`, mustBe('string'));
  const field = lookup(fieldName);
  if (!field) throw invalidRequest(`${path}.field`, `unknown ${where} field '${fieldName}'`);
  const operator = compileOperator(raw.operator, path);
  if (operator.ordering && !field.kind.ordered) {
    throw invalidRequest(`${path}.operator`, `'${operator.name}' does not apply to field '${fieldName}'`);
  }
  const value = compileValue(raw, path, operator, (v, p) => field.kind.parse(v, p, operator.ordering));
  const values = Array.isArray(value) ? value : [value as Scalar];
  return { json: { ...field.jre, ...jreOperator(field, operator, value) }, holds: predicate(field, operator, value), field, operator, values };
}

export function compileOperator(raw: unknown, path: string): Operator {
  if (raw === undefined || raw === null) throw invalidRequest(`${path}.operator`, 'is required');
  const operator = typeof raw === 'string' ? operatorNamed(raw) : undefined;
  if (!operator) throw invalidRequest(`${path}.operator`, `unknown operator '${String(raw)}'`);
  return operator;
}

/** `value` for eq/neq/orderings; `values` (or `value` given as a list) for in/not_in. */
export function compileValue(
  raw: Record<string, unknown>,
  path: string,
  operator: Operator,
  parse: (value: unknown, path: string) => Scalar,
): Scalar | Scalar[] {
  const given = (key: string) => raw[key] !== undefined && raw[key] !== null;
  if (given('value') && given('values')) throw cannotBeSentWith(`${path}.values`, `${path}.value`);
  if (operator.takes === 'value') {
    if (given('values')) throw invalidRequest(`${path}.values`, `'${operator.name}' takes one value, not values`);
    if (!given('value')) throw invalidRequest(`${path}.value`, 'is required');
    if (Array.isArray(raw.value)) throw invalidRequest(`${path}.value`, `'${operator.name}' takes one value, not a list`);
    return parse(raw.value, `${path}.value`);
  }
  const key = given('values') ? 'values' : 'value';
  const list = raw[key];
  if (!given(key)) throw invalidRequest(`${path}.values`, 'is required');
  if (!Array.isArray(list)) throw invalidRequest(`${path}.${key}`, `'${operator.name}' takes a list`);
  // An empty list is almost surely a misconfiguration (the campaign could never, or always, apply).
  if (list.length === 0) throw invalidRequest(`${path}.${key}`, 'must not be empty');
  return list.map((item, i) => parse(item, `${path}.${key}[${i}]`));
}

function predicate<F>(field: Field<F>, operator: Operator, value: Scalar | Scalar[]): (facts: F) => boolean {
  const read = field.read;
  if (!field.many) return operator.test(read, value);
  // A list fact (features): in/eq hold when some element matches; not_in/neq when none does.
  const positive = operator.negationOf ? OPERATORS[operator.negationOf] : operator;
  const test = positive.test((element: unknown) => element, value);
  const negated = positive !== operator;
  return (facts) => {
    const list = read(facts) as readonly unknown[];
    let some = false;
    for (let i = 0; i < list.length && !some; i++) some = test(list[i]);
    return some !== negated;
  };
}

function jreOperator<F>(field: Field<F>, operator: Operator, value: Scalar | Scalar[]): Record<string, unknown> {
  if (field.many) {
    const positive = operator.negationOf ? OPERATORS[operator.negationOf] : operator;
    return { operator: `${positive === operator ? '' : 'not:'}someFact:${positive.jre}`, value };
  }
  // `numeric` (registered by the reference engine) makes orderings false on non-numbers, as the fast path does.
  if (field.untyped && operator.ordering) return { operator: `numeric:${operator.jre}`, value };
  return { operator: operator.jre, value };
}

/** The keys only a line condition has. */
const LINE_KEYS = ['array_field', 'conditions', 'grouped', 'bundle'] as const;

/**
 * The contract shows every key on each rule item (`array_field`, `conditions`, `grouped`, `bundle` beside a leaf's
 * own), so a client may send them all, null where they do not apply: a null one is one not sent.
 */
export function withoutNullLineKeys(raw: Record<string, unknown>): Record<string, unknown> {
  if (!LINE_KEYS.some((key) => raw[key] === null)) return raw;
  const item = { ...raw };
  for (const key of LINE_KEYS) if (item[key] === null) delete item[key];
  return item;
}
