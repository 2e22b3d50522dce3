import { orderingOperator } from './ordering.js';

export const lte = orderingOperator('lte', 'lessThanInclusive', (fact, bound) => fact <= bound);
