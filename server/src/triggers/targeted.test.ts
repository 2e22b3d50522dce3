/**
 * Targeted points campaigns on triggers and custom events take part with the customer's voucher as on a cart: the
 * effect names the voucher and its coupon in full, an inactive coupon is no coupon (nothing granted, the voucher
 * untouched), and engine version 1 spends the voucher only of the campaign it ran.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../testing/server.js';
import { balance, createCustomer, triggerCampaign } from '../points/testing.js';

describe('targeted points campaigns on triggers and custom events', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
    for (const id of [103, 104, 303]) await createCustomer(server.client, id, { country: 'ES' });
  });
  afterAll(async () => {
    await server.dispose();
  });

  const ok = async (res: Promise<{ status: number; text: string; body: any }>) => {
    const answer = await res;
    expect(answer.status, answer.text).toBe(200);
    return answer.body;
  };
  /** The customer's vouchers: [code, status, redemptions]. */
  const vouchersOf = async (customer: number) => {
    const list = await ok(server.client.get('/vouchers', { query: { customer_id: String(customer) } }));
    return (list.data as { code: string; status: string; redemptions: number }[]).map((v) => [v.code, v.status, v.redemptions]);
  };
  let sent = 0;
  const setCoupon = (campaign: number, active: boolean) => ok(server.client.patch(`/points/${campaign}`, { coupon_params: { active } }));

  const events = [
    ['trigger', async () => ({ when: 'tg' }), (customer: number) => server.client.post('/trigger', { trigger: 'tg', customer_id: customer })],
    [
      'custom event',
      async () => ({ custom_entity_definition_id: (await ok(server.client.post('/custom_event_definitions', { slug: 'tg-event', schema: { type: 'object' } }))).id }),
      // Each event its own data: an identical create within 5 minutes would answer as the first (common rule 8).
      (customer: number) => server.client.post('/custom_events', { slug: 'tg-event', customer_id: customer, data: { n: ++sent } }),
    ],
  ] as const;

  it.each(events)('%s: an inactive coupon is no coupon (nothing granted, voucher untouched); an active one answers coupon_info in full', async (kind, binding, send) => {
    const customer = kind === 'trigger' ? 103 : 104;
    const code = kind === 'trigger' ? 'TGSTATIC' : 'TGEVENT';
    const campaign = (await ok(server.client.post('/points', {
      rule_params: { name: 'Targeted', ...(await binding()), select_customers: 'targeted', rule_effects: [{ type: 'direct_value', value: 13 }] },
      coupon_params: { name: 'TG coupon', static_code: code },
    }))).id;
    const coupon = (await ok(server.client.get(`/points/${campaign}`))).coupon_info.coupon_id;
    await ok(server.client.post('/discounts/trigger', { customer_id: customer, coupon_id: coupon }));
    const [[voucher]] = await vouchersOf(customer);
    const voucherId = (await ok(server.client.get(`/vouchers/${voucher}`))).id;

    await setCoupon(campaign, false);
    const off = await ok(send(customer));
    expect(off).toMatchObject({ score: 0, effects: [] });
    expect(await vouchersOf(customer)).toEqual([[voucher, 'inactive', 0]]);
    expect((await balance(server.client, customer)).score).toBe(0);

    await setCoupon(campaign, true);
    const on = await ok(send(customer));
    expect(on.score).toBe(13);
    expect(on.effects).toEqual([expect.objectContaining({
      rule_id: campaign, value: 13,
      coupon_info: { voucher_id: voucherId, voucher_code: voucher, coupon_id: coupon, coupon_name: 'TG coupon', static_code: code },
    })]);
    expect(await vouchersOf(customer)).toEqual([[voucher, 'redeemed', 1]]);
  });

  it('engine version 1 spends no voucher of a campaign it did not run', async () => {
    const loyalty = await triggerCampaign(server.client, 'v1v', 5);
    const targeted = (await ok(server.client.post('/points', {
      rule_params: { name: 'V1V targeted', when: 'v1v', select_customers: 'targeted', priority: 1, rule_effects: [{ type: 'direct_value', value: 7 }] },
      coupon_params: { static_code: 'V1VB' },
    }))).id;
    await ok(server.client.post('/discounts/trigger', { customer_id: 303, loyalty_rule_id: targeted }));
    const [[voucher]] = await vouchersOf(303);
    await ok(server.client.patch('/company', { trigger_engine_version: 1 }));
    // Version 1 runs the first campaign in evaluation order (ascending priority, then id): the loyalty one.
    const ran = await ok(server.client.post('/trigger', { trigger: 'v1v', customer_id: 303, country: 'ES' }));
    expect(ran.score).toBe(5);
    expect(ran.effects.map((e: { rule_id: number }) => e.rule_id)).toEqual([loyalty]);
    expect(await vouchersOf(303)).toEqual([[voucher, 'active', 0]]);
  });
});
