/**
 * The mix of `npm run bench` (bench/engine.bench.mjs), shared with
 * bench/engine-ab.mjs (`BENCH_MIX=engine`): a 10-line cart, its context, and
 * campaigns that each name two products of a catalogue.
 */
export const settings = { currency: 'EUR', timezone: 'Europe/Madrid' };

export const lines = Array.from({ length: 10 }, (_, i) => ({
  order: i + 1,
  product_id: 1000 + i,
  product_code: `SKU${i}`,
  quantity: (i % 3) + 1,
  total: ((i % 3) + 1) * (4.99 + i),
  original_total: ((i % 3) + 1) * (4.99 + i),
  attributes: { family: i % 2 ? 'food' : 'drinks' },
})).map((line) => ({ ...line, total: Number(line.total.toFixed(2)), original_total: Number(line.original_total.toFixed(2)) }));
export const cart = {
  id: 1,
  creation_date: '2026-11-20T18:30:00Z',
  total: Number(lines.reduce((sum, line) => sum + line.total, 0).toFixed(2)),
  location_id: 12,
  channel: 'store',
  customer_id: 42,
  lines,
};
export const context = {
  now: '2026-11-20T18:30:00Z',
  mode: 'simulate',
  seed: 'bench',
  customer: { id: 42, points_available: 1200, country: 'ES', tier: 'gold', attributes: {} },
};

/**
 * A realistic mix: each campaign names two products of a 100-product catalogue
 * (so about one in five meets a 10-line cart), with cart thresholds and
 * customer targeting; two thirds discounts, one third points.
 */
export function campaign(i, catalogue = 100) {
  const product = { field: 'product_id', operator: 'in', values: [1000 + ((i * 7) % catalogue), 1000 + ((i * 13 + 5) % catalogue)] };
  const conditions = {
    conditions: {
      and: [
        { field: 'total', operator: 'gte', value: 10 + (i % 40) },
        { array_field: 'lines', conditions: [product] },
        ...(i % 4 === 0 ? [{ field: 'customer.tier', operator: 'in', values: ['gold', 'silver'] }] : []),
        ...(i % 5 === 0 ? [{ field: 'channel', operator: 'eq', value: 'store' }] : []),
      ],
    },
  };
  const application = { conditions: { and: [{ array_field: 'lines', conditions: [product] }] } };
  const points = i % 3 === 2;
  return {
    id: i + 1,
    type: points ? 'points' : 'discount',
    rule_params: {
      name: `campaign ${i + 1}`,
      priority: i % 7,
      rule_conditions: conditions,
      rule_application: application,
      rule_effects: points
        ? [{ type: 'ratio', value: 1 + (i % 10), distribution: 'individual_items' }]
        : [{ type: i % 2 ? 'percentage' : 'direct_value', value: i % 2 ? 5 : 0.5, distribution: ['individual_items', 'individual_items_pro_rata', 'total'][i % 3] }],
    },
  };
}
