/**
 * Prometheus metrics (METRICS_PORT; docs/operations.md): the answers by
 * operation and status and their durations, rate-limited requests by tier,
 * requests refused by the failed-authentication limit,
 * the cart pool's Piscina counters, campaigns left out of the cart programs,
 * LMDB's commit counters and file size, the webhook outbox and dispatcher,
 * the background work's runs, and prom-client's process and Node metrics.
 * The HTTP answers, the 429s, the webhook attempts and the background runs
 * are recorded as they happen; everything else is read at scrape time.
 * No label names a Company: one series per Company would grow with the
 * tenants, and a Company's traffic is in its own logs.
 */
import { createServer, type Server } from 'node:http';
import { performance } from 'node:perf_hooks';
import { StartupRefusal } from '../config.js';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { OperationId, RateTier } from '../http/operations.js';
import type { RawRequest } from '../http/request.js';
import type { PoolCounters } from '../pool/pool.js';
import type { CommitMetrics, StoreEnv } from '../store/env.js';
import type { BackgroundWork } from '../sweeps.js';
import { outboxBacklog, type Backlog } from '../webhooks/outbox.js';
import type { AttemptOutcome } from '../webhooks/dispatcher.js';
import type { EventType } from '../webhooks/store.js';

/** From a referral poll that found nothing (tens of µs) to a sweep of a large store (minutes). */
const RUN_BUCKETS = [0.001, 0.01, 0.1, 1, 10, 60, 300, 1800];

/** From a cached read (tens of µs) to a realtime cart waiting for its commit under load (up to a second). */
const DURATION_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1];

/** The label of a request answered before it was routed to an operation. */
const UNKNOWN = 'unknown';

/** One operation's series, resolved once (prom-client's `labels()` builds its label object per call). */
interface OperationSeries {
  duration: Histogram.Internal<'operation'>;
  byStatus: Map<number, Counter.Internal>;
}

export class Metrics {
  readonly registry = new Registry();
  private readonly requests: Counter<'operation' | 'status'>;
  private readonly durations: Histogram<'operation'>;
  private readonly limited: Counter<'tier'>;
  private readonly limitedByTier = new Map<RateTier, Counter.Internal>();
  private readonly authFailureRefusals: Counter;
  private readonly series = new Map<string, OperationSeries>();
  private poolCounters: () => PoolCounters[] = () => [];
  private leftOutCount: () => number = () => 0;
  private attemptsInFlight: () => number = () => 0;
  private readonly attempts: Counter<'outcome'>;
  private readonly deliveries: Counter<'type' | 'status'>;
  private readonly runs: Counter<'work' | 'outcome'>;
  private readonly runItems: Counter<'work'>;
  private readonly runDurations: Histogram<'work'>;
  private readonly lastRun: Gauge<'work'>;
  private readonly lastSuccess: Gauge<'work'>;

