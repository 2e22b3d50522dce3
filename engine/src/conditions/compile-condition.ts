/** One item of a rule: an `and`/`or` group, a line condition, or a leaf on a cart field. */
import { cannotBeSentWith, invalidRequest, mustBe } from '../errors.js';
import type { CompileContext, ConditionNode } from './condition-node.js';
import { checkKeys, compileLeaf, isPlainObject, LEAF_KEYS, withoutNullLineKeys } from './compile-leaf.js';
import { compileLineCondition } from './compile-line-condition.js';
import { cartField } from './fields/cart-fields.js';

/** Deep enough for any hand-written rule; stops a hostile one from exhausting the stack. */
export const MAX_DEPTH = 16;

export function compileCondition(raw: unknown, path: string, context: CompileContext, depth: number): ConditionNode {
  context.count();
  if (!isPlainObject(raw)) throw invalidRequest(path, mustBe('object'));
  if ('and' in raw || 'or' in raw) return compileGroup(raw, path, context, depth);
  const item = withoutNullLineKeys(raw);
  if ('array_field' in item || 'conditions' in item) return compileLineCondition(item, path, context);
  return compileCartLeaf(item, path, context);
}

/** `{and: [...]}` or `{or: [...]}`; an empty group puts no constraint (holds, selects every line). */
export function compileGroup(raw: Record<string, unknown>, path: string, context: CompileContext, depth: number): ConditionNode {
  if (depth >= MAX_DEPTH) throw invalidRequest(path, `nested deeper than ${MAX_DEPTH} levels`);
  if ('and' in raw && 'or' in raw) throw cannotBeSentWith(`${path}.or`, `${path}.and`);
  const kind = 'and' in raw ? 'and' : 'or';
  checkKeys(raw, [kind, 'key'], path);
  const items = raw[kind];
  if (!Array.isArray(items)) throw invalidRequest(`${path}.${kind}`, mustBe('array'));
  const children = items.map((item, i) => compileCondition(item, `${path}.${kind}[${i}]`, context, depth + 1));
  const json = { [kind === 'and' ? 'all' : 'any']: children.map((child) => child.json) };
  // A group of one item means the item: skipping the level saves a call per line on the hot path.
  if (children.length === 1) return { json, test: children[0].test, selects: children[0].selects, lineProducts: children[0].lineProducts };
  if (kind === 'and' || children.length === 0) {
    return {
      json,
      test(facts) {
        for (let i = 0; i < children.length; i++) if (!children[i].test(facts)) return false;
        return true;
      },
      selects(facts, index, pass) {
        for (let i = 0; i < children.length; i++) if (!children[i].selects(facts, index, pass)) return false;
        return true;
      },
      lineProducts: narrowestOf(children),
    };
  }
  return {
    json,
    test(facts) {
      for (let i = 0; i < children.length; i++) if (children[i].test(facts)) return true;
      return false;
    },
    selects(facts, index, pass) {
      for (let i = 0; i < children.length; i++) if (children[i].selects(facts, index, pass)) return true;
      return false;
    },
    lineProducts: unionOf(children),
  };
}

function compileCartLeaf(raw: Record<string, unknown>, path: string, context: CompileContext): ConditionNode {
  // The contract's item shape carries grouped/bundle on every item; on a cart leaf only their empty values mean something.
  checkKeys(raw, [...LEAF_KEYS, 'grouped', 'bundle'], path);
  if (raw.grouped !== undefined && raw.grouped !== null && raw.grouped !== false) throw invalidRequest(`${path}.grouped`, 'only a line condition is grouped');
  if (raw.bundle !== undefined && raw.bundle !== null) throw invalidRequest(`${path}.bundle`, 'only a line condition is a bundle part');
  const leaf = compileLeaf(raw, path, cartField, 'cart');
  if (!leaf.operator.negationOf) {
    if (leaf.field.name === 'location_id') for (const id of leaf.values) context.locationIds.add(id as string);
    if (leaf.field.name === 'location_code') for (const code of leaf.values) context.locationCodes.add(code as string);
  }
  const holds = leaf.holds;
  // A cart leaf selects every line or none: it does not narrow lines by product.
  return { json: leaf.json, test: holds, selects: holds, lineProducts: null };
}

/** An `and` selects only lines every child selects: the smallest product set among the children holds for all. */
function narrowestOf(children: readonly ConditionNode[]): ReadonlySet<string> | null {
  let narrowest: ReadonlySet<string> | null = null;
  for (const { lineProducts } of children) if (lineProducts && (!narrowest || lineProducts.size < narrowest.size)) narrowest = lineProducts;
  return narrowest;
}

/** An `or` selects the lines any child selects: narrowed only when every child is, to the union. */
function unionOf(children: readonly ConditionNode[]): ReadonlySet<string> | null {
  const union = new Set<string>();
  for (const { lineProducts } of children) {
    if (!lineProducts) return null;
    for (const id of lineProducts) union.add(id);
  }
  return union;
}
