/** The compiled form of one rule (rule_conditions or rule_application), as the evaluator uses it. */
import type { CartFacts } from './facts.js';

export interface CompiledRule {
  /** json-rules-engine TopLevelCondition ({all: [...]} or {any: [...]}) with the same meaning: the reference semantics, exportable. */
  readonly json: Record<string, unknown>;
  /** Fast path, used as campaign conditions: does the cart satisfy the rule? (true for an empty/absent rule) */
  test(facts: CartFacts): boolean;
  /** Fast path, used as campaign application: for each facts.lines[i], does the effect act on it? (all true for an absent rule) */
  selectLines(facts: CartFacts): boolean[];
  /** Lines of each combo part by `bundle` number (for combo_price); an empty map when the rule has no bundle. */
  bundles(facts: CartFacts): Map<number, number[]>;
  /** Product ids named by `in`/`eq` leaves on product_id (the contract's product_ids_rule_conditions / _application). */
  readonly productIds: string[];
  /** Location ids named by `in`/`eq` leaves on location_id (the contract's locations_ids). */
  readonly locationIds: string[];
  /** Location codes named by `in`/`eq` leaves on location_code (the contract's location_codes). */
  readonly locationCodes: string[];
  /** Condition objects the rule holds (every item of a group, every leaf of a line condition): what MAX_RULE_CONDITIONS caps. */
  readonly size: number;
}
