/** What every operator of the rule language provides (one operator per file, listed in ./index.ts). */
/** A compiled rule value: a bigint is an integer beyond 2^53, as lossless JSON gives it. */
export type Scalar = string | number | bigint | boolean;

export type OperatorName = 'in' | 'not_in' | 'eq' | 'neq' | 'gt' | 'gte' | 'lt' | 'lte';

export interface Operator {
  readonly name: OperatorName;
  /** `in`/`not_in` compare against a list (`values`), the others against one `value`. */
  readonly takes: 'value' | 'values';
  /** gt/gte/lt/lte order numbers; they only apply to numeric fields. */
  readonly ordering: boolean;
  /** neq and not_in are exactly the negation of eq and in (so they hold when the fact is absent). */
  readonly negationOf?: OperatorName;
  /**
   * The leaf's test, built once from the compiled value(s): `read` takes the fact from F
   * (reading inside the operator's closure saves a call per leaf on the hot path).
   */
  test<F>(read: (facts: F) => unknown, value: Scalar | readonly Scalar[]): (facts: F) => boolean;
  /** The json-rules-engine operator with the same meaning. */
  readonly jre: string;
}
