import type { Operator, OperatorName } from './operator.js';

/**
 * gt, gte, lt, lte: the same operator but for the comparison. A fact that is not
 * a number (an absent or text attribute) never satisfies an ordering. A bigint fact
 * or bound (an integer beyond 2^53, as a lossless JSON parser gives it) is a number:
 * JavaScript compares a bigint with a number exactly.
 */
export function orderingOperator(name: OperatorName, jre: string, holds: (fact: number | bigint, bound: number | bigint) => boolean): Operator {
  return {
    name,
    takes: 'value',
    ordering: true,
    test(read, value) {
      const bound = value as number | bigint;
      return (facts) => {
        const fact = read(facts);
        return (typeof fact === 'number' || typeof fact === 'bigint') && holds(fact, bound);
      };
    },
    jre,
  };
}
