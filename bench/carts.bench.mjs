#!/usr/bin/env node
/**
 * The carts section of `npm run bench:http` (also runnable alone:
 * `node bench/carts.bench.mjs` after `npm run build`).
 *
 * In one run, over loopback, rate limits off, with 50 active campaigns
 * (25 discounts, 25 points, conditions on product ids; BENCH_APPLYING of them
 * act on the cart, default 10) and 10-line carts of about 1.5 KB:
 * - a bare uWebSockets.js endpoint that parses the same body (the ceiling),
 * - POST /carts/simulate on the Piscina pool (WORKERS=2; batches) and inline (WORKERS=0),
 * - POST /carts/realtime on its writer threads (REALTIME_WORKERS, default 2) and inline (every cart a new id, each one
 *   durable before its 200: group commit).
 * Reports requests/s, p50, p99, non-2xx, the server's CPU per request (all
 * its threads), what LMDB wrote (the pages a cart and a transaction, the
 * carts a transaction and its flush: the servers run with
 * STORE_METRICS_INTERVAL_MS, and a run's window is read from their `store
 * commits` lines) and peak RSS (VmHWM), and the host's steal time (CPU the
 * hypervisor gave other guests during the run: figures of a run with high
 * steal are a measure of the neighbours).
 * Every target runs once per round (BENCH_ROUNDS, default 3), the rounds one
 * after the other on the same servers; the table gives the medians, and each
 * target's share of the bare endpoint is the median of its rounds' shares.
 * wrk keeps every connection busy, so those runs measure the servers at
 * saturation, where a closed loop's mean latency is connections / rate. The
 * targets name a latency at a rate ("realtime at least 3,000 per second with
 * p99 under 20 ms"), so the pool's simulate and realtime also run paced: the
 * same connections, each pausing a random time (exponential, mean
 * BENCH_PAUSE_MS_SIMULATE / BENCH_PAUSE_MS_REALTIME, default 1.5 and 11 ms,
 * chosen for rates near the targets': 17,800 to 19,700 and 3,080 to 3,390 a
 * second here; 0 = off. Realtime paused 9 ms until the twelfth session, when
 * a faster server made that 3,300 to 3,500 a second) after each answer before it
 * sends the next cart, as a till does between customers (wrk's `delay()`).
 * The rate such a run reaches is what it measured, and is reported as such.
 * A closed loop, paced or not, sends less while the server stalls, so its p99
 * leaves out the carts that would have arrived meanwhile; the pool's simulate
 * and realtime therefore also run open loop at the targets' rates
 * (BENCH_RATE_SIMULATE / BENCH_RATE_REALTIME, default 15,000 and 3,000 a
 * second; 0 = off): carts due at fixed times whatever the server does, each
 * timed from its due time (bench/open-loop.mjs, 64 connections).
 * Env: BENCH_DURATION seconds per target and round (default 10), BENCH_CONNECTIONS (50),
 * BENCH_CART_CUSTOMERS (100: the customers the carts belong to) and BENCH_CUSTOMER_ORDER
 * (turn, default: each cart the next customer; random),
 * BENCH_REALTIME_CONNECTIONS (default 32: realtime on the writer pool also
 * runs at these), BENCH_WARMUP seconds of unrecorded load before each target
 * (default 2: the workers' JIT and first program compile are not the steady
 * state), CART_TASKS_PER_WORKER (passed to the server); to run part of it:
 * BENCH_BARE=off (no bare endpoint), BENCH_WORKERS (default "2,0": the
 * servers' WORKERS), BENCH_OPS (default "simulate,realtime").
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AUTH, KEY, SECRET, median, startProcess } from './processes.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 2);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
// wrk's closed loop: at N connections a server doing R carts a second has a mean latency of N / R. Realtime is
// also measured with fewer connections than the other targets, to show the latency its rate allows.
const REALTIME_CONNECTIONS = (process.env.BENCH_REALTIME_CONNECTIONS ?? '32').split(',').filter(Boolean).map(Number);
// The mean pause of a paced run's connections, by operation (0: no paced run).
const PAUSE_MS = { simulate: Number(process.env.BENCH_PAUSE_MS_SIMULATE ?? 1.5), realtime: Number(process.env.BENCH_PAUSE_MS_REALTIME ?? 11) };
// The targets' rates, offered open loop (bench/open-loop.mjs; 0: no such run).
const RATE = { simulate: Number(process.env.BENCH_RATE_SIMULATE ?? 15_000), realtime: Number(process.env.BENCH_RATE_REALTIME ?? 3_000) };
// Few customers by default: creating one hashes its password (scrypt), on purpose slow. Each cart's customer is
// the next in turn, or with BENCH_CUSTOMER_ORDER=random drawn at random (real traffic: no two carts of a
// transaction share their customers' pages by accident of their ids).
const CUSTOMERS = Number(process.env.BENCH_CART_CUSTOMERS ?? 100);
const CUSTOMER_ORDER = process.env.BENCH_CUSTOMER_ORDER ?? 'turn';
if (!Number.isInteger(CUSTOMERS) || CUSTOMERS < 1) throw new Error(`BENCH_CART_CUSTOMERS must be an integer of at least 1, got ${process.env.BENCH_CART_CUSTOMERS}`);
if (!['turn', 'random'].includes(CUSTOMER_ORDER)) throw new Error(`BENCH_CUSTOMER_ORDER must be turn or random, got ${CUSTOMER_ORDER}`);

/** A 10-line cart (~1.5 KB); ids and customer are substituted per request. */
function cartBody(id, customer) {
  const lines = Array.from({ length: 10 }, (_, i) => ({
    order: i + 1, product_id: 100 + i * 7, product_name: `Product number ${i + 1}`, product_ean: `84${String(1000000000 + i)}`,
    total: 3.5 + i, original_total: 3.5 + i, quantity: 1, total_net: 2.9 + i, total_tax: 0.6,
  }));
  const total = lines.reduce((sum, l) => sum + Math.round(l.total * 100), 0) / 100;
  return { id, customer_id: customer, creation_date: '2026-11-20T10:00:00Z', total, currency: 'EUR', location_id: 3, channel: 'store', lines };
}