  constructor(env: StoreEnv) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry, prefix: 'tally_' });
    this.requests = new Counter({
      name: 'tally_http_requests_total',
      help: 'HTTP answers written, by operation id ("unknown": not routed) and status code.',
      labelNames: ['operation', 'status'],
      registers,
    });
    this.durations = new Histogram({
      name: 'tally_http_request_duration_seconds',
      help: 'From a request arriving to its answer written, by operation id.',
      labelNames: ['operation'],
      buckets: DURATION_BUCKETS,
      registers,
    });
    this.limited = new Counter({
      name: 'tally_rate_limited_total',
      help: 'Requests answered 429 by the per-key rate limits, by the operation\'s tier.',
      labelNames: ['tier'],
      registers,
    });

    this.authFailureRefusals = new Counter({
      name: 'tally_auth_failure_refused_total',
      help: 'Requests answered 429 because their client address reached AUTH_FAILURE_LIMIT failed authentications within AUTH_FAILURE_WINDOW_MS.',
      registers,
    });

    // Piscina's own counters, read at scrape time (no cost between scrapes).
    const read = (): PoolCounters[] => this.poolCounters();
    new Gauge({
      name: 'tally_pool_queue_size',
      help: 'Cart tasks waiting for a worker thread, by pool (simulate; realtime: the writer threads together).',
      labelNames: ['pool'],
      registers,
      collect() {
        for (const pool of read()) this.labels(pool.pool).set(pool.queueSize);
      },
    });
    new Gauge({
      name: 'tally_pool_utilization',
      help: 'Piscina\'s utilization of the pool\'s threads (0 to 1), by pool.',
      labelNames: ['pool'],
      registers,
      collect() {
        for (const pool of read()) this.labels(pool.pool).set(pool.utilization);
      },
    });
    new Counter({
      name: 'tally_pool_tasks_completed_total',
      help: 'Cart tasks the pool completed (a batch of simulated carts is one task), by pool.',
      labelNames: ['pool'],
      registers,
      collect() {
        this.reset();
        for (const pool of read()) this.labels(pool.pool).inc(pool.completed);
      },
    });

    const leftOut = (): number => this.leftOutCount();
    new Gauge({
      name: 'tally_campaigns_left_out',
      help: 'Campaigns left out of their Company environment\'s cart program at its latest compile because they no longer compile.',
      registers,
      collect() {
        this.set(leftOut());
      },
    });

    // The outbox's due queue, read at scrape time; the three gauges of one scrape share one read (kept 100 ms).
    let lastRead: (Backlog & { at: number }) | undefined;
    const backlog = (): Backlog => {
      const now = Date.now();
      if (!lastRead || now - lastRead.at > 100) lastRead = { at: now, ...outboxBacklog(env, now) };
      return lastRead;
    };
    const outbox: [keyof Backlog, string, string][] = [
      ['deliveries', 'tally_webhook_deliveries_due', 'Webhook deliveries whose next attempt is due and not yet claimed (new or retrying).'],
      ['subscriptions', 'tally_webhook_subscriptions_due', 'Webhook subscriptions with a delivery due.'],
      ['oldestSeconds', 'tally_webhook_oldest_due_seconds', 'How long the longest-waiting due webhook delivery has been due (0: none due).'],
    ];
    for (const [key, name, help] of outbox) {
      new Gauge({
        name,
        help,
        registers,
        collect() {
          this.set(backlog()[key]);
        },
      });
    }
    const inFlight = (): number => this.attemptsInFlight();
    new Gauge({
      name: 'tally_webhook_attempts_in_flight',
      help: 'Webhook attempts this server has sent and not yet recorded.',
      registers,
      collect() {
        this.set(inFlight());
      },
    });
    this.attempts = new Counter({
      name: 'tally_webhook_attempts_total',
      help: 'Webhook attempts recorded by this server, by outcome (delivered; retry: another attempt scheduled; failed: the retry schedule spent; superseded: the delivery changed meanwhile, nothing recorded).',
      labelNames: ['outcome'],
      registers,
    });
    this.deliveries = new Counter({
      name: 'tally_webhook_deliveries_total',
      help: 'Webhook deliveries settled by this server\'s attempts, by event type and status (delivered, or failed once the retry schedule is spent).',
      labelNames: ['type', 'status'],
      registers,
    });

    this.runs = new Counter({
      name: 'tally_background_runs_total',
      help: 'Runs of background work, by work and outcome (ok, failed).',
      labelNames: ['work', 'outcome'],
      registers,
    });
    this.runItems = new Counter({
      name: 'tally_background_items_total',
      help: 'What background runs processed, by work (customers settled, audit entries removed, pending referrals taken up, merges completed).',
      labelNames: ['work'],
      registers,
    });
    this.runDurations = new Histogram({
      name: 'tally_background_run_duration_seconds',
      help: 'How long each background run took, by work.',
      labelNames: ['work'],
      buckets: RUN_BUCKETS,
      registers,
    });
    this.lastRun = new Gauge({
      name: 'tally_background_last_run_timestamp_seconds',
      help: 'When the latest background run of the work ended (Unix seconds), whatever its outcome.',
      labelNames: ['work'],
      registers,
    });
    this.lastSuccess = new Gauge({
      name: 'tally_background_last_success_timestamp_seconds',
      help: 'When the latest background run of the work ended without failing (Unix seconds).',
      labelNames: ['work'],
      registers,
    });

    // LMDB's cumulative counts, of every thread of the process (env.commitMetrics).
    const commits: [keyof CommitMetrics, string, string][] = [
      ['transactions', 'tally_store_transactions_total', 'LMDB write transactions committed.'],
      ['pages_written', 'tally_store_pages_written_total', 'LMDB pages written by commits.'],
      ['lock_wait_seconds', 'tally_store_lock_wait_seconds_total', 'Seconds spent waiting for LMDB\'s write lock.'],
      ['transaction_seconds', 'tally_store_transaction_seconds_total', 'Seconds from a write transaction\'s start to the end of its commit.'],
      ['page_write_seconds', 'tally_store_page_write_seconds_total', 'Seconds spent writing LMDB pages.'],
      ['sync_seconds', 'tally_store_sync_seconds_total', 'Seconds spent flushing LMDB to disk.'],
    ];
    for (const [key, name, help] of commits) {
      new Counter({
        name,
        help,
        registers,
        collect() {
          this.reset();
          this.inc(env.commitMetrics()?.[key] ?? 0);
        },
      });
    }
    new Gauge({
      name: 'tally_store_file_bytes',
      help: 'Bytes of the LMDB file (data.mdb) its pages use (the file itself runs up to STORE_FILE_HEADROOM_MB longer, unallocated).',
      registers,
      collect() {
        this.set(env.usedBytes());
      },
    });
  }

  /** The cart pool's counters, read at each scrape (carts/routes.ts; none when carts run inline). */
  readPools(counters: () => PoolCounters[]): void {
    this.poolCounters = counters;
  }

  /** The campaigns left out of the cart programs, read at each scrape (carts/routes.ts, carts/left-out.ts). */
  readLeftOut(count: () => number): void {
    this.leftOutCount = count;
  }

  /** The webhook dispatcher's attempts in flight, read at each scrape (webhooks/dispatcher.ts). */
  readAttemptsInFlight(count: () => number): void {
    this.attemptsInFlight = count;
  }

  /** One webhook attempt recorded (webhooks/dispatcher.ts): a few per second at most, so labels are resolved per call. */
  webhookAttempt(type: EventType, outcome: AttemptOutcome): void {
    this.attempts.labels(outcome).inc();
    if (outcome === 'delivered' || outcome === 'failed') this.deliveries.labels(type, outcome).inc();
  }

  /** Times one run of background work answering how many items it processed; a failure is counted and thrown on. */
  async ran(work: BackgroundWork, run: () => Promise<number>): Promise<number> {
    const started = performance.now();
    const end = (outcome: 'ok' | 'failed') => {
      this.runs.labels(work, outcome).inc();
      this.runDurations.labels(work).observe((performance.now() - started) / 1000);
      const at = Date.now() / 1000;
      this.lastRun.labels(work).set(at);
      if (outcome === 'ok') this.lastSuccess.labels(work).set(at);
    };
    try {
      const items = await run();
      this.runItems.labels(work).inc(items);
      end('ok');
      return items;
    } catch (err) {
      end('failed');
      throw err;
    }
  }

  /** One answer written: counted by operation and status, timed from `raw.arrivedAt`. */
  answered(raw: RawRequest, status: number): void {
    const seconds = (performance.now() - raw.arrivedAt!) / 1000;
    const operation: OperationId | typeof UNKNOWN = raw.operation ?? UNKNOWN;
    let series = this.series.get(operation);
    if (!series) this.series.set(operation, (series = { duration: this.durations.labels(operation), byStatus: new Map() }));
    let requests = series.byStatus.get(status);
    if (!requests) series.byStatus.set(status, (requests = this.requests.labels(operation, String(status))));
    requests.inc();
    series.duration.observe(seconds);
  }

  rateLimited(tier: RateTier): void {
    let limited = this.limitedByTier.get(tier);
    if (!limited) this.limitedByTier.set(tier, (limited = this.limited.labels(tier)));
    limited.inc();
  }

  /** No label: the address would grow the series with an attacker's addresses (the first refusal is logged with it). */
  authFailureRefused(): void {
    this.authFailureRefusals.inc();
  }
}

