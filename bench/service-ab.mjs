#!/usr/bin/env node
/**
 * The cart path of two server builds in one process, interleaved: each
 * build's CartService.run (what a pool worker runs for a cart: read the
 * request, the context, evaluate, the answer's JSON) over one store seeded
 * like the carts bench (50 campaigns, 100 customers, 10-line carts). Over
 * HTTP the machine's drift between runs hides changes of a few percent;
 * here both builds see the same minutes.
 *
 * Usage: npm run build, then `node bench/service-ab.mjs <baseline checkout>`,
 * where the baseline is a `git worktree add <dir> <rev>` of this repository.
 * The first run links the worktree's node_modules to this one's (its own
 * @tally packages excepted: one lmdb-js for both builds) and builds it.
 * Env: OP (simulate, default, or realtime: one commit a cart, so not the
 * HTTP path's group commit), BENCH_CARTS carts a round (default 10,000),
 * BENCH_ROUNDS (default 6; the first is warm-up).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { cartBody, seed } from './carts.bench.mjs';
import { baselineFromArgs } from './worktree.mjs';
import { KEY, SECRET, startProcess } from './processes.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const baseline = baselineFromArgs('service-ab.mjs');

const dataDir = mkdtempSync(join(tmpdir(), 'tally-service-ab-'));
const server = await startProcess(process.execPath, [join(ROOT, 'server/dist/main.js')], {
  PORT: '0', DATA_DIR: dataDir, TALLY_RATE_LIMITS: 'off', TALLY_BOOTSTRAP_KEY: KEY, TALLY_BOOTSTRAP_SECRET: SECRET, LOG_LEVEL: 'info', WORKERS: '0',
});
try {
  await seed(server.port);
} finally {
  server.child.kill('SIGTERM');
  await new Promise((done) => server.child.once('exit', done));
}

const builds = {};
for (const [name, root] of [['baseline', baseline], ['current', ROOT]]) {
  const { openStore } = await import(pathToFileURL(join(root, 'server/dist/store/env.js')).href);
  const { CartService } = await import(pathToFileURL(join(root, 'server/dist/carts/service.js')).href);
  builds[name] = new CartService(openStore(dataDir), () => {});
}

const OP = process.env.OP ?? 'simulate';
const CARTS = Number(process.env.BENCH_CARTS ?? 10_000);
let id = 30_000_000;
const task = () => ({
  operation: OP, companyId: 'default', environment: 'sandbox', settingsVersion: 1, now: new Date().toISOString(),
  body: JSON.stringify(cartBody(++id, (id % 100) + 1)),
});

/** CPU of this thread (utime + stime, in clock ticks of 10 ms), in µs. */
function threadCpu() {
  const fields = readFileSync('/proc/thread-self/stat', 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

async function microseconds(name) {
  const started = threadCpu();
  for (let i = 0; i < CARTS; i++) await builds[name].run(task());
  return (threadCpu() - started) / CARTS;
}

console.log(`| round | baseline µs a cart | current µs a cart | current / baseline |\n|---|---|---|---|`);
for (let round = 0; round < Number(process.env.BENCH_ROUNDS ?? 6); round++) {
  // Each build goes first in every other round: the second inherits the first's garbage.
  const order = round % 2 ? ['current', 'baseline'] : ['baseline', 'current'];
  const cpu = {};
  for (const name of order) cpu[name] = await microseconds(name);
  if (round === 0) continue; // warm-up: the JIT and the first program compile
  console.log(`| ${round} | ${cpu.baseline.toFixed(1)} | ${cpu.current.toFixed(1)} | ${(cpu.current / cpu.baseline).toFixed(2)} |`);
}
rmSync(dataDir, { recursive: true, force: true });
process.exit(0);
