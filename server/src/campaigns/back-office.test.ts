/**
 * A marketing back office maintaining campaigns over HTTP (docs/campaigns.md):
 * what a read shows as null can be written back, and a restriction once set
 * (an end date, a budget, a recurrence, a static code) can be lifted again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cartBody } from '../testing/carts.js';
import { startServer, type TestServer } from '../testing/server.js';

const oneOff = [{ type: 'direct_value', value: 1, distribution: 'total' }];

describe('campaigns kept by a back office', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
    const customer = await server.client.post('/customers', { id: 1, code: 'C1', name: 'Ana', registration_location_id: 1 });
    expect(customer.status, customer.text).toBe(200);
  });
  afterAll(async () => {
    await server.dispose();
  });

  const applied = async (fields: Record<string, unknown> = {}) => {
    const res = await server.client.post('/carts/simulate', cartBody(50, { customer_id: 1, ...fields }));
    expect(res.status, res.text).toBe(200);
    return { names: (res.body.effects as { rule_name: string }[]).map((e) => e.rule_name), invalid: res.body.invalid_coupons };
  };

  it('lifts an end date, a recurrence, limits, a budget and a country restriction with null on PATCH; carts apply the campaign again', async () => {
    const created = await server.client.post('/discounts', {
      rule_params: {
        name: 'Ended', description: 'Gone', rule_effects: oneOff, available_to: '2020-01-31',
        recurrence_type: 'monthly', recurrence_days: [31], once: 'num_day', once_limit: 1,
        budget_value: 0.01, budget_period: 'num_day', customer_registration_countries: ['FR'], currency: 'USD',
      },
      coupon_params: { static_code: 'ENDED', key: 'k', external_id: 'x', name: 'Ended coupon', max_redemptions: 2 },
    });
    expect(created.status, created.text).toBe(200);
    const id = created.body.id;
    expect((await applied()).names).not.toContain('Ended');

    const cleared = await server.client.patch(`/discounts/${id}`, {
      rule_params: {
        description: null, available_to: null, recurrence_type: null, recurrence_days: null, once: null, once_limit: null,
        budget_value: null, budget_period: null, customer_registration_countries: null, currency: null,
      },
      coupon_params: { static_code: null, key: null, external_id: null, name: null, max_redemptions: null },
    });
    expect(cleared.status, cleared.text).toBe(200);
    const read = await server.client.get(`/discounts/${id}`);
    expect(read.body).toMatchObject({
      description: null, available_to: null, recurrence_type: null, recurrence_days: null, once: null, once_limit: null,
      budget_value: null, budget_period: null, customer_registration_countries: [], currency: null,
      coupon_info: { coupon_id: expect.any(Number), static_code: null, coupon_name: null, key: null, external_id: null },
    });
    // No end date, no recurrence, no limit, no budget: two carts in a row both get it.
    expect((await applied()).names).toContain('Ended');
    const first = await server.client.post('/carts/realtime', cartBody(50, { customer_id: 1 }));
    expect(first.body.effects.map((e: { rule_name: string }) => e.rule_name)).toContain('Ended');
    expect((await applied()).names).toContain('Ended');
    // The static code is free again and no longer names the campaign.
    expect((await server.client.get('/discounts/ENDED', { query: { search_by: 'static_code' } })).status).toBe(404);
    const other = await server.client.post('/discounts', { rule_params: { name: 'Takes the code', rule_effects: oneOff }, coupon_params: { static_code: 'ENDED' } });
    expect(other.status, other.text).toBe(200);
  });

  it('takes a read sent back whole as rule_params (nulls and defaults included) and changes nothing', async () => {
    const created = await server.client.post('/points', {
      rule_params: { name: 'Plain', rule_effects: [{ type: 'ratio', value: 1, distribution: 'individual_items' }] },
    });
    const before = (await server.client.get(`/points/${created.body.id}`)).body;
    const fields = [
      'description', 'when', 'active', 'available_from', 'available_to', 'recurrence_type', 'recurrence_days', 'currency',
      'coupon_required', 'select_customers', 'customer_registration_countries', 'once', 'once_limit', 'budget_value', 'budget_period',
      'stackability_properties', 'priority', 'rule_conditions', 'rule_application', 'rule_effects', 'partner_id', 'custom_entity_definition_id',
      'transferable', 'activation_period_type', 'activation_date', 'expiration_date', 'availability_duration', 'availability_duration_unit',
    ];
    const sentBack = Object.fromEntries(fields.map((field) => [field, before[field]]));
    const res = await server.client.patch(`/points/${created.body.id}`, { rule_params: sentBack });
    expect(res.status, res.text).toBe(200);
    const after = (await server.client.get(`/points/${created.body.id}`)).body;
    expect({ ...after, campaign_history_id: 0 }).toEqual({ ...before, campaign_history_id: 0 });
  });

  it('reads back the coupon_params it set (single reads), each field null or the value Tally applies when unset; lists do not carry them', async () => {
    const coupon = {
      static_code: 'READBACK', key: 'k1', name: 'Gift coupon', description: 'For you', active: true, max_redemptions: 3,
      available_days: 10, available_delay_days: 1, print_days: 5, print_delay_days: 2, printable: true, priority: 7,
      external_id: 'ext-9', auto_select: true, available_from: '2026-01-01', available_to: '2026-12-31T22:00:00Z',
      print_from: '2026-02-01', print_to: '2026-11-30',
    };
    const created = await server.client.post('/discounts', { rule_params: { name: 'Read back', rule_effects: oneOff }, coupon_params: coupon });
    expect(created.status, created.text).toBe(200);
    const read = (await server.client.get(`/discounts/${created.body.id}`)).body;
    expect(read.coupon_params).toEqual(coupon);
    // Sent back whole, it is taken and changes nothing.
    const sentBack = await server.client.patch(`/discounts/${created.body.id}`, { coupon_params: read.coupon_params });
    expect(sentBack.status, sentBack.text).toBe(200);
    expect((await server.client.get(`/discounts/${created.body.id}`)).body.coupon_params).toEqual(coupon);

    // Unset: null, or the value Tally applies (an active coupon, one redemption a voucher, priority 0, not printable, not selected).
    const cleared = await server.client.patch(`/discounts/${created.body.id}`, {
      coupon_params: Object.fromEntries(Object.keys(coupon).map((field) => [field, null])),
    });
    expect(cleared.status, cleared.text).toBe(200);
    expect((await server.client.get(`/discounts/${created.body.id}`)).body.coupon_params).toEqual({
      ...Object.fromEntries(Object.keys(coupon).map((field) => [field, null])),
      active: true, max_redemptions: 1, priority: 0, printable: false, auto_select: false,
    });

    // A name per language (in languages the Company configures) reads as sent; a points campaign's coupon too; no coupon reads null.
    expect((await server.client.patch('/company', { languages: ['en', 'es'] })).status).toBe(200);
    const points = await server.client.post('/points', {
      rule_params: { name: 'Points back', rule_effects: [{ type: 'ratio', value: 1 }] },
      coupon_params: { name: { en: 'Gift', es: 'Regalo' }, max_redemptions: 2 },
    });
    expect(points.status, points.text).toBe(200);
    expect((await server.client.get(`/points/${points.body.id}`)).body.coupon_params).toMatchObject({ name: { en: 'Gift', es: 'Regalo' }, max_redemptions: 2, static_code: null });
    const plain = await server.client.post('/discounts', { rule_params: { name: 'No coupon', rule_effects: oneOff } });
    expect((await server.client.get(`/discounts/${plain.body.id}`)).body.coupon_params).toBeNull();
    const listed = (await server.client.get('/discounts')).body.data as Record<string, unknown>[];
    expect(listed.length).toBeGreaterThan(0);
    for (const item of listed) expect(item).not.toHaveProperty('coupon_params');
  });

  it('a PATCH that changes nothing writes no new version (campaign_history_id kept, no worker recompiles); a real change does', async () => {
    const rule = { name: 'Still', rule_effects: oneOff, available_to: '2030-01-01' };
    const created = await server.client.post('/discounts', { rule_params: rule, coupon_params: { static_code: 'STILL', max_redemptions: 2 } });
    expect(created.status, created.text).toBe(200);
    const id = created.body.id;
    const read = async () => (await server.client.get(`/discounts/${id}`)).body;
    const compilations = async () => {
      // Worker log lines reach the test's stdout reader a little after the answer.
      await new Promise((resolve) => setTimeout(resolve, 200));
      return server.lines.filter((line) => line.includes('"program compiled"')).length;
    };
    await applied();
    const before = await read();
    const compiled = await compilations();
    const unchanged = [
      {}, { rule_params: {} }, { coupon_params: {} }, { rule_params: rule }, { rule_params: { description: null, budget_value: null } },
      { coupon_params: { static_code: 'STILL', max_redemptions: 2, key: null } }, { rule_params: { name: 'Still' }, coupon_params: { max_redemptions: 2 } },
    ];
    for (const body of unchanged) {
      const res = await server.client.patch(`/discounts/${id}`, body);
      expect(res.status, `${JSON.stringify(body)}: ${res.text}`).toBe(200);
    }
    const coupon = await server.client.patch(`/coupons/${before.coupon_info.coupon_id}`, { coupon_params: { max_redemptions: 2 } });
    expect(coupon.status, coupon.text).toBe(200);
    expect((await read()).campaign_history_id).toBe(before.campaign_history_id);
    expect((await applied()).names).toContain('Still');
    expect(await compilations()).toBe(compiled);
    // A request that changed nothing is no change to record (docs/audit-log.md), the coupon's as the campaign's.
    for (const target of [`campaign:${id}`, `coupon:${before.coupon_info.coupon_id}`]) {
      const audit = await server.client.get('/audit_log', { query: { target } });
      expect(audit.body.data.filter((entry: { operation: string }) => entry.operation.endsWith('.update'))).toEqual([]);
    }

    const changed = await server.client.patch(`/discounts/${id}`, { rule_params: { name: 'Moved' } });
    expect(changed.status, changed.text).toBe(200);
    expect((await read()).campaign_history_id).not.toBe(before.campaign_history_id);
    expect((await applied()).names).toContain('Moved');
    expect(await compilations()).toBeGreaterThan(compiled);
  });

  it('still requires the name and refuses points fields on a discount, null or not', async () => {
    const created = await server.client.post('/discounts', { rule_params: { name: 'Named', rule_effects: oneOff } });
    const noName = await server.client.patch(`/discounts/${created.body.id}`, { rule_params: { name: null } });
    expect(noName.status).toBe(400);
    expect(noName.body).toMatchObject({ code: 'invalid_request', error: expect.stringMatching(/^rule_params\.name/) });
    const pointsField = await server.client.patch(`/discounts/${created.body.id}`, { rule_params: { transferable: null } });
    expect(pointsField.status).toBe(400);
    expect(pointsField.body.error).toMatch(/^rule_params\.transferable/);
    expect((await server.client.get(`/discounts/${created.body.id}`)).body.name).toBe('Named');
  });

  it('a targeted campaign whose coupon_params.static_code is cleared keeps its coupon and vouchers', async () => {
    const created = await server.client.post('/discounts', {
      rule_params: { name: 'Gift', select_customers: 'targeted', rule_effects: oneOff },
      coupon_params: { static_code: 'GIFTCODE' },
    });
    const issued = await server.client.post('/discounts/trigger', { customer_id: 1, loyalty_rule_id: created.body.id, external_voucher_code: 'GIFT-V1' });
    expect(issued.status, issued.text).toBe(200);
    const cleared = await server.client.patch(`/discounts/${created.body.id}`, { coupon_params: { static_code: null } });
    expect(cleared.status, cleared.text).toBe(200);
    expect((await applied({ coupons_desired: ['GIFTCODE'] })).invalid).toEqual(['GIFTCODE']);
    expect((await applied({ coupons_desired: ['GIFT-V1'] })).names).toContain('Gift');
  });
});
