/**
 * With STORE_METRICS_INTERVAL_MS set, the server logs LMDB's commit counters
 * (`store commits`: transactions, pages written, and the seconds spent
 * waiting for the write lock, in transactions, writing pages and flushing)
 * every interval in which something was committed. The counts are
 * cumulative, as a metrics scraper expects: two lines' difference is what
 * that interval cost (bench/carts.bench.mjs reports pages a transaction so).
 */
import type { Logger } from '../log.js';
import type { StoreEnv } from './env.js';

/** Starts the periodic line; returns what stops it. */
export function logCommitMetrics(env: StoreEnv, log: Logger, intervalMs: number): () => void {
  let logged = -1;
  const timer = setInterval(() => {
    const metrics = env.commitMetrics();
    if (!metrics || metrics.transactions === logged) return;
    logged = metrics.transactions;
    log.info(metrics, 'store commits');
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
