/**
 * The cart the HTTP tests of other resources send: one line (product 1,
 * quantity 1) worth the total, created now. The carts suite builds its own.
 */
import { expect } from 'vitest';
import type { Client, TestResponse } from './server.js';

/** A cart body worth `total`; `fields` adds or replaces fields (customer_id, id, coupons_desired, creation_date, ...). */
export function cartBody(total: number, fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    creation_date: new Date().toISOString().slice(0, 19) + 'Z',
    total,
    lines: [{ order: 1, product_id: 1, total, quantity: 1 }],
    ...fields,
  };
}

/** Posts a realtime cart of the customer worth `total` (cartBody) and expects it processed. */
export async function realtimeCart(client: Client, customerId: number, total: number, fields: Record<string, unknown> = {}): Promise<TestResponse> {
  const res = await client.post('/carts/realtime', cartBody(total, { customer_id: customerId, ...fields }));
  expect(res.status, res.text).toBe(200);
  return res;
}
