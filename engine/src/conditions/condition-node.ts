/** The tree a rule compiles to: each node knows its json-rules-engine form and its fast closures. */
import type { TallyError } from '../errors.js';
import type { CartFacts } from './facts.js';

export interface ConditionNode {
  /** The node in json-rules-engine's format (the reference semantics). */
  readonly json: Record<string, unknown>;
  /** As a campaign condition: does the cart satisfy the node? */
  test(facts: CartFacts): boolean;
  /**
   * As a campaign application: does the node select line `index`? `pass` numbers the
   * selectLines call, so that a group total is computed once per call, not once per line.
   */
  selects(facts: CartFacts, index: number, pass: number): boolean;
  /**
   * Product ids every line the node selects has (its product_id is one of them), or null when
   * the node does not narrow lines by product: selectLines skips a campaign whose ids the cart
   * does not hold without asking each line (most campaigns of a program, on most carts).
   * Every node is built with its properties in this order (json, test, selects, lineProducts):
   * one hidden class keeps the calls of `test` and `selects` in a group's loop monomorphic.
   */
  readonly lineProducts: ReadonlySet<string> | null;
}

/** What compiling collects beside the tree. */
export interface CompileContext {
  readonly productIds: Set<string>;
  readonly locationIds: Set<string>;
  readonly locationCodes: Set<string>;
  /** Line conditions with a `bundle` number, in the order written. */
  readonly bundleParts: { bundle: number; node: ConditionNode }[];
  /** Condition objects compiled so far (every item of a group, every leaf of a line condition). */
  readonly size: number;
  /** Counts one condition object before it is compiled: throws `refusal()` past `cap`, so a huge rule costs no more than the cap. */
  count(): void;
}

export function newCompileContext(cap: number, refusal: () => TallyError): CompileContext {
  let size = 0;
  return {
    productIds: new Set(),
    locationIds: new Set(),
    locationCodes: new Set(),
    bundleParts: [],
    get size() {
      return size;
    },
    count() {
      size += 1;
      if (size > cap) throw refusal();
    },
  };
}
