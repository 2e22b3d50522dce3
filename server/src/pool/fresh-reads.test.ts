/**
 * Read-your-writes across threads: a cart sent after a write's 200 is
 * evaluated on a snapshot that holds the write, even while the worker takes
 * tasks in batches (a busy pool). Each round switches a campaign on or off,
 * then simulates a cart under load from other carts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cartBody } from '../testing/carts.js';
import { startServer, type TestServer } from '../testing/server.js';

describe('the worker pool sees every write acknowledged before a cart', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ env: { WORKERS: '1' } });
  });
  afterAll(() => server.dispose());

  it('applies a campaign switched on, and not one switched off, from the next cart', async () => {
    const created = await server.client.post('/discounts', {
      rule_params: { name: 'Ten off', rule_effects: [{ type: 'percentage', value: 10, distribution: 'individual_items' }] },
    });
    expect(created.status, created.text).toBe(200);
    const discounted = async () => {
      const res = await server.client.post('/carts/simulate', cartBody(10));
      expect(res.status, res.text).toBe(200);
      return res.body.effects.some((e: { rule_id: number }) => e.rule_id === created.body.id);
    };
    for (let round = 0; round < 60; round++) {
      const active = round % 2 === 1;
      expect((await server.client.patch(`/discounts/${created.body.id}`, { rule_params: { active } })).status).toBe(200);
      expect(await discounted(), `round ${round}: active ${active}`).toBe(active);
    }
  });
});
