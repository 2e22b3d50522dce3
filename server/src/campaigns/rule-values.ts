/**
 * What a campaign's rule objects say about products, locations and tiers:
 * the values of the positive leaves (`in`, `eq`) on a field, found anywhere
 * in the condition tree (the single read's product_ids_* and locations_ids
 * fields, the list filter by tier), and whether the location leaves let a
 * campaign run at a location (the campaign, game and instant-win list filters
 * by location, and voucher_out_location).
 */
import { compileRule, type CartFacts } from '@tally/engine';
import type { LocationRef } from '../vouchers/location.js';


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

const LOCATION_FIELDS = new Set(['location_id', 'location_code', 'location_feature']);
/** An empty group: it holds (docs/rules.md). */
const HOLDS = { and: [] };
/** A cart with nothing but a location: the cut-down rule reads no other fact. */
const AT_LOCATION: Omit<CartFacts, 'location_id' | 'location_code' | 'location_features'> = {
  total: 0, original_total: 0, currency: '', attributes: {}, customer: { identified: false, attributes: {} },
  creation_date: { weekday: 1, hour: 0 }, lines: [],
};

/**
 * Whether a cart at `location` (its id, code and features, as known) can meet the rule's location leaves
 * (location_id, location_code and location_feature, any operator, inside and/or): the rule cut down to those leaves,
 * every other item taken to hold (it may), tested as carts test it. A compiled (stored) rule only.
 */
export function ruleAdmitsLocation(rule: unknown, location: LocationRef): boolean {
  const conditions = (rule as { conditions?: unknown } | undefined)?.conditions;
  if (conditions === undefined || conditions === null) return true;
  const cut = compileRule({ conditions: locationPart(conditions) }, 'rule_conditions');
  return cut.test({ ...AT_LOCATION, location_id: location.id, location_code: location.code, location_features: location.features ?? [] });
}

function locationPart(node: unknown): unknown {
  const item = node as Record<string, unknown>;
  for (const kind of ['and', 'or'] as const) {
    const items = item[kind];
    if (Array.isArray(items)) return { [kind]: items.map(locationPart) };
  }
  const onLocation = !('array_field' in item) && !('conditions' in item) && LOCATION_FIELDS.has(String(item.field));
  return onLocation ? item : HOLDS;
}
