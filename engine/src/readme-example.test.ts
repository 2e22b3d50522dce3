/** The README's offline preview, kept working: 2.99 at 10 points per unit earns 29. */
import { expect, it } from 'vitest';
import { compileCampaigns, evaluateCart } from './index.js';

it('previews the README cart offline', () => {
  const campaigns = [{
    id: 1, type: 'points' as const,
    rule_params: {
      name: '10 points per euro', select_customers: 'all_customers',
      rule_effects: [{ type: 'ratio', value: 10, distribution: 'individual_items' }],
    },
  }];
  const program = compileCampaigns(campaigns, { currency: 'EUR', timezone: 'Europe/Madrid' });
  const cart = { creation_date: '2026-11-22T10:00:00Z', total: 2.99, lines: [{ order: 1, product_id: 7, total: 2.99, quantity: 1 }] };
  const { response, writes } = evaluateCart(program, cart, { now: '2026-11-22T10:00:00Z', mode: 'simulate', seed: 'preview' });
  expect(response.score).toBe(29);
  expect(writes.points).toEqual([]);
});
