import type { Operator } from './operator.js';

export const neq: Operator = {
  name: 'neq',
  takes: 'value',
  ordering: false,
  negationOf: 'eq',
  predicate(value) {
    return (fact) => fact !== value;
  },
  jre: 'notEqual',
};
