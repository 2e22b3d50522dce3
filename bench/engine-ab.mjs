#!/usr/bin/env node
/**
 * evaluateCart of two engine builds in one process, interleaved, on the carts
 * bench's mix (bench/carts.bench.mjs: 50 campaigns whose conditions every cart
 * meets, 10 of them selecting lines of the 10-line cart), or with
 * BENCH_MIX=engine on `npm run bench`'s (bench/engine-mix.mjs: BENCH_CAMPAIGNS
 * campaigns, default 50, each naming two products in its conditions and its
 * application). Compares a change against a baseline without the noise of
 * separate runs.
 * Usage: npm run build, then `node bench/engine-ab.mjs <baseline engine/dist/index.js>`
 * (for instance a `git worktree` of the baseline commit, built with `npx tsc -b`).
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { campaigns, cartBody } from './carts.bench.mjs';
import * as engineMix from './engine-mix.mjs';

const baselinePath = process.argv[2];
if (!baselinePath) {
  console.error('usage: node bench/engine-ab.mjs <baseline engine/dist/index.js>');
  process.exit(2);
}
const builds = {
  baseline: await import(pathToFileURL(resolve(baselinePath)).href),
  current: await import('../engine/dist/index.js'),
};
const { settings } = engineMix;
const engineBenchMix = process.env.BENCH_MIX === 'engine';
// The carts bench posts its campaigns over HTTP; the engine takes them with an id and a type.
const input = engineBenchMix
  ? Array.from({ length: Number(process.env.BENCH_CAMPAIGNS ?? 50) }, (_, i) => engineMix.campaign(i))
  : campaigns().map(([path, body], i) => ({ id: i + 1, type: path === '/points' ? 'points' : 'discount', ...body }));
const cart = engineBenchMix ? engineMix.cart : cartBody(1, 42);
const context = engineBenchMix
  ? engineMix.context
  : { now: '2026-11-20T10:00:00Z', mode: 'simulate', seed: 'bench', customer: { id: 42, points_available: 1200, country: 'ES' } };
const programs = Object.fromEntries(Object.entries(builds).map(([name, engine]) => [name, engine.compileCampaigns(input, settings)]));
const answers = Object.entries(builds).map(([name, engine]) => JSON.stringify(engine.evaluateCart(programs[name], cart, context)));
if (answers[0] !== answers[1]) console.error('the two builds answer differently');

const CARTS = Number(process.env.BENCH_CARTS ?? 50_000);
function microseconds(name) {
  const { evaluateCart } = builds[name];
  const started = process.hrtime.bigint();
  for (let i = 0; i < CARTS; i++) evaluateCart(programs[name], cart, context);
  return Number(process.hrtime.bigint() - started) / 1000 / CARTS;
}
for (const name of Object.keys(builds)) microseconds(name); // warm-up
console.log('| round | baseline µs a cart | current µs a cart | current / baseline |\n|---|---|---|---|');
for (let round = 1; round <= 6; round++) {
  // Each build goes first in every other round: the one that runs second inherits the other's garbage.
  const us = {};
  for (const name of round % 2 ? ['baseline', 'current'] : ['current', 'baseline']) us[name] = microseconds(name);
  const { baseline, current } = us;
  console.log(`| ${round} | ${baseline.toFixed(1)} | ${current.toFixed(1)} | ${(current / baseline).toFixed(2)} |`);
}
