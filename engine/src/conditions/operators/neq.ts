import type { Operator } from './operator.js';

export const neq: Operator = {
  name: 'neq',
  takes: 'value',
  ordering: false,
  negationOf: 'eq',
  test(read, value) {
    return (facts) => read(facts) !== value;
  },
  jre: 'notEqual',
};
