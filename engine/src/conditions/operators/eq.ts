import type { Operator } from './operator.js';

export const eq: Operator = {
  name: 'eq',
  takes: 'value',
  ordering: false,
  predicate(value) {
    return (fact) => fact === value;
  },
  jre: 'equal',
};
