/**
 * The Tally server: reads HOST, PORT, DATA_DIR (and bootstrap, rate-limit and
 * TLS settings), opens the store, listens with uWebSockets.js and logs one
 * `listening` line naming the backend, port and TLS (after a `metrics listening`
 * line when METRICS_PORT is set). A setting it cannot start with stops it
 * before the API listens: one line naming the setting on stderr, exit code 1
 * (a bug at start prints its stack). SIGTERM/SIGINT: stop
 * accepting, answer in-flight requests, let the cart pool's threads finish
 * loading, a points settlement or audit log retention sweep its current
 * chunk and the webhook attempts in flight record their outcome, close the
 * store, exit 0.
 */
import { readConfig, StartupRefusal } from './config.js';
import { CustomerStore } from './customers/store.js';
import { migrateDuplicateHolders } from './customers/duplicate-holders.js';
import { announcements, createLogger } from './log.js';
import { DUPLICATE_WINDOW_MS, DuplicateSuppressor } from './http/duplicates.js';
import { CartRepeats } from './carts/repeats.js';
import { Idempotency, idempotencyWitness } from './http/idempotency.js';
import { AuthFailureLimiter, RateLimiter } from './http/rate-limit.js';
import { buildRoutes } from './http/registry.js';
import { createPipeline } from './http/pipeline.js';
import { BACKEND, createApp, startHttpServer } from './http/server.js';
import { limitScans } from './store/paginate.js';
import { openStore, witnesses, type StoreEnv, type StoreOptions } from './store/env.js';
import { indexAuditTargets } from './audit/backfill.js';
import { indexCartOrders } from './carts/order-index.js';
import { indexProductEans } from './products/store.js';
import { auditWitness } from './audit/context.js';
import { startAuditRetention } from './audit/retention.js';
import { logCommitMetrics } from './store/metrics.js';
import { keepFileHeadroom } from './store/file-headroom.js';
import { holdServingLock } from './store/serving-lock.js';
import { threadsLoaded } from './pool/pool.js';
import { startSettlementSweep } from './points/settlement.js';
import { migrateWalletLayout } from './points/wallet-store.js';
import { migrateCustomerEntries } from './store/customer-entries.js';
import { observe } from './sweeps.js';
import { startReferrals } from './triggers/routes.js';
import { startWebhookDispatcher } from './webhooks/dispatcher.js';
import { migrateWebhookQueue } from './webhooks/outbox.js';
import { LmdbIdempotencyStore } from './store/idempotency.js';
import { bootstrap } from './tenancy/bootstrap.js';
import { CachedTenancyStore } from './tenancy/cached-store.js';
import { everyTenant, LmdbTenancyStore } from './tenancy/store.js';
import type { ServerContext } from './context.js';

