/** Fixtures of the rewards suites: a location, rewards, customers with points. */
import { expect } from 'vitest';
import { createCustomer, grant, triggerCampaign } from '../points/testing.js';
import type { Client } from '../testing/server.js';

export const LOCATION = { id: 10, code: 'MAD-01', name: 'Madrid', country: 'ES' };

export async function createReward(client: Client, body: Record<string, unknown>): Promise<number> {
  const res = await client.post('/rewards', { name: 'Mug', points: 100, type: 'physical', ...body });
  expect(res.status, res.text).toBe(200);
  return res.body.id as number;
}

/** Customers with `points` points each (granted by a trigger campaign). */
export async function customersWithPoints(client: Client, ids: number[], points: number, extra: Record<string, unknown> = {}): Promise<void> {
  const campaign = await triggerCampaign(client, `gift_${ids[0]}_${points}`, points);
  for (const id of ids) {
    await createCustomer(client, id, { country: 'ES', ...extra });
    if (points > 0) await grant(client, `gift_${ids[0]}_${points}`, id, campaign);
  }
}

export function redeem(client: Client, rewardId: number, customerId: number, extra: Record<string, unknown> = {}) {
  return client.post(`/rewards/${rewardId}/redeem`, { location_id: LOCATION.id, customer_id: customerId, ...extra });
}
