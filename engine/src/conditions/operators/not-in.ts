import type { Operator, Scalar } from './operator.js';

export const notIn: Operator = {
  name: 'not_in',
  takes: 'values',
  ordering: false,
  negationOf: 'in',
  predicate(values) {
    const list = values as readonly Scalar[];
    return (fact) => !list.includes(fact as Scalar);
  },
  jre: 'notIn',
};