/** The reasons a port is commonly refused, in the words of PORT's refusal (http/server.ts); another error keeps Node's message. */
const LISTEN_FAILURES: Record<string, string> = {
  EADDRINUSE: 'another process listens on it',
  EADDRNOTAVAIL: "the address is not one of this machine's",
};

/**
 * The scrape endpoint: `GET /metrics` on its own listener, so the API's port
 * never exposes it; anything else is 404.
 */
export function startMetricsServer(host: string, port: number, metrics: Metrics): Promise<{ port: number; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (req.method !== 'GET' || path !== '/metrics') {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found\n');
      return;
    }
    metrics.registry.metrics().then(
      (text) => res.writeHead(200, { 'Content-Type': metrics.registry.contentType }).end(text),
      (err: unknown) => res.writeHead(500, { 'Content-Type': 'text/plain' }).end(`${String(err)}\n`),
    );
  });
  return new Promise((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) => {
      const reason = LISTEN_FAILURES[err.code ?? ''] ?? err.message;
      reject(new StartupRefusal(`METRICS_PORT ${port} on ${host} cannot be listened on: ${reason}`));
    });
    server.listen(port, host, () => {
      const address = server.address();
      resolve({
        port: typeof address === 'object' && address ? address.port : port,
        close: () => new Promise<void>((closed) => server.close(() => closed())),
      });
    });
  });
}
