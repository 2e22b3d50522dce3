import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cartBody } from '../testing/carts.js';
import { startServer, type TestServer } from '../testing/server.js';
import type { CommitMetrics } from './env.js';

type CommitLine = CommitMetrics & { time: number };

/** The `store commits` lines a server logged so far. */
const commitLines = (server: TestServer): CommitLine[] =>
  server.lines.filter((line) => line.includes('"store commits"')).map((line) => JSON.parse(line) as CommitLine);

/** The first `store commits` line that `wanted` accepts (waits up to 5 s for it). */
async function commitLine(server: TestServer, wanted: (line: CommitLine) => boolean): Promise<CommitLine> {
  for (let waited = 0; waited < 5_000; waited += 50) {
    const line = commitLines(server).find(wanted);
    if (line) return line;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('no store commits line');
}

describe('STORE_METRICS_INTERVAL_MS: LMDB commit counters in the log', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ env: { WORKERS: '2', STORE_METRICS_INTERVAL_MS: '100' } });
  });
  afterAll(async () => {
    await server.dispose();
  });

  it('counts the commits of every thread, the writer threads included, cumulatively', async () => {
    const before = await commitLine(server, () => true);
    // Sent one after the other, each realtime cart commits in its own transaction, on a writer thread.
    for (let id = 1; id <= 5; id++) expect((await server.client.post('/carts/realtime', cartBody(10, { id }))).status).toBe(200);
    // The line of the interval that saw the last commit may be logged before this looks: find it by its count.
    const after = await commitLine(server, (line) => line.transactions >= before.transactions + 5);
    expect(after.pages_written).toBeGreaterThan(before.pages_written);
    for (const key of ['lock_wait_seconds', 'transaction_seconds', 'page_write_seconds', 'sync_seconds'] as const) {
      expect(after[key]).toBeGreaterThanOrEqual(before[key]);
      expect(Number.isFinite(after[key])).toBe(true);
    }
  });

  it('logs nothing while nothing is committed', async () => {
    // Commits that follow a request's answer (the last cart's flush) are logged in the next interval or two.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const idleFrom = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(commitLines(server).filter((l) => l.time > idleFrom)).toEqual([]);
  });
});

describe('without STORE_METRICS_INTERVAL_MS', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server.dispose();
  });

  it('logs no commit line', async () => {
    expect((await server.client.post('/carts/realtime', cartBody(10, { id: 1 }))).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(commitLines(server)).toEqual([]);
  });
});
