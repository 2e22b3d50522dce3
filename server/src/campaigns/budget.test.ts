/**
 * A campaign read answers its budget's spend (budget_spent, budget_available; docs/campaigns.md): the counter of the
 * current period as carts count it, in the Company's timezone, moved by carts, POST /discounts/redeem and
 * cancellations; a counter of another period does not count; without a budget both read null.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LmdbCounterStore } from '../counters/store.js';
import { openStore } from '../store/env.js';
import { cartBody } from '../testing/carts.js';
import { startServer, type TestServer } from '../testing/server.js';

const TENANT = { companyId: 'default', environment: 'sandbox' } as const;
/**
 * A Company zone whose date is not UTC's now, so a key taken in UTC would differ: UTC+14 from 10:00 UTC, UTC-11 until
 * 11:00 UTC; chosen half an hour from either local midnight, so the test does not cross one.
 */
const utcMinutes = new Date().getUTCHours() * 60 + new Date().getUTCMinutes();
const TIMEZONE = utcMinutes >= 630 ? 'Pacific/Kiritimati' : 'Pacific/Pago_Pago';

/** The Company's local date (YYYY-MM-DD) `days` from today. */
function localDate(days = 0): string {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: TIMEZONE }).format(new Date());
  return new Date(Date.parse(`${today}T12:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** The month before `month` (YYYY-MM). */
function monthBefore(month: string): string {
  const [year, m] = month.split('-').map(Number);
  return new Date(Date.UTC(year, m - 2, 1)).toISOString().slice(0, 7);
}

describe('budget_spent and budget_available of campaign reads', () => {
  let server: TestServer;
  const ids: Record<string, string> = {};
  let nextCart = 7000;

  const create = async (path: '/discounts' | '/points', body: Record<string, unknown>) => {
    const res = await server.client.post(path, body);
    expect(res.status, res.text).toBe(200);
    return String(res.body.id);
  };
  const budget = async (path: string) => {
    const res = await server.client.get(path);
    expect(res.status, res.text).toBe(200);
    return { spent: res.body.budget_spent, available: res.body.budget_available };
  };
  const listed = async (path: '/discounts' | '/points', id: string) => {
    const res = await server.client.get(path, { query: { per_page: '100' } });
    expect(res.status, res.text).toBe(200);
    const item = (res.body.data as { id: number; budget_spent: unknown; budget_available: unknown }[]).find((c) => String(c.id) === id)!;
    return { spent: item.budget_spent, available: item.budget_available };
  };
  const cart = async (total: number) => {
    const res = await server.client.post('/carts/realtime', cartBody(total, { id: nextCart++, customer_id: 7 }));
    expect(res.status, res.text).toBe(200);
    return res;
  };
  const redeem = async (discount: number) => {
    const res = await server.client.post('/discounts/redeem', { static_code: 'TWOOFF', customer_id: 7, cart_code: `EXT-${discount}`, discount });
    expect(res.status, res.text).toBe(200);
  };

  // Read, never applied: no cart of these tests reaches this total.
  const never = { conditions: { and: [{ field: 'total', operator: 'gt', value: 1_000_000 }] } };

  beforeAll(async () => {
    server = await startServer({ env: { WORKERS: '1' } });
    expect((await server.client.patch('/company', { timezone: TIMEZONE, cart_cancellation_wait_seconds: 0 })).status).toBe(200);
    expect((await server.client.post('/customers', { id: 7, name: 'Ann', registration_location_id: 1 })).status).toBe(200);
    ids.daily = await create('/discounts', {
      rule_params: { name: 'Two off', budget_value: 10, budget_period: 'num_day', rule_effects: [{ type: 'direct_value', value: 2, distribution: 'total' }] },
      coupon_params: { static_code: 'TWOOFF' },
    });
    ids.monthly = await create('/discounts', {
      rule_params: { name: 'Monthly', budget_value: 20.5, budget_period: 'num_month', rule_conditions: never, rule_effects: [{ type: 'direct_value', value: 1, distribution: 'total' }] },
    });
    ids.unbudgeted = await create('/discounts', {
      rule_params: { name: 'No budget', rule_conditions: never, rule_effects: [{ type: 'direct_value', value: 1, distribution: 'total' }] },
    });
    ids.points = await create('/points', {
      rule_params: { name: 'Ten per unit', budget_value: 100, budget_period: 'num_year', rule_effects: [{ type: 'ratio', value: 10, distribution: 'individual_items' }] },
    });
  });
  afterAll(async () => {
    await server.dispose();
  });

  it('reads the whole budget available before anything is spent, single and listed', async () => {
    expect(await budget(`/discounts/${ids.daily}`)).toEqual({ spent: 0, available: 10 });
    expect(await listed('/discounts', ids.daily)).toEqual({ spent: 0, available: 10 });
    expect(await budget(`/points/${ids.points}`)).toEqual({ spent: 0, available: 100 });
  });

  it('reads null for both without a budget', async () => {
    expect(await budget(`/discounts/${ids.unbudgeted}`)).toEqual({ spent: null, available: null });
    expect(await listed('/discounts', ids.unbudgeted)).toEqual({ spent: null, available: null });
  });

  it('counts what carts gave: discounts, and the money value of points', async () => {
    const res = await cart(5);
    const effects = res.body.effects as { rule_name: string; value: number }[];
    expect(effects.find((e) => e.rule_name === 'Two off')?.value).toBe(200);
    expect(await budget(`/discounts/${ids.daily}`)).toEqual({ spent: 2, available: 8 });
    expect(await listed('/discounts', ids.daily)).toEqual({ spent: 2, available: 8 });
    const points = effects.find((e) => e.rule_name === 'Ten per unit')!.value;
    expect(points).toBeGreaterThan(0);
    // At the default point value, 0.01.
    expect(await budget(`/points/${ids.points}`)).toEqual({ spent: points / 100, available: 100 - points / 100 });
    expect(await listed('/points', ids.points)).toEqual({ spent: points / 100, available: 100 - points / 100 });
  });

  it('counts POST /discounts/redeem, and a cancellation gives the cart\'s spend back', async () => {
    await redeem(350);
    expect(await budget(`/discounts/${ids.daily}`)).toEqual({ spent: 5.5, available: 4.5 });
    const second = await cart(5);
    expect(await budget(`/discounts/${ids.daily}`)).toEqual({ spent: 7.5, available: 2.5 });
    const cancelled = await server.client.post('/carts/cancellation', { cart_to_cancel_id: second.body.id });
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(await budget(`/discounts/${ids.daily}`)).toEqual({ spent: 5.5, available: 4.5 });
  });

  it('reads nothing available, never less, when a redemption spent beyond the budget', async () => {
    await redeem(1000);
    expect(await budget(`/discounts/${ids.daily}`)).toEqual({ spent: 15.5, available: 0 });
  });

  it('counts only the current period, as the Company\'s timezone dates it', async () => {
    await server.stop();
    const env = openStore(server.dataDir);
    try {
      const counters = new LmdbCounterStore(env);
      const month = localDate().slice(0, 7);
      await env.transact(() => {
        counters.addBudgetInTransaction(TENANT, ids.daily, localDate(-1), 700);
        counters.addBudgetInTransaction(TENANT, ids.daily, localDate(1), 900);
        counters.addBudgetInTransaction(TENANT, ids.monthly, monthBefore(month), 300);
        counters.addBudgetInTransaction(TENANT, ids.monthly, month, 125);
      });
    } finally {
      await env.close();
    }
    await server.restart();
    expect(await budget(`/discounts/${ids.daily}`)).toEqual({ spent: 15.5, available: 0 });
    expect(await budget(`/discounts/${ids.monthly}`)).toEqual({ spent: 1.25, available: 19.25 });
    expect(await listed('/discounts', ids.monthly)).toEqual({ spent: 1.25, available: 19.25 });
  });
});
