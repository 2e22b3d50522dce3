/**
 * `total_spent` counts what each cart charged: its total as GET /carts reads it, after the evaluation's discounts
 * (a cart sent at 45 with a voucher of 5 adds 40), in challenges and tier programs alike; its cancellation takes back
 * exactly what it added, and a cart stored before carts recorded that (it added the total it sent) too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer } from '../points/testing.js';
import { openStore } from '../store/env.js';
import { cartBody } from '../testing/carts.js';
import { startServer, type TestServer } from '../testing/server.js';
import { CartStore } from '../carts/store.js';
import { ChallengeStore } from './store.js';

describe('total_spent counts the total charged', () => {
  let server: TestServer;
  let challenge: number;
  let nextCart = 70_000;
  const TENANT = { companyId: 'default', environment: 'sandbox' } as const;
  const ok = async (res: Promise<{ status: number; text: string; body: any }>) => {
    const answer = await res;
    expect(answer.status, answer.text).toBe(200);
    return answer.body;
  };
  const spent = async (customer: number) => ({
    challenge: (await ok(server.client.get(`/customers/${customer}/challenges/${challenge}`))).attribute_value,
    tier: (await ok(server.client.get(`/customers/${customer}/tiers`))).data[0].attribute_value,
  });
  /** A cart of 45 using the customer's voucher of 5 off: answered (and read) at 40. */
  const voucherCart = async (customer: number, voucher: string) => {
    const id = nextCart++;
    const answer = await ok(server.client.post('/carts/realtime', cartBody(45, { id, customer_id: customer, coupons_desired: [voucher] })));
    expect(answer.vouchers.map((v: { voucher_code: string }) => v.voucher_code)).toEqual([voucher]);
    expect((await ok(server.client.get(`/carts/${id}`))).total).toBe(40);
    return id;
  };
  const cancel = (id: number) => ok(server.client.post('/carts/cancellation', { cart_to_cancel_id: id, new_cart_id: nextCart++ }));

  beforeAll(async () => {
    server = await startServer();
    await ok(server.client.patch('/company', { cart_cancellation_wait_seconds: 0, timezone: 'UTC' }));
    const fiveOff = await ok(server.client.post('/discounts', {
      rule_params: { name: 'Five off', select_customers: 'targeted', rule_effects: [{ type: 'direct_value', value: 5, distribution: 'total' }] },
      coupon_params: { name: 'Five off coupon' },
    }));
    challenge = (await ok(server.client.post('/challenges', { name: 'Spend', attribute: 'total_spent', open_to_all: true, structure: [{ level: 1, name: 'Starter', threshold: 1000 }] }))).id;
    await ok(server.client.post('/tier_programs', { name: 'Spend', attribute: 'total_spent', structure: [{ level: 1, name: 'Base', threshold: 0 }, { level: 2, name: 'Gold', threshold: 1000 }] }));
    for (const customer of [1, 2]) {
      await createCustomer(server.client, customer, { country: 'ES' });
      await ok(server.client.post('/discounts/trigger', { customer_id: customer, loyalty_rule_id: fiveOff.id, external_voucher_code: `FIVE${customer}` }));
    }
  });
  afterAll(() => server.dispose());

  it('a cart sent at 45 with a voucher of 5 adds 40 to challenge progress and the tier value; its cancellation takes the 40 back', async () => {
    const id = await voucherCart(1, 'FIVE1');
    expect(await spent(1)).toEqual({ challenge: 40, tier: 40 });
    await ok(server.client.post('/carts/realtime', cartBody(12.5, { id: nextCart++, customer_id: 1 })));
    expect(await spent(1)).toEqual({ challenge: 52.5, tier: 52.5 });
    await cancel(id);
    expect(await spent(1)).toEqual({ challenge: 12.5, tier: 12.5 });
  });

  it('a cart whose customer id names no customer adds nothing, and its cancellation takes nothing: the customer registered later starts at 0', async () => {
    const id = nextCart++;
    await ok(server.client.post('/carts/realtime', cartBody(12.5, { id, customer_id: 999 })));
    await cancel(id);
    await createCustomer(server.client, 999, { country: 'ES' });
    expect(await spent(999)).toEqual({ challenge: 0, tier: 0 });
    await ok(server.client.post('/carts/realtime', cartBody(20, { id: nextCart++, customer_id: 999 })));
    expect(await spent(999)).toEqual({ challenge: 20, tier: 20 });
  });

  it('a cart stored before carts recorded what they added (the total sent) is cancelled exactly', async () => {
    const id = await voucherCart(2, 'FIVE2');
    // As an older version stored it: no total_spent_cents on the cart, and the 45 it sent counted in the metrics.
    await server.stop();
    const env = openStore(server.dataDir);
    try {
      const carts = new CartStore(env);
      await env.transact(() => {
        const { total_spent_cents: added, ...legacy } = carts.get(TENANT, String(id))!;
        expect(added).toBe(4000);
        carts.putInTransaction(TENANT, legacy);
        new ChallengeStore(env).addCartInTransaction(TENANT, '2', legacy.metrics_day!, { total_spent_cents: 500, carts: 0, points_earned: 0 });
      });
    } finally {
      await env.close();
    }
    await server.restart();
    expect(await spent(2)).toEqual({ challenge: 45, tier: 45 });
    await cancel(id);
    // The 45 it added, not the 40 it charged (which would leave 5).
    expect(await spent(2)).toEqual({ challenge: 0, tier: 0 });
  });
});
