/**
 * What a campaign's rule objects say about products, locations and tiers:
 * the values of the positive leaves (`in`, `eq`) on a field, found anywhere
 * in the condition tree. Used for the single read's product_ids_* and
 * locations_ids fields and for the list filters by location and tier.
 */

const POSITIVE = new Set(['in', 'eq']);
/** The leaves that exclude values (GET /vouchers/excluded_products). */
export const NEGATIVE = new Set(['not_in', 'neq']);

/** The values the rule's positive leaves (or the `operators` given) on `field` name; null when no such leaf. */
export function ruleValues(rule: unknown, field: string, operators: ReadonlySet<string> = POSITIVE): string[] | null {
  let found: string[] | null = null;
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      node.forEach(visit);
      return;
    }
    if (node === null || typeof node !== 'object') return;
    const leaf = node as Record<string, unknown>;
    if (leaf.field === field && operators.has(String(leaf.operator ?? 'eq'))) {
      const values = Array.isArray(leaf.values) ? leaf.values : leaf.value === undefined ? [] : [leaf.value];
      found = [...(found ?? []), ...values.map(String)];
    }
    Object.values(leaf).forEach(visit);
  };
  visit(rule);
  return found;
}

/** Whether a rule restricting `field` (if it does) accepts `value`. */
export function ruleAccepts(rule: unknown, field: string, value: string): boolean {
  const values = ruleValues(rule, field);
  return values === null || values.includes(value);
}