async function main(): Promise<void> {
  const config = readConfig();
  const log = createLogger(config.logLevel);
  const app = createApp(config.tls);
  const env = openDataDir(config.dataDir, { trackMetrics: config.storeMetricsMs > 0 || config.metricsPort !== undefined, witness: witnesses(auditWitness, idempotencyWitness) });
  // Before anything writes or is cached: a second server on this store stops here.
  const servingLock = await holdServingLock(config.dataDir).catch((err: Error) => {
    throw new StartupRefusal(err.message);
  });
  const stopFileHeadroom = config.storeFileHeadroomMb > 0 ? keepFileHeadroom(env, config.storeFileHeadroomMb * 2 ** 20, log) : async () => {};
  const clustered = await migrateCustomerEntries(env);
  if (clustered > 0) log.info({ entries: clustered }, 'customer entries moved into customer_entries');
  const migrated = await migrateWalletLayout(env);
  if (migrated > 0) log.info({ buckets: migrated }, 'points buckets moved to one record per transaction');
  const indexed = await indexAuditTargets(env);
  if (indexed > 0) log.info({ entries: indexed }, 'audit log entries indexed by target');
  const ordered = await indexCartOrders(env);
  if (ordered > 0) log.info({ carts: ordered }, 'carts indexed by order id');
  const eans = await indexProductEans(env);
  if (eans > 0) log.info({ products: eans }, 'products indexed by EAN');
  const queued = await migrateWebhookQueue(env);
  if (queued > 0) log.info({ entries: queued }, 'webhook queue moved into one queue per subscription');
  CustomerStore.cacheAnswers(env, config.customerCacheEntries);
  limitScans(config.listScanLimit);
  const tenancy = new CachedTenancyStore(new LmdbTenancyStore(env));
  const holders = await migrateDuplicateHolders(env, everyTenant(tenancy));
  if (holders.listed > 0 || holders.held > 0) log.info(holders, 'holders of duplicated emails and dnis listed');
  await bootstrap(tenancy, config, log, new Date());
  const duplicates = new DuplicateSuppressor();
  const idempotency = new Idempotency(new LmdbIdempotencyStore(env));
  const cartRepeats = new CartRepeats(env);
  // Before the cart pool and the API's port: a METRICS_PORT refused leaves no thread loading and nothing that served a request.
  const { metrics, metricsServer } = config.metricsPort !== undefined ? await startMetrics(env, config.metricsHost, config.metricsPort) : {};
  if (metricsServer) log.info({ host: config.metricsHost, port: metricsServer.port }, 'metrics listening');
  const ctx: ServerContext = { config, env, tenancy, log, duplicates, metrics };
  const protocol = {
    routes: buildRoutes(ctx),
    idempotency,
    rateLimiter: config.rateLimits ? new RateLimiter() : undefined,
    // Its own setting, not TALLY_RATE_LIMITS: load tests switch those off, and guessing secrets stays limited (decisions.md).
    authFailures: config.authFailureLimit > 0 ? new AuthFailureLimiter(config.authFailureLimit, config.authFailureWindowMs) : undefined,
  };
  const server = await startHttpServer(app, config.host, config.port, createPipeline(ctx, protocol), metrics);
  const sweeps = [
    setInterval(() => duplicates.sweep(), 60_000),
    setInterval(() => idempotency.sweep().catch((err: unknown) => log.error({ err }, 'idempotency sweep failed')), 3_600_000),
    setInterval(() => cartRepeats.removeExpired(Date.now() - DUPLICATE_WINDOW_MS).catch((err: unknown) => log.error({ err }, 'cart repeats sweep failed')), 60_000),
  ];
  for (const timer of sweeps) timer.unref();
  const stopReferrals = config.referralPollMs > 0 ? startReferrals(ctx, config.referralPollMs) : () => {};
  const stopCommitMetrics = config.storeMetricsMs > 0 ? logCommitMetrics(env, log, config.storeMetricsMs) : () => {};
  const stopSettlements = config.pointsSettlementMs > 0 ? startSettlementSweep({ env, tenancy }, log, config.pointsSettlementMs, observe(metrics, 'points_settlement')) : async () => {};
  const stopWebhooks = config.webhookPollMs > 0
    ? startWebhookDispatcher(env, log, { pollMs: config.webhookPollMs, timeoutMs: config.webhookTimeoutMs, retrySeconds: config.webhookRetrySeconds, privateAddresses: config.webhookPrivateAddresses }, duplicates, metrics)
    : async () => {};
  const stopAuditRetention = config.auditRetentionDays > 0 && config.auditPruneMs > 0
    ? startAuditRetention(env, tenancy, log, config.auditRetentionDays, config.auditPruneMs, observe(metrics, 'audit_retention'))
    : async () => {};

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'stopping');
    for (const timer of sweeps) clearInterval(timer);
    stopReferrals();
    stopCommitMetrics();
    // A sweep in progress stops after its current chunk, committed before the store closes.
    const settlementsStopped = stopSettlements();
    // Attempts in flight (each within its timeout) record their outcome before the store closes.
    const webhooksStopped = stopWebhooks();
    const auditRetentionStopped = stopAuditRetention();
    await server.close();
    await metricsServer?.close();
    await threadsSettled();
    await settlementsStopped;
    await webhooksStopped;
    await auditRetentionStopped;
    await stopFileHeadroom();
    await env.close();
    await servingLock.close();
    log.info('stopped');
    log.flush();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
  // Only now: a SIGTERM sent as soon as this line is read must find the handler (else its default ends the process).
  announcements(log).info({ host: config.host, port: server.port, backend: BACKEND, tls: config.tls !== undefined }, 'listening');
}

/** A worker thread still loading its module when the process exits can abort it (pool.ts); one that never loads is given up. */
function threadsSettled(): Promise<unknown> {
  return Promise.race([threadsLoaded(), new Promise((givenUp) => setTimeout(givenUp, 10_000))]);
}

/** prom-client (and what it loads) only with METRICS_PORT: loading it costs every other start about 0.1 s of CPU. */
async function startMetrics(env: StoreEnv, host: string, port: number) {
  const { Metrics, startMetricsServer } = await import('./metrics/metrics.js');
  const metrics = new Metrics(env);
  return { metrics, metricsServer: await startMetricsServer(host, port, metrics) };
}

/** DATA_DIR that LMDB cannot open (a file, no permission, a full disk) is the operator's to fix. */
function openDataDir(dataDir: string, options: StoreOptions): StoreEnv {
  try {
    return openStore(dataDir, options);
  } catch (err) {
    throw new StartupRefusal(`DATA_DIR ${dataDir} cannot be opened: ${(err as Error).message}`);
  }
}

main().catch(async (err: unknown) => {
  console.error(err instanceof StartupRefusal ? err.message : err);
  // A refused PORT finds the cart pool's threads loading: exit code 1, not an abort.
  await threadsSettled();
  process.exit(1);
});
