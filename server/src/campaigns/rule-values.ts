/**
 * What a campaign's rule objects say about products, locations and tiers:
 * the values of the positive leaves (`in`, `eq`) on a field, found anywhere
 * in the condition tree (the single read's product_ids_* and locations_ids
 * fields, the list filter by tier), and whether the location leaves let a
 * campaign run at a location (the campaign, game and instant-win list filters
 * by location, and voucher_out_location).
 */
import { compileRule, type CartFacts, type CompiledRule } from '@tally/engine';
import { tenantPrefix } from '../store/keys.js';
import type { RequestLocation } from '../vouchers/location.js';
import { CompiledCache, versionOf } from './compiled.js';


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
/** An item of the cut-down rule that holds whatever the location (a leaf on another fact: it may). */
const HOLDS = Symbol('holds');
/** A cart with nothing but a location: the cut-down rule reads no other fact. */
const AT_LOCATION: Omit<CartFacts, 'location_id' | 'location_code' | 'location_features'> = {
  total: 0, original_total: 0, currency: '', attributes: {}, customer: { identified: false, attributes: {} },
  creation_date: { weekday: 1, hour: 0 }, lines: [],
};

/** A stored campaign, game or instant win: its version keys its compiled location rule. */
interface RuleRecord {
  id: string;
  history_id?: string;
  updated_at: string;
  rule_params: { rule_conditions?: unknown };
}

/**
 * The cut-down rules by Company environment and record version (a write gives a new history id, so an edited
 * campaign is compiled again), null for a rule without conditions. Large enough for the lists' pages of many
 * campaigns (a rule with location leaves only is small).
 */
const locationRules = new CompiledCache<CompiledRule | null>(4096);

/**
 * Whether a cart at `location` (its id, code and features, as known) can meet the record's location leaves
 * (location_id, location_code and location_feature, any operator, inside and/or): the rule cut down to those leaves,
 * every other item taken to hold (it may), tested as carts test it. A compiled (stored) rule only, compiled once
 * per record version.
 */
export function ruleAdmitsLocation(record: RuleRecord, location: RequestLocation): boolean {
  const cut = locationRules.get(`${tenantPrefix(location.tenant)}:${versionOf(record)}`, () => {
    const conditions = (record.rule_params.rule_conditions as { conditions?: unknown } | undefined)?.conditions;
    const part = conditions === undefined || conditions === null ? HOLDS : locationPart(conditions);
    return part === HOLDS ? null : compileRule({ conditions: part }, 'rule_conditions');
  });
  return cut === null || cut.test({ ...AT_LOCATION, location_id: location.id, location_code: location.code, location_features: location.features ?? [] });
}

/**
 * The location leaves of a rule, in its groups: an `and` keeps the items that do not hold anyway, an `or` with an
 * item that holds holds. Never deeper than the rule (a group put in a leaf's place would pass the depth limit of a
 * rule nested to it, and refuse the list).
 */
function locationPart(node: unknown): unknown {
  const item = node as Record<string, unknown>;
  if (Array.isArray(item.and)) {
    const kept = item.and.map(locationPart).filter((part) => part !== HOLDS);
    return kept.length === 0 ? HOLDS : { and: kept };
  }
  if (Array.isArray(item.or)) {
    const parts = item.or.map(locationPart);
    return parts.length === 0 || parts.includes(HOLDS) ? HOLDS : { or: parts };
  }
  const onLocation = !('array_field' in item) && !('conditions' in item) && LOCATION_FIELDS.has(String(item.field));
  return onLocation ? item : HOLDS;
}
