import { orderingOperator } from './ordering.js';

export const lt = orderingOperator('lt', 'lessThan', (fact, bound) => fact < bound);
