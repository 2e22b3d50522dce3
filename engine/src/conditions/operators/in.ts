import type { Operator, Scalar } from './operator.js';

export const inOperator: Operator = {
  name: 'in',
  takes: 'values',
  ordering: false,
  test(read, values) {
    const list = values as readonly Scalar[];
    return (facts) => list.includes(read(facts) as Scalar);
  },
  jre: 'in',
};
