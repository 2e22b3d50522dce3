import { orderingOperator } from './ordering.js';

export const gte = orderingOperator('gte', 'greaterThanInclusive', (fact, bound) => fact >= bound);
