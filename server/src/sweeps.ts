/** Runs one round of background work answering how many items it processed: timed and counted when metrics are on (metrics.ts `observe`). */
export type Observe = (run: () => Promise<number>) => Promise<number>;

/** Without metrics: the run alone. */
export const unobserved: Observe = (run) => run();

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
