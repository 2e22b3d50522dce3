/** Test helpers for tier programs over cart metrics. */
import { expect } from 'vitest';
import { startServer, type TestServer } from '../testing/server.js';

/**
 * A server whose Company (UTC, cancellations at once) runs one tier program over `total_spent` with these levels,
 * valid 30 days, and has customer 1.
 */
export async function startSpendProgram(structure: readonly { level: number; name: string; threshold: number }[]): Promise<TestServer> {
  const server = await startServer();
  expect((await server.client.patch('/company', { cart_cancellation_wait_seconds: 0, timezone: 'UTC' })).status).toBe(200);
  expect((await server.client.post('/tier_programs', { name: 'Spend', attribute: 'total_spent', structure, validity_days: 30 })).status).toBe(200);
  expect((await server.client.post('/customers', { id: 1, name: 'Ana', registration_location_id: 1, country: 'ES' })).status).toBe(200);
  return server;
}