/**
 * 25 discounts and 25 points campaigns, each on a few product ids. Every
 * campaign's conditions are evaluated for every cart; with BENCH_APPLYING=n,
 * n of them (default 10) name a product of the bench cart and act on it, the
 * others name products the cart does not hold. The response grows with the
 * campaigns that act (one effect per campaign and line: ~16 KB when all 50 do).
 */
function campaigns() {
  const applying = Number(process.env.BENCH_APPLYING ?? 10);
  const list = [];
  for (let i = 0; i < 50; i++) {
    const products = i < applying ? [100 + (i % 10) * 7, 500 + i, 900 + i] : [500 + i, 900 + i, 1300 + i];
    const rule_application = { conditions: { and: [{ array_field: 'lines', conditions: [{ field: 'product_id', operator: 'in', values: products }] }] } };
    const rule_conditions = { conditions: { and: [{ field: 'total', operator: 'gte', value: 5 + (i % 5) }] } };
    if (i % 2 === 0) {
      list.push(['/discounts', { rule_params: { name: `Discount ${i}`, rule_conditions, rule_application, rule_effects: [{ type: 'percentage', value: 1 + (i % 5), distribution: 'individual_items' }] } }]);
    } else {
      list.push(['/points', { rule_params: { name: `Points ${i}`, rule_conditions, rule_application, rule_effects: [{ type: 'ratio', value: 1 + (i % 10), distribution: 'individual_items' }] } }]);
    }
  }
  return list;
}

/** Starts node with `args`; figures from uWebSockets.js's slow pure-JS fallback would mislead, so it refuses them. */
async function startNode(args, env) {
  const started = await startProcess(process.execPath, args, env);
  if (started.backend !== 'native') {
    console.error(`uWebSockets.js fallback in use (${args[0] === '-e' ? 'bare endpoint' : 'Tally server'}): no figures reported.`);
    started.child.kill();
    process.exit(2);
  }
  return started;
}

const BARE = `
const uws = require('uWebSockets.js');
uws.App().post('/*', (res) => {
  const chunks = [];
  res.onAborted(() => {});
  res.onData((chunk, last) => {
    chunks.push(Buffer.from(new Uint8Array(chunk)));
    if (!last) return;
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    res.cork(() => res.writeHeader('Content-Type', 'application/json').end(JSON.stringify({ id: body.id, score: body.lines.length })));
  });
}).listen('127.0.0.1', 0, (s) => console.log(JSON.stringify({ msg: 'listening', port: uws.us_socket_local_port(s), backend: 'SSLApp' in uws ? 'native' : 'fallback' })));
`;

