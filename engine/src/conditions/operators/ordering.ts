import type { Operator, OperatorName } from './operator.js';

/**
 * gt, gte, lt, lte: the same operator but for the comparison. A fact that is not
 * a number (an absent or text attribute) never satisfies an ordering.
 */
export function orderingOperator(name: OperatorName, jre: string, holds: (fact: number, bound: number) => boolean): Operator {
  return {
    name,
    takes: 'value',
    ordering: true,
    test(read, value) {
      const bound = value as number;
      return (facts) => {
        const fact = read(facts);
        return typeof fact === 'number' && holds(fact, bound);
      };
    },
    jre,
  };
}
