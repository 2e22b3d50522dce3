import type { Metrics } from './metrics/metrics.js';

/** Runs one round of background work answering how many items it processed: timed and counted when metrics are on (`observe`). */
export type Observe = (run: () => Promise<number>) => Promise<number>;

/** Without metrics: the run alone. */
const unobserved: Observe = (run) => run();

/** The background work timed by `Metrics.ran` (main.ts, merges/worker.ts). */
export type BackgroundWork = 'points_settlement' | 'audit_retention' | 'referrals' | 'merges';

/** The observer of one kind of background work: timed and counted by `metrics`, or the run alone without them. */
export function observe(metrics: Metrics | undefined, work: BackgroundWork): Observe {
  return metrics ? (run) => metrics.ran(work, run) : unobserved;
}

/**
 * A background sweep run now and every `everyMs`, never two at once (points
 * settlement, audit log retention). The sweep is told when the server stops,
 * so a long one ends at its next transaction; the function returned stops the
 * timer and resolves once a sweep in progress has ended.
 */
export function startSweep(everyMs: number, sweep: (stopped: () => boolean) => Promise<void>, failed: (err: unknown) => void): () => Promise<void> {
  let stopped = false;
  let running: Promise<void> | undefined;
  const run = () => {
    if (running || stopped) return;
    running = sweep(() => stopped)
      .catch(failed)
      .finally(() => (running = undefined));
  };
  run();
  const timer = setInterval(run, everyMs);
  timer.unref();
  return async () => {
    stopped = true;
    clearInterval(timer);
    await running;
  };
}