async function post(port, path, body) {
  const res = await fetch(`http://127.0.0.1:${port}${path}`, { method: 'POST', headers: { ...AUTH, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, text: await res.text() };
}

async function seed(port) {
  for (const [path, body] of campaigns()) {
    const res = await post(port, path, body);
    if (res.status !== 200) throw new Error(`campaign ${path}: ${res.status} ${res.text}`);
  }
  for (let id = 1; id <= CUSTOMERS; id += 50) {
    await Promise.all(Array.from({ length: 50 }, (_, k) => post(port, '/customers', { id: id + k, name: `Customer ${id + k}`, registration_location_id: 1 })));
  }
  const probe = await post(port, '/carts/simulate', cartBody(1, 1));
  if (probe.status !== 200) throw new Error(`simulate probe: ${probe.status} ${probe.text}`);
}

/**
 * wrk with a Lua script that posts a cart with a fresh id per request (ids start after `firstId`), after WARMUP
 * seconds unrecorded. `pauseMs` > 0: each connection pauses that long on average before its next cart (paced).
 */
function wrk(port, path, firstId, pid, connections = CONNECTIONS, pauseMs = 0) {
  return measure(pid, (seconds, ids) => load(port, path, ids, seconds, connections, pauseMs), firstId);
}

/** bench/open-loop.mjs: carts due at `rate` a second whatever the server does, each timed from its due time. */
function openLoop(port, path, firstId, pid, rate) {
  const run = (seconds, ids) => {
    const out = execFileSync(process.execPath, [join(ROOT, 'bench/open-loop.mjs'), String(port), path, String(rate), String(seconds), String(ids)], { encoding: 'utf8' });
    return JSON.parse(out);
  };
  return measure(pid, run, firstId);
}

/**
 * Runs `run(seconds, firstId)` for WARMUP seconds unrecorded, then for DURATION seconds; with the server's pid,
 * also the server's CPU time per request (all its threads, from /proc) and its peak RSS so far.
 */
function measure(pid, run, firstId) {
  if (WARMUP > 0) run(WARMUP, firstId + 5_000_000);
  const before = pid === undefined ? 0 : cpuSeconds(pid);
  const host = hostTicks();
  const measuredFrom = Date.now();
  const result = run(DURATION, firstId);
  const measuredTo = Date.now();
  const after = hostTicks();
  return {
    ...result,
    measuredFrom,
    measuredTo,
    cpuUs: pid === undefined ? NaN : ((cpuSeconds(pid) - before) * 1e6) / (result.rps * DURATION),
    rssMiB: pid === undefined ? NaN : peakRss(pid),
    stealPct: (100 * (after.steal - host.steal)) / (after.total - host.total),
  };
}

/**
 * The machine's CPU ticks from /proc/stat, and those stolen by the hypervisor: on a shared virtual
 * machine, steal is the CPU other guests took during the run, which no figure of this run had.
 */
function hostTicks() {
  const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  return { total: cpu.reduce((a, b) => a + b, 0), steal: cpu[7] ?? 0 };
}

/** utime + stime of a process (every thread), in seconds (clock ticks of 1/100 s). */
function cpuSeconds(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

function load(port, path, firstId, seconds, connections, pauseMs) {
  // The body as Lua long strings around the id and the customer (JSON never contains "]]").
  const [head, rest] = JSON.stringify(cartBody(999999999, 424242)).split('999999999');
  const [middle, tail] = rest.split('424242');
  const script = join(tmpdir(), `tally-carts-bench-${process.pid}.lua`);
  writeFileSync(script, [
    `local id = ${firstId}`,
    `wrk.method = "POST"`,
    ...Object.entries({ ...AUTH, 'Content-Type': 'application/json' }).map(([k, v]) => `wrk.headers["${k}"] = "${v}"`),
    `request = function()`,
    `  id = id + 1`,
    `  return wrk.format(nil, "${path}", nil, [[${head}]] .. id .. [[${middle}]] .. ${CUSTOMER_ORDER === 'random' ? `math.random(${CUSTOMERS})` : `((id % ${CUSTOMERS}) + 1)`} .. [[${tail}]])`,
    `end`,
    // Paced: wrk waits delay() milliseconds after an answer before the connection's next request.
    ...(pauseMs > 0 ? [`function delay()`, `  return -math.log(1 - math.random()) * ${pauseMs}`, `end`] : []),
  ].join('\n'));
  let out;
  try {
    out = execFileSync('wrk', ['-t1', `-c${connections}`, `-d${seconds}s`, '--latency', '-s', script, `http://127.0.0.1:${port}${path}`], { encoding: 'utf8' });
  } catch (error) {
    if (error.code === 'ENOENT') throw new Error('the carts benches drive their load with wrk, which is not on the PATH (Debian and Ubuntu: apt-get install wrk)');
    throw error;
  }
  rmSync(script);
  const ms = (label) => {
    const m = new RegExp(`${label}\\s+([\\d.]+)(us|ms|s)`).exec(out);
    return m ? Number(m[1]) * { us: 0.001, ms: 1, s: 1000 }[m[2]] : NaN;
  };
  const non2xx = /Non-2xx or 3xx responses: (\d+)/.exec(out);
  return { rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)[1]), p50: ms('50%'), p99: ms('99%'), errors: non2xx ? Number(non2xx[1]) : 0 };
}

function peakRss(pid) {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Math.round(Number(m[1]) / 1024) : NaN;
}

// How often the servers log LMDB's commit counters (the pages columns).
const STORE_METRICS_MS = 500;

/**
 * What LMDB wrote for a run, from the server's `store commits` lines (cumulative counts): between the last line
 * before the measured load and the first after it. The load ran over that window but for the part after its end,
 * so its carts are the rate times the time from the first line to the end. Undefined when nothing was committed.
 */
function storeCost(commits, result) {
  const first = commits.findLast((line) => line.time <= result.measuredFrom);
  const last = commits.find((line) => line.time >= result.measuredTo);
  if (!first || !last || last.transactions === first.transactions) return undefined;
  const transactions = last.transactions - first.transactions;
  const pages = last.pages_written - first.pages_written;
  const carts = (result.rps * (result.measuredTo - first.time)) / 1000;
  return { pagesPerTransaction: pages / transactions, pagesPerCart: pages / carts, cartsPerTransaction: carts / transactions, syncMsPerTransaction: (1000 * (last.sync_seconds - first.sync_seconds)) / transactions };
}

/** Starts the Tally build of checkout `root` (this one by default) on a new store, seeded. */
async function startTally(workers, root = ROOT) {
  const dataDir = mkdtempSync(join(tmpdir(), 'tally-carts-bench-'));
  const server = await startNode([join(root, 'server/dist/main.js')], {
    PORT: '0', DATA_DIR: dataDir, TALLY_RATE_LIMITS: 'off', TALLY_BOOTSTRAP_KEY: KEY, TALLY_BOOTSTRAP_SECRET: SECRET, LOG_LEVEL: 'info', WORKERS: String(workers),
    STORE_METRICS_INTERVAL_MS: String(STORE_METRICS_MS),
  });
  await seed(server.port);
  return {
    ...server,
    /** The store's cost of a run that just ended (waits for the server's next `store commits` line). */
    async storeCost(result) {
      await new Promise((resolve) => setTimeout(resolve, STORE_METRICS_MS + 200));
      return storeCost(server.commits, result);
    },
    async stop() {
      server.child.kill('SIGTERM');
      await new Promise((r) => server.child.once('exit', r));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export { campaigns, cartBody, openLoop, seed, startTally, wrk };

/**
 * Runs the carts section; returns its targets, each with one result per round. The servers start once; each
 * round runs every target one after the other (bare first), so that each share of the bare endpoint compares
 * runs a minute apart at most: this machine's speed drifts by 20% and more over minutes.
 */
export async function runCartsBench() {
  const targets = [];
  const processes = [];
  const target = (name, run, paced = false, server = undefined) => targets.push({ name, run, paced, server, results: [] });
  try {
    if (process.env.BENCH_BARE !== 'off') {
      const bare = await startNode(['-e', BARE], { NODE_PATH: join(ROOT, 'node_modules') });
      processes.push({ stop: async () => bare.child.kill('SIGTERM') });
      target('bare uWS, POST parsing the same 1.5 KB cart', (firstId) => wrk(bare.port, '/carts/simulate', firstId, bare.child.pid));
    }
    for (const workers of (process.env.BENCH_WORKERS ?? '2,0').split(',').map(Number)) {
      console.error(`carts bench: Tally with WORKERS=${workers}`);
      const server = await startTally(workers);
      processes.push(server);
      // Realtime carts run on the writer pool (REALTIME_WORKERS, the server's default of 2 unless set).
      const where = (op) =>
        workers === 0 ? 'inline on the main thread' : op === 'simulate' ? `pool, ${workers} workers` : `writer pool, ${process.env.REALTIME_WORKERS ?? 2} threads`;
      for (const op of (process.env.BENCH_OPS ?? 'simulate,realtime').split(',')) {
        const connections = [CONNECTIONS, ...(op === 'realtime' && workers > 0 ? REALTIME_CONNECTIONS : [])];
        for (const c of connections) {
          const name = `Tally POST /carts/${op}, ${where(op)}${c === CONNECTIONS ? '' : `, ${c} connections`}`;
          target(name, (firstId) => wrk(server.port, `/carts/${op}`, firstId, server.child.pid, c), false, server);
        }
        const pause = PAUSE_MS[op] ?? 0;
        if (workers > 0 && pause > 0) {
          target(`Tally POST /carts/${op}, ${where(op)}, paced (each connection pauses ${pause} ms on average)`, (firstId) => wrk(server.port, `/carts/${op}`, firstId, server.child.pid, CONNECTIONS, pause), true, server);
        }
        const rate = RATE[op] ?? 0;
        if (workers > 0 && rate > 0) {
          target(`Tally POST /carts/${op}, ${where(op)}, open loop at ${rate.toLocaleString('en')} a second (latency from each cart's due time)`, (firstId) => openLoop(server.port, `/carts/${op}`, firstId, server.child.pid, rate), true, server);
        }
      }
    }
    for (let round = 0; round < ROUNDS; round++) {
      console.error(`carts bench: round ${round + 1} of ${ROUNDS}`);
      // Every run gets its own range of cart ids (realtime stores each cart: an id is never sent twice).
      for (const [i, t] of targets.entries()) {
        const result = t.run((i + 1) * 100_000_000 + round * 10_000_000);
        t.results.push({ ...result, store: await t.server?.storeCost(result) });
      }
    }
  } finally {
    for (const p of processes) await p.stop();
  }
  return targets;
}

/** The medians of the rounds; a target's share of the bare endpoint is the median of its rounds' shares. */
export function printCartsTable(targets) {
  const bare = targets[0]?.name.startsWith('bare') ? targets[0] : undefined;
  console.log(`\nCarts: 50 active campaigns (${process.env.BENCH_APPLYING ?? 10} acting on the cart), 10-line carts of ${CUSTOMERS.toLocaleString('en')} customers (${CUSTOMER_ORDER === 'random' ? 'drawn at random' : 'each the next in turn'}), wrk -t1 -c${CONNECTIONS} (unless said) -d${DURATION}s after ${WARMUP} s of warm-up, loopback, Node ${process.version}, CART_TASKS_PER_WORKER=${process.env.CART_TASKS_PER_WORKER ?? 'default'}; medians of ${ROUNDS} rounds, each round every target one after the other.`);
  console.log('\n| target | requests/s | each round (p99 ms) | p50 ms | p99 ms | non-2xx | % of bare | server CPU µs a request | LMDB pages written a cart (a transaction), carts a transaction, sync ms a transaction | server peak RSS MiB (after the first round) | host steal % (highest) |');
  console.log('|---|---|---|---|---|---|---|---|---|---|---|');
  for (const { name, results, paced } of targets) {
    const of = (key) => median(results.map((r) => r[key]));
    // A paced or open-loop run's rate is the load's, not a ceiling: no share of the bare endpoint.
    const share = bare && !paced ? `${median(results.map((r, round) => (100 * r.rps) / bare.results[round].rps)).toFixed(1)}%` : '';
    const cpu = Number.isNaN(of('cpuUs')) ? '' : Math.round(of('cpuUs'));
    const rounds = results.map((r) => `${Math.round(r.rps).toLocaleString('en')} (${r.p99.toFixed(1)})`).join(' / ');
    const errors = results.reduce((sum, r) => sum + r.errors, 0);
    const rss = results[0].rssMiB;
    const steal = Math.max(...results.map((r) => r.stealPct));
    const stored = results.map((r) => r.store).filter(Boolean);
    const store = (key) => median(stored.map((s) => s[key]));
    const pages = stored.length === 0 ? '' : `${store('pagesPerCart').toFixed(1)} (${Math.round(store('pagesPerTransaction'))}), ${store('cartsPerTransaction').toFixed(1)}, ${store('syncMsPerTransaction').toFixed(2)}`;
    console.log(`| ${name} | ${Math.round(of('rps')).toLocaleString('en')} | ${rounds} | ${of('p50').toFixed(2)} | ${of('p99').toFixed(2)} | ${errors} | ${share} | ${cpu} | ${pages} | ${rss} | ${steal.toFixed(0)} |`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) printCartsTable(await runCartsBench());
