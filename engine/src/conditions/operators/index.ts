/** The registry of operators: the rule language's `operator` values. */
import { eq } from './eq.js';
import { gt } from './gt.js';
import { gte } from './gte.js';
import { inOperator } from './in.js';
import { lt } from './lt.js';
import { lte } from './lte.js';
import { neq } from './neq.js';
import { notIn } from './not-in.js';
import type { Operator, OperatorName } from './operator.js';

export type { Operator, OperatorName, Scalar } from './operator.js';

export const OPERATORS: Readonly<Record<OperatorName, Operator>> = {
  in: inOperator,
  not_in: notIn,
  eq,
  neq,
  gt,
  gte,
  lt,
  lte,
};

export function operatorNamed(name: string): Operator | undefined {
  return Object.hasOwn(OPERATORS, name) ? OPERATORS[name as OperatorName] : undefined;
}
