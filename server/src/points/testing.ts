/** Test fixtures of the points, trigger and custom-event suites: customers, bound points campaigns, grants. */
import { expect } from 'vitest';
import type { Client } from '../testing/server.js';

export async function createCustomer(client: Client, id: number, extra: Record<string, unknown> = {}): Promise<void> {
  const res = await client.post('/customers', { id, name: `Customer ${id}`, registration_location_id: 1, ...extra });
  expect(res.status, res.text).toBe(200);
}

/** A points campaign of `points` points bound to the trigger `slug`; returns its id. */
export async function triggerCampaign(client: Client, slug: string, points: number, params: Record<string, unknown> = {}): Promise<number> {
  const res = await client.post('/points', {
    rule_params: { name: `${slug} ${points}`, when: slug, rule_effects: [{ type: 'direct_value', value: points, distribution: 'total' }], ...params },
  });
  expect(res.status, res.text).toBe(200);
  return res.body.id as number;
}

/** Runs one campaign of a trigger for a customer; returns the response body. */
export async function grant(client: Client, slug: string, customerId: number, campaignId: number, extra: Record<string, unknown> = {}) {
  const res = await client.post('/trigger', { trigger: slug, customer_id: customerId, loyalty_rule_id: campaignId, ...extra });
  expect(res.status, res.text).toBe(200);
  return res.body;
}

export async function balance(client: Client, customerId: number) {
  const res = await client.get(`/customers/${customerId}/points`);
  expect(res.status, res.text).toBe(200);
  return res.body as { score: number; score_available: number };
}

export async function transactions(client: Client, customerId: number, query: Record<string, string> = {}) {
  const res = await client.get('/points/transactions', { query: { customer_id: String(customerId), per_page: '100', ...query } });
  expect(res.status, res.text).toBe(200);
  return res.body.data as { id: number; type: string; created_at: string; amount: number; pending_amount: number; scores: { loyalty_score_id: number | null; score: number; loyalty_score_name: string | null }[]; origin_info: Record<string, unknown>; author?: string }[];
}

/** The balance equals the sum of the transactions: Σ amount = available, Σ pending_amount = pending. */
export async function expectLedgerAddsUp(client: Client, customerId: number): Promise<void> {
  const txs = await transactions(client, customerId);
  const b = await balance(client, customerId);
  const available = txs.reduce((sum, t) => sum + t.amount, 0);
  const pending = txs.reduce((sum, t) => sum + t.pending_amount, 0);
  expect(b.score_available).toBe(available);
  expect(b.score).toBe(available + pending);
}

/** The Company's local date `days` from today (tests run the Company in UTC unless they change it). */
export function utcDate(days: number): string {
  const d = new Date();
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}
