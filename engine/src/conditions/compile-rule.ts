/** compileRule: a rule_conditions or rule_application, compiled once into closures and its json-rules-engine form. */
import { atMostOf, counted, invalidRequest } from '../errors.js';
import type { CompiledRule } from './compiled-rule.js';
import { compileGroup } from './compile-condition.js';
import { newCompileContext, type ConditionNode } from './condition-node.js';
import type { CartFacts } from './facts.js';
import { readRule } from './read-rule.js';

/** Numbers each selectLines/bundles call (see ConditionNode.selects). */
let passes = 0;

/**
 * The most condition objects a rule holds, a campaign's rule_conditions and rule_application together: compiling
 * and every evaluation grow with them, and a body of 1 MiB holds tens of thousands (docs/decisions.md, 'Size caps').
 */
export const MAX_RULE_CONDITIONS = 500;

/** A rule of the same campaign compiled before this one: its conditions count against the same cap. */
export interface EarlierRule {
  readonly field: string;
  readonly size: number;
}

export function compileRule(raw: unknown, field: string, earlier?: EarlierRule): CompiledRule {
  const conditions = readRule(raw, field);
  const cap = MAX_RULE_CONDITIONS - (earlier?.size ?? 0);
  const context = newCompileContext(cap, () =>
    invalidRequest(field, earlier && earlier.size > 0 ? `${atMostOf(cap, 'condition')} (${MAX_RULE_CONDITIONS} with the ${counted(earlier.size, 'condition')} of ${earlier.field})` : atMostOf(cap, 'condition')),
  );
  const root: ConditionNode = compileGroup(conditions ?? { and: [] }, `${field}.conditions`, context, 0);
  const parts = context.bundleParts;

  const products = root.lineProducts;
  const selectLines = (facts: CartFacts): boolean[] => {
    if (products !== null && !holdsAnyProduct(facts, products)) return facts.lines.map(() => false);
    const pass = ++passes;
    const selected = new Array<boolean>(facts.lines.length);
    for (let i = 0; i < selected.length; i++) selected[i] = root.selects(facts, i, pass);
    return selected;
  };

  const bundles = (facts: CartFacts): Map<number, number[]> => {
    const pass = ++passes;
    const byBundle = new Map<number, number[]>();
    for (const { bundle, node } of parts) {
      const lines = byBundle.get(bundle) ?? [];
      for (let i = 0; i < facts.lines.length; i++) {
        if (!lines.includes(i) && node.selects(facts, i, pass)) lines.push(i);
      }
      byBundle.set(bundle, lines.sort((a, b) => a - b));
    }
    return byBundle;
  };

  return Object.freeze({
    json: root.json,
    test: root.test,
    selectLines,
    bundles,
    productIds: [...context.productIds],
    locationIds: [...context.locationIds],
    locationCodes: [...context.locationCodes],
    size: context.size,
  });
}

/** Whether a line of the cart has one of `products` (the smaller set is walked). */
function holdsAnyProduct(facts: CartFacts, products: ReadonlySet<string>): boolean {
  const held = productIdsOf(facts);
  const [few, many] = products.size <= held.size ? [products, held] : [held, products];
  for (const id of few) if (many.has(id)) return true;
  return false;
}

/** The cart's product ids, built by the first rule that asks and kept for the others (facts are never written). */
let lastFacts: CartFacts | undefined;
let lastProductIds: ReadonlySet<string> = new Set();
function productIdsOf(facts: CartFacts): ReadonlySet<string> {
  if (facts !== lastFacts) {
    const ids = new Set<string>();
    for (const line of facts.lines) if (line.product_id !== undefined) ids.add(line.product_id);
    lastFacts = facts;
    lastProductIds = ids;
  }
  return lastProductIds;
}
