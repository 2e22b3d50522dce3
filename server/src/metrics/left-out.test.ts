/**
 * `tally_campaigns_left_out`: the cart threads compile the programs, each its own; each compile's count of
 * campaigns left out reaches the main thread, which keeps the latest campaign version's per Company environment.
 */
import { MAX_RULE_EFFECTS } from '@tally/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rewriteStoredCampaign } from '../campaigns/testing.js';
import { cartBody, realtimeCart } from '../testing/carts.js';
import { startServer, type TestServer } from '../testing/server.js';
import { scrape, scrapeUntil, value } from './testing.js';


for (const workers of ['1', '0']) {
  describe(`campaigns left out of the cart programs (WORKERS=${workers})`, () => {
    let server: TestServer;
    let bad: number;

    beforeAll(async () => {
      server = await startServer({ env: { METRICS_PORT: '0', WORKERS: workers, REALTIME_WORKERS: '1' } });
      const points = await server.client.post('/points', { rule_params: { name: 'Ten a euro', rule_effects: [{ type: 'ratio', value: 10 }] } });
      expect(points.status, points.text).toBe(200);
      bad = points.body.id;
      expect((await server.client.post('/customers', { id: 1, name: 'N', registration_location_id: 1 })).status).toBe(200);
      // Stored before a stricter rule: over the effects cap, written straight into the store.
      const overCap = Array.from({ length: MAX_RULE_EFFECTS + 1 }, () => ({ type: 'ratio', value: 10 }));
      await rewriteStoredCampaign(server, bad, (params) => ({ ...params, rule_effects: overCap }));
    });
    afterAll(() => server.dispose());

    it('is 0 before any program is compiled, counts the campaign once its program is, and 0 again once it is fixed', async () => {
      expect(value(await scrape(server), 'tally_campaigns_left_out')).toBe(0);
      // The simulate thread and the writer each compile the program: still one campaign left out.
      expect((await server.client.post('/carts/simulate', cartBody(20, { customer_id: 1 }))).status).toBe(200);
      await realtimeCart(server.client, 1, 20);
      await scrapeUntil(server, (s) => value(s, 'tally_campaigns_left_out') === 1);
      expect(value(await scrape(server), 'tally_campaigns_left_out')).toBe(1);

      const fixed = await server.client.patch(`/points/${bad}`, { rule_params: { rule_effects: [{ type: 'ratio', value: 10 }] } });
      expect(fixed.status, fixed.text).toBe(200);
      expect((await server.client.post('/carts/simulate', cartBody(20, { customer_id: 1 }))).body.score).toBe(200);
      await scrapeUntil(server, (s) => value(s, 'tally_campaigns_left_out') === 0);
    });
  });
}
