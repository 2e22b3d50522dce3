#!/usr/bin/env node
/**
 * npm run bench:http — Tally's HTTP throughput beside a bare uWebSockets.js
 * endpoint answering a constant, in the same run, on loopback.
 *
 * - Starts the built server (server/dist/main.js) with TALLY_RATE_LIMITS=off
 *   and a temporary DATA_DIR, and a bare uWS process.
 * - Drives each with wrk when it is on the PATH (pinned to the other core with
 *   taskset when there is one), else autocannon (in this process). Either way
 *   the load generator competes with the server for the machine's 2 cores.
 * - Refuses to report when uWebSockets.js runs its slow pure-JS fallback.
 *
 * Targets: GET /customers/{value}?search_param=id over 100,000 stored
 * customers (Tier 1, the target), the same from a second server on
 * a copy of the store (`tally backup`: one server per store) with the answer cache off (CUSTOMER_CACHE_ENTRIES=0), and
 * GET /company (authenticated, full pipeline, no store read).
 * Env: BENCH_DURATION seconds per target and round (default 5), BENCH_ROUNDS
 * (3), BENCH_CONNECTIONS (50), BENCH_CUSTOMERS (100000; seeding them takes
 * minutes: POST /customers hashes a generated password for each).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AUTH, KEY, SECRET, median, startProcess } from './processes.mjs';

const require = createRequire(import.meta.url);
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DURATION = Number(process.env.BENCH_DURATION ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const CUSTOMERS = Number(process.env.BENCH_CUSTOMERS ?? 100_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

const uws = require('uWebSockets.js');
if (!('SSLApp' in uws)) {
  console.error('uWebSockets.js loaded its pure-JS fallback (native binary unavailable): no figures reported.');
  process.exit(2);
}

const hasCommand = (name) => spawnSync('sh', ['-c', `command -v ${name}`]).status === 0;
const WRK = hasCommand('wrk');
const PIN = WRK && hasCommand('taskset');
const pinned = (core, command, args) => (PIN ? ['taskset', ['-c', String(core), command, ...args]] : [command, args]);

const BARE = `
const uws = require('uWebSockets.js');
uws.App().get('/*', (res) => { res.writeHeader('Content-Type', 'application/json').end('{"status":"ok"}'); })
  .listen('127.0.0.1', 0, (s) => console.log(JSON.stringify({ msg: 'listening', port: uws.us_socket_local_port(s), backend: 'SSLApp' in uws ? 'native' : 'fallback' })));
`;

async function post(port, path, body) {
  const res = await fetch(`http://127.0.0.1:${port}${path}`, {
    method: 'POST',
    headers: { ...AUTH, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.text() };
}

/**
 * HOOK (customers, issue 3): seeds CUSTOMERS customers with POST /customers
 * (ids 1..CUSTOMERS), driven by autocannon with 64 requests in flight so that
 * durable writes group-commit. Returns false while the operation answers 501
 * (not built yet).
 */
async function seedCustomers(port) {
  const probe = await post(port, '/customers', customerBody(1));
  if (probe.status === 501) return false;
  if (probe.status !== 200) throw new Error(`seeding customers failed: ${probe.status} ${probe.body}`);
  const autocannon = require('autocannon');
  let next = 2;
  const result = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: 64,
    amount: CUSTOMERS - 1,
    headers: { ...AUTH, 'Content-Type': 'application/json' },
    requests: [{ method: 'POST', path: '/customers', setupRequest: (req) => ({ ...req, body: JSON.stringify(customerBody(next++)) }) }],
  });
  if (result.non2xx + result.errors > 0) throw new Error(`seeding customers: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return true;
}

function customerBody(id) {
  return { id, name: `Customer ${id}`, email: `c${id}@example.com`, registration_location_id: 1 };
}

function runWrk(port, path, randomCustomer) {
  const headerArgs = Object.entries(AUTH).flatMap(([k, v]) => ['-H', `${k}: ${v}`]);
  const args = ['-t1', `-c${CONNECTIONS}`, `-d${DURATION}s`, '--latency', ...headerArgs];
  let script;
  if (randomCustomer) {
    script = join(tmpdir(), `tally-bench-${process.pid}.lua`);
    writeFileSync(script, `request = function() return wrk.format(nil, "/customers/" .. math.random(1, ${CUSTOMERS}) .. "?search_param=id") end\n`);
    args.push('-s', script);
  }
  args.push(`http://127.0.0.1:${port}${path}`);
  const [command, commandArgs] = pinned(1, 'wrk', args);
  const out = execFileSync(command, commandArgs, { encoding: 'utf8' });
  if (script) rmSync(script);
  const ms = (label) => {
    const m = new RegExp(`${label}\\s+([\\d.]+)(us|ms|s)`).exec(out);
    return m ? Number(m[1]) * { us: 0.001, ms: 1, s: 1000 }[m[2]] : NaN;
  };
  const errors = /Non-2xx or 3xx responses: (\d+)/.exec(out);
  return {
    rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)[1]),
    p50: ms('50%'),
    p99: ms('99%'),
    errors: errors ? Number(errors[1]) : 0,
  };
}

