/**
 * A line condition `{array_field: 'lines', conditions: [leaves], field?, operator?, value?, grouped?, bundle?}`.
 * As a condition it holds when a line matches the leaves (and the non-grouped field), or when the
 * group total of the matching lines satisfies the comparison (a sum over no lines is 0). As an
 * application it selects the matching lines (a grouped one only when its group total holds).
 */
import { invalidRequest, mustBe, mustBeIn, requiredWith } from '../errors.js';
import type { CompileContext, ConditionNode } from './condition-node.js';
import { checkKeys, compileLeaf, compileOperator, compileValue, isPlainObject, LEAF_KEYS, withoutNullLineKeys, type CompiledLeaf } from './compile-leaf.js';
import type { CartFacts, LineFacts } from './facts.js';
import { lineField } from './fields/line-fields.js';
import { GROUP_TOTALS, type GroupTotal } from './group-totals.js';

const LINE_CONDITION_KEYS = [...LEAF_KEYS, 'array_field', 'conditions', 'grouped', 'bundle'];

export function compileLineCondition(raw: Record<string, unknown>, path: string, context: CompileContext): ConditionNode {
  checkKeys(raw, LINE_CONDITION_KEYS, path);
  if (raw.array_field === undefined || raw.array_field === null) {
    throw 'conditions' in raw ? requiredWith(`${path}.array_field`, `${path}.conditions`) : invalidRequest(`${path}.array_field`, 'is required');
  }
  if (raw.array_field !== 'lines') throw invalidRequest(`${path}.array_field`, `unknown array_field '${String(raw.array_field)}' (only 'lines')`);
  const leaves = compileLineLeaves(raw.conditions, `${path}.conditions`, context);
  const grouped = optionalBoolean(raw.grouped, `${path}.grouped`);
  const bundle = optionalBundle(raw.bundle, `${path}.bundle`);
  const hasField = raw.field !== undefined && raw.field !== null;
  if (!hasField) {
    if (raw.operator !== undefined && raw.operator !== null) throw requiredWith(`${path}.field`, `${path}.operator`);
    if (grouped) throw requiredWith(`${path}.field`, `${path}.grouped`);
  }
  // `count` only makes sense over the group, so it implies grouped.
  const group = hasField && (grouped || raw.field === 'count') ? compileGroupComparison(raw, path) : undefined;
  if (hasField && !group) leaves.push(compileLeaf({ field: raw.field, operator: raw.operator, value: raw.value, values: raw.values }, path, lineField, 'line'));
  // A leaf on product_id with eq or in (the only positive operators of an id) names the only products a matching line can have.
  const productLeaves = leaves.filter((leaf) => leaf.field.name === 'product_id' && !leaf.operator.negationOf);
  for (const leaf of productLeaves) for (const id of leaf.values) context.productIds.add(id as string);

  // A matching line meets every leaf, so any one product leaf narrows the lines the node selects.
  const lineProducts = productLeaves.length > 0 ? new Set(productLeaves[0].values as string[]) : null;
  const node = { ...(group ? groupedNode(leaves, group) : plainNode(leaves)), lineProducts };
  if (bundle !== undefined) context.bundleParts.push({ bundle, node });
  return bundle === undefined ? node : { ...node, json: { ...node.json, name: `bundle ${bundle}` } };
}

function compileLineLeaves(raw: unknown, path: string, context: CompileContext): CompiledLeaf<LineFacts>[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) throw invalidRequest(path, 'must be a list of leaves on line fields');
  return raw.map((sent, i) => {
    context.count();
    const itemPath = `${path}[${i}]`;
    if (!isPlainObject(sent)) throw invalidRequest(itemPath, mustBe('object'));
    const item = withoutNullLineKeys(sent);
    if ('and' in item || 'or' in item || 'array_field' in item) throw invalidRequest(itemPath, 'a line condition holds leaves on line fields only');
    checkKeys(item, LEAF_KEYS, itemPath);
    return compileLeaf(item, itemPath, lineField, 'line');
  });
}

interface GroupComparison {
  readonly total: GroupTotal;
  readonly holds: (total: number) => boolean;
  readonly json: Record<string, unknown>;
}

function compileGroupComparison(raw: Record<string, unknown>, path: string): GroupComparison {
  const name = raw.field;
  const total = typeof name === 'string' && Object.hasOwn(GROUP_TOTALS, name) ? GROUP_TOTALS[name] : undefined;
  if (!total) throw invalidRequest(`${path}.field`, `a group sums quantity, total, original_total or count, not '${String(name)}'`);
  const operator = compileOperator(raw.operator, path);
  const fast = compileValue(raw, path, operator, (v, p) => total.value(v, p).fast);
  const json = compileValue(raw, path, operator, (v, p) => total.value(v, p).json);
  return { total, holds: operator.test((sum: number) => sum, fast), json: { operator: operator.jre, value: json } };
}

function matcher(leaves: readonly CompiledLeaf<LineFacts>[]): (line: LineFacts) => boolean {
  const tests = leaves.map((leaf) => leaf.holds);
  if (tests.length === 1) return tests[0];
  return (line) => {
    for (let i = 0; i < tests.length; i++) if (!tests[i](line)) return false;
    return true;
  };
}

/** The reference form: `lines` (json-rules-engine runs the leaves on each line) and `lineSelected` (the line being selected, if any). */
function referenceJson(
  leaves: readonly CompiledLeaf<LineFacts>[],
  comparison: Record<string, unknown>,
  sum: Record<string, string>,
): Record<string, unknown> {
  const conditions = { all: leaves.map((leaf) => leaf.json) };
  return {
    all: [
      { fact: 'lines', params: { conditions, ...sum }, ...comparison },
      { fact: 'lineSelected', params: { conditions }, operator: 'equal', value: true },
    ],
  };
}

function plainNode(leaves: readonly CompiledLeaf<LineFacts>[]): Omit<ConditionNode, 'lineProducts'> {
  const matches = matcher(leaves);
  return {
    json: referenceJson(leaves, { operator: 'greaterThan', value: 0 }, {}),
    test(facts) {
      const lines = facts.lines;
      for (let i = 0; i < lines.length; i++) if (matches(lines[i])) return true;
      return false;
    },
    selects: (facts, index) => matches(facts.lines[index]),
  };
}

function groupedNode(leaves: readonly CompiledLeaf<LineFacts>[], group: GroupComparison): Omit<ConditionNode, 'lineProducts'> {
  const matches = matcher(leaves);
  const holds = (facts: CartFacts) => group.holds(group.total.total(facts.lines, matches));
  let lastPass = -1;
  let lastHolds = false;
  return {
    json: referenceJson(leaves, group.json, group.total.jreParams),
    test: holds,
    selects(facts, index, pass) {
      if (!matches(facts.lines[index])) return false;
      if (pass !== lastPass) {
        lastPass = pass;
        lastHolds = holds(facts);
      }
      return lastHolds;
    },
  };
}

function optionalBoolean(raw: unknown, path: string): boolean {
  if (raw === undefined || raw === null) return false;
  if (typeof raw !== 'boolean') throw invalidRequest(path, mustBe('boolean'));
  return raw;
}

function optionalBundle(raw: unknown, path: string): number | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw !== 'number' || !Number.isSafeInteger(raw) || raw < 1) throw invalidRequest(path, mustBeIn('integer', { minimum: 1 }));
  return raw;
}
