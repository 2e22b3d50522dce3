#!/usr/bin/env node
/**
 * Two server builds over HTTP, one cart operation, in alternating order:
 * each round starts the baseline's server and this checkout's, one after the
 * other, each on a new seeded store (carts.bench.mjs: 50 campaigns, 10-line
 * carts, wrk after a warm-up), and the build that runs first changes every
 * round (A B, B A, A B, ...), so that neither build always runs in the
 * same place. Runs of one build vary by more than 10% from one to the next
 * on this machine (this script against a worktree of the same commit: its
 * pairs differed by -16 to +14%, its medians by 5%): only a difference
 * beyond that, in the same direction in most rounds, is a result.
 *
 * Usage: npm run build, then `node bench/http-ab.mjs <baseline checkout>`,
 * where the baseline is a `git worktree add <dir> <rev>` of this repository
 * (worktree.mjs links its node_modules and builds it). Env: OP (realtime,
 * default, or simulate), BENCH_ROUNDS (default 4: an even number gives each build the
 * first place equally often), BENCH_PAUSE_MS (default 0: wrk at saturation;
 * above 0, paced: each connection pauses that long on average before its
 * next cart, as in carts.bench.mjs's paced rows), BENCH_RATE (default 0; above 0, the recorded run is
 * open loop at that many carts a second instead, bench/open-loop.mjs), BENCH_GROW (default 0: how many
 * unrecorded runs at saturation grow each store before the recorded one; 2 grows it by
 * about 100,000 realtime carts, as bench:http's later rounds), and carts.bench.mjs's
 * BENCH_DURATION (default 10), BENCH_WARMUP and BENCH_CONNECTIONS. Prints each run, the medians and
 * the ratio of this build's median to the baseline's.
 */
import { fileURLToPath } from 'node:url';
import { openLoop, startTally, wrk } from './carts.bench.mjs';
import { median } from './processes.mjs';
import { baselineFromArgs } from './worktree.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const baseline = baselineFromArgs('http-ab.mjs');

const OP = process.env.OP ?? 'realtime';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const PAUSE_MS = Number(process.env.BENCH_PAUSE_MS ?? 0);
const RATE = Number(process.env.BENCH_RATE ?? 0);
const GROW = Number(process.env.BENCH_GROW ?? 0);
const roots = { baseline, current: ROOT };
const runs = { baseline: [], current: [] };

console.log(`POST /carts/${OP}, ${ROUNDS} rounds, builds in alternating order${PAUSE_MS > 0 ? `, paced (${PAUSE_MS} ms pauses on average)` : ''}${RATE > 0 ? `, open loop at ${RATE} a second` : ''}${GROW > 0 ? `, each store grown by ${GROW} unrecorded runs first` : ''}\n`);
console.log('| round | build | requests/s | p50 ms | p99 ms | server CPU µs a request |\n|---|---|---|---|---|---|');
for (let round = 1; round <= ROUNDS; round++) {
  for (const build of round % 2 ? ['baseline', 'current'] : ['current', 'baseline']) {
    const server = await startTally(2, roots[build]);
    let result;
    try {
      for (let run = 1; run <= GROW; run++) wrk(server.port, `/carts/${OP}`, round * 10_000_000 + run * 1_000_000, server.child.pid);
      result =
        RATE > 0
          ? openLoop(server.port, `/carts/${OP}`, round * 10_000_000, server.child.pid, RATE)
          : wrk(server.port, `/carts/${OP}`, round * 10_000_000, server.child.pid, undefined, PAUSE_MS);
    } finally {
      await server.stop();
    }
    runs[build].push(result);
    console.log(`| ${round} | ${build} | ${Math.round(result.rps)} | ${result.p50.toFixed(2)} | ${result.p99.toFixed(2)} | ${Math.round(result.cpuUs)} |`);
  }
}

console.log('\n| median | requests/s | p99 ms | server CPU µs a request |\n|---|---|---|---|');
const medians = {};
for (const build of ['baseline', 'current']) {
  medians[build] = { rps: median(runs[build].map((r) => r.rps)), p99: median(runs[build].map((r) => r.p99)), cpuUs: median(runs[build].map((r) => r.cpuUs)) };
  console.log(`| ${build} | ${Math.round(medians[build].rps)} | ${medians[build].p99.toFixed(2)} | ${Math.round(medians[build].cpuUs)} |`);
}
const ratio = (key) => (medians.current[key] / medians.baseline[key]).toFixed(2);
console.log(`| current / baseline | ${ratio('rps')}× | ${ratio('p99')}× | ${ratio('cpuUs')}× |`);
