import { orderingOperator } from './ordering.js';

export const gt = orderingOperator('gt', 'greaterThan', (fact, bound) => fact > bound);
