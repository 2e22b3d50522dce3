// Carts per second of evaluateCart (whole evaluation) against json-rules-engine's
// Engine matching the same conditions, for 10, 50 and 200 campaigns on a 10-line cart.
// Run: npm run bench (builds first). Figures go to bench/README.md.
import { Bench } from 'tinybench';
import { compileCampaigns, evaluateCart } from '../engine/dist/index.js';
import { compileRule, referenceEngine } from '../engine/dist/conditions/index.js';
import { campaign, cart, context, lines, settings } from './engine-mix.mjs';

// Facts as the evaluator builds them, for the reference engine (money in cents, ids as strings).
const facts = {
  total: Math.round(cart.total * 100),
  original_total: Math.round(cart.total * 100),
  location_id: '12',
  channel: 'store',
  currency: 'EUR',
  attributes: {},
  customer: { identified: true, id: '42', country: 'ES', tier: 'gold', attributes: {} },
  creation_date: { weekday: 5, hour: 19 },
  lines: lines.map((line, index) => ({
    index,
    order: line.order,
    product_id: String(line.product_id),
    product_code: line.product_code,
    features: [],
    quantity: line.quantity,
    total: Math.round(line.total * 100),
    original_total: Math.round(line.original_total * 100),
    attributes: line.attributes,
  })),
};

const bench = new Bench({ time: Number(process.env.BENCH_MS ?? 1500), warmupTime: 300 });
const sizes = [10, 50, 200];
const suites = sizes.map((n) => {
  const campaigns = Array.from({ length: n }, (_, i) => campaign(i));
  const rules = campaigns.map((c) => ({ id: String(c.id), rule: compileRule(c.rule_params.rule_conditions, 'rule_conditions') }));
  return { n, program: compileCampaigns(campaigns, settings), reference: referenceEngine(rules) };
});
// The fast path first, so that the reference's garbage does not weigh on it.
for (const { n, program } of suites) {
  bench.add(`evaluateCart, ${n} campaigns`, () => {
    evaluateCart(program, cart, context);
  });
}
// The worst case: a 10-product catalogue, so every campaign meets the cart (about 100 effects).
const everyCampaign = compileCampaigns(Array.from({ length: 50 }, (_, i) => campaign(i, 10)), settings);
bench.add('evaluateCart, 50 campaigns, all applying', () => {
  evaluateCart(everyCampaign, cart, context);
});
for (const { n, reference } of suites) {
  bench.add(`json-rules-engine Engine, ${n} rules (conditions only)`, async () => {
    await reference.matching(facts);
  });
}

globalThis.gc?.();
await bench.run();
// Carts per second = 1 / mean latency: the rate a core sustains (tinybench's throughput.mean, a mean of
// per-sample rates, overweights the fastest samples).
const rows = bench.tasks.map((task) => ({
  task: task.name,
  'carts/s': Math.round(1000 / task.result.latency.mean),
  'mean µs': Number((task.result.latency.mean * 1000).toFixed(1)),
  'p50 µs': Number((task.result.latency.p50 * 1000).toFixed(1)),
  'p99 µs': Number((task.result.latency.p99 * 1000).toFixed(1)),
  samples: task.result.latency.samplesCount,
}));
console.table(rows);
sizes.forEach((n, i) => {
  const fast = rows[i]['carts/s'];
  const reference = rows[i + sizes.length + 1]['carts/s'];
  console.log(`${n} campaigns: ${fast} carts/s, ${(fast / reference).toFixed(0)}x json-rules-engine`);
});
