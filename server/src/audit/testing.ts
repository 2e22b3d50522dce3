/** Test helpers for the audit log's tests: its entries as GET /audit_log answers them. */
import { expect } from 'vitest';
import type { Client } from '../testing/server.js';

/** The first 100 entries matching `query`, newest first (the request must succeed). */
export async function auditEntries(client: Client, query: Record<string, string> = {}): Promise<any[]> {
  const res = await client.get('/audit_log', { query: { per_page: '100', ...query } });
  expect(res.status, res.text).toBe(200);
  return res.body.data as any[];
}

/** Awaits a request that must answer 200. */
export async function succeeds(promise: Promise<{ status: number; text: string }>): Promise<void> {
  const res = await promise;
  expect(res.status, res.text).toBe(200);
}
