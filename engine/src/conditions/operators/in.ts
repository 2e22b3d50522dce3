import type { Operator, Scalar } from './operator.js';

export const inOperator: Operator = {
  name: 'in',
  takes: 'values',
  ordering: false,
  predicate(values) {
    const list = values as readonly Scalar[];
    return (fact) => list.includes(fact as Scalar);
  },
  jre: 'in',
};
