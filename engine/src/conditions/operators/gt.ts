import type { Operator } from './operator.js';

export const gt: Operator = {
  name: 'gt',
  takes: 'value',
  ordering: true,
  test(read, value) {
    const bound = value as number;
    // A fact that is not a number (an absent or text attribute) never satisfies an ordering.
    return (facts) => {
      const fact = read(facts);
      return typeof fact === 'number' && fact > bound;
    };
  },
  jre: 'greaterThan',
};