async function runAutocannon(port, path, randomCustomer) {
  const autocannon = require('autocannon');
  const result = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: CONNECTIONS,
    duration: DURATION,
    headers: AUTH,
    requests: [
      randomCustomer
        ? { method: 'GET', setupRequest: (req) => ({ ...req, path: `/customers/${1 + Math.floor(Math.random() * CUSTOMERS)}?search_param=id` }) }
        : { method: 'GET', path },
    ],
  });
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, errors: result.non2xx + result.errors };
}

const load = (port, path, randomCustomer = false) => (WRK ? runWrk(port, path, randomCustomer) : runAutocannon(port, path, randomCustomer));

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'tally-bench-'));
  const copyDir = mkdtempSync(join(tmpdir(), 'tally-bench-copy-'));
  const [serverCmd, serverArgs] = pinned(0, process.execPath, [join(ROOT, 'server/dist/main.js')]);
  const tally = await startProcess(serverCmd, serverArgs, {
    PORT: '0', DATA_DIR: dataDir, TALLY_RATE_LIMITS: 'off', TALLY_BOOTSTRAP_KEY: KEY, TALLY_BOOTSTRAP_SECRET: SECRET, LOG_LEVEL: 'info',
  });
  const [bareCmd, bareArgs] = pinned(0, process.execPath, ['-e', BARE]);
  const bare = await startProcess(bareCmd, bareArgs, { NODE_PATH: join(ROOT, 'node_modules') });
  let uncached;
  try {
    if (tally.backend !== 'native' || bare.backend !== 'native') {
      console.error(`uWebSockets.js fallback in use (server: ${tally.backend}, bare: ${bare.backend}): no figures reported.`);
      process.exitCode = 2;
      return;
    }
    const seeded = await seedCustomers(tally.port);
    // A second server with the answer cache off, on a copy of the store (one server per store): what the cache is
    // worth, same data, same run.
    execFileSync(process.execPath, [join(ROOT, 'server/dist/cli.js'), 'backup', copyDir, '--data-dir', dataDir], { stdio: 'ignore' });
    uncached = await startProcess(serverCmd, serverArgs, {
      PORT: '0', DATA_DIR: copyDir, TALLY_RATE_LIMITS: 'off', TALLY_BOOTSTRAP_KEY: KEY, TALLY_BOOTSTRAP_SECRET: SECRET, LOG_LEVEL: 'info', CUSTOMER_CACHE_ENTRIES: '0',
    });
    const targets = [
      // The bare endpoint gets the same requests as the customers target (same headers and random paths).
      ['bare uWS, constant reply', () => load(bare.port, '/check', seeded)],
      ...(seeded
        ? [
            [`Tally GET /customers/{id} (${CUSTOMERS.toLocaleString('en')} customers)`, () => load(tally.port, '/', true)],
            ['the same, answers read from LMDB every time (CUSTOMER_CACHE_ENTRIES=0)', () => load(uncached.port, '/', true)],
          ]
        : []),
      ['Tally GET /company (auth + settings read)', () => load(tally.port, '/company')],
    ];
    // Rounds interleave the targets, so a burst of load from elsewhere on the
    // shared cores hits one round of each rather than one target.
    const runs = targets.map(() => []);
    for (let round = 0; round < ROUNDS; round++) {
      for (const [i, [, run]] of targets.entries()) runs[i].push(await run());
    }
    const generator = WRK ? `wrk -t1 -c${CONNECTIONS} -d${DURATION}s${PIN ? ' (taskset: servers on core 0, wrk on core 1)' : ''}` : `autocannon -c ${CONNECTIONS} -d ${DURATION} (in the driver process)`;
    console.log(`\nLoad generator: ${generator}; loopback; Node ${process.version}; medians of ${ROUNDS} interleaved rounds (the first round fills the answer cache).`);
    if (!seeded) console.log('GET /customers/{value} skipped: the customers operations answer 501 (not built yet).');
    console.log('\n| target | requests/s | p50 ms | p99 ms | non-2xx | % of bare (median of rounds) |');
    console.log('|---|---|---|---|---|---|');
    for (const [i, [name]] of targets.entries()) {
      const r = runs[i];
      const share = median(r.map((x, round) => (100 * x.rps) / runs[0][round].rps));
      const errors = r.reduce((sum, x) => sum + x.errors, 0);
      console.log(`| ${name} | ${Math.round(median(r.map((x) => x.rps))).toLocaleString('en')} | ${median(r.map((x) => x.p50)).toFixed(2)} | ${median(r.map((x) => x.p99)).toFixed(2)} | ${errors} | ${share.toFixed(0)}% |`);
    }
  } finally {
    const stopped = [tally, uncached].filter(Boolean).map(({ child }) => new Promise((r) => child.once('exit', r)));
    for (const server of [tally, uncached, bare]) server?.child.kill('SIGTERM');
    await Promise.all(stopped);
    for (const dir of [dataDir, copyDir]) rmSync(dir, { recursive: true, force: true });
  }
}

await main();

// ---- Carts section (owner: carts, issue 4) -------------------------------
// POST /carts/simulate and POST /carts/realtime with 50 active campaigns and
// 10-line carts, the Piscina pool against evaluating inline, beside a bare
// endpoint parsing the same body: bench/carts.bench.mjs (BENCH_CARTS=off skips it).
if (process.env.BENCH_CARTS !== 'off') {
  const { runCartsBench, printCartsTable } = await import('./carts.bench.mjs');
  printCartsTable(await runCartsBench());
}
