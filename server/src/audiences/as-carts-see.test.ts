/**
 * Audiences read the customer as carts and game plays read it: its country,
 * else the Company's, and the tier level it holds, which its carts and
 * cancellations move. A campaign conditioned on the same facts and an audience
 * of them select the same customers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cartBody, realtimeCart } from '../testing/carts.js';
import { startServer, type TestServer } from '../testing/server.js';

const gold = { conditions: { and: [{ field: 'customer.tier', operator: 'eq', value: 'Gold' }] } };
const portugal = { conditions: { and: [{ field: 'customer.country', operator: 'eq', value: 'PT' }] } };

describe('audiences as carts see the customer', () => {
  let server: TestServer;
  let discount: number;
  const audiences = async (id: number) => (await server.client.get(`/customers/${id}/audiences`)).body.list;
  const inAudience = async (id: number, segment: number) => (await server.client.get(`/customers/${id}/audience_validation`, { query: { segment_id: String(segment) } })).body.result;
  const discounted = async (id: number) =>
    (await server.client.post('/carts/simulate', cartBody(10, { customer_id: id }))).body.effects.some((e: { rule_id: number }) => e.rule_id === discount);

  beforeAll(async () => {
    server = await startServer();
    const company = await server.client.patch('/company', {
      country: 'PT',
      cart_cancellation_wait_seconds: 0,
      audiences: [{ id: 1, name: 'Gold members', rule: gold }, { id: 2, name: 'Portugal', rule: portugal }],
    });
    expect(company.status, company.text).toBe(200);
    const program = await server.client.post('/tier_programs', {
      name: 'Spend', attribute: 'total_spent', structure: [{ level: 1, name: 'Silver', threshold: 0 }, { level: 2, name: 'Gold', threshold: 100 }],
    });
    expect(program.status, program.text).toBe(200);
    const created = await server.client.post('/discounts', { rule_params: { name: 'Gold', rule_conditions: gold, rule_effects: [{ type: 'direct_value', value: 1, distribution: 'total' }] } });
    expect(created.status, created.text).toBe(200);
    discount = created.body.id;
    // 1 has no country (the Company's, PT); 2 is of Spain.
    expect((await server.client.post('/customers', { id: 1, name: 'Ana', registration_location_id: 1 })).status).toBe(200);
    expect((await server.client.post('/customers', { id: 2, name: 'Bea', registration_location_id: 1, country: 'ES' })).status).toBe(200);
  });
  afterAll(() => server.dispose());

  it("counts a customer without a country in the Company's country", async () => {
    expect(await inAudience(1, 2)).toBe(true);
    expect(await inAudience(2, 2)).toBe(false);
    expect(await audiences(1)).toEqual([{ segment_id: 2 }]);
  });

  it('follows the tier level carts win and a cancellation takes away, as the campaign does', async () => {
    expect(await inAudience(2, 1)).toBe(false);
    await realtimeCart(server.client, 2, 120, { id: 20 });
    expect(await inAudience(2, 1)).toBe(true);
    expect(await audiences(2)).toEqual([{ segment_id: 1 }]);
    expect(await discounted(2)).toBe(true);
    expect((await server.client.post('/carts/cancellation', { cart_to_cancel_id: 20, new_cart_id: 21 })).status).toBe(200);
    expect(await inAudience(2, 1)).toBe(false);
    expect(await audiences(2)).toEqual([]);
    expect(await discounted(2)).toBe(false);
  });
});
