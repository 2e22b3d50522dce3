import type { Operator } from './operator.js';

export const eq: Operator = {
  name: 'eq',
  takes: 'value',
  ordering: false,
  test(read, value) {
    return (facts) => read(facts) === value;
  },
  jre: 'equal',
};
