import type { Operator, Scalar } from './operator.js';

export const notIn: Operator = {
  name: 'not_in',
  takes: 'values',
  ordering: false,
  negationOf: 'in',
  test(read, values) {
    const list = values as readonly Scalar[];
    return (facts) => !list.includes(read(facts) as Scalar);
  },
  jre: 'notIn',
};
