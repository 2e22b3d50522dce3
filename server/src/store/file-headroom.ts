/**
 * Keeps the store's file longer than LMDB's last page, and has the pages LMDB
 * will append next read once into the page cache, one 4 KB page at a time,
 * on a thread of their own (STORE_FILE_HEADROOM_MB; docs/storage.md).
 *
 * Why: Linux 6.x's ext4 caches a file in large folios when it is written in
 * large pieces, and LMDB appends a transaction's new pages in one write. When
 * LMDB later reuses one freed 4 KB page inside such a folio, the kernel walks
 * the whole folio's blocks in the write and again in the flush: two to five
 * times a lone page's CPU, the largest cost a realtime cart gained as the
 * store grew (bench/README.md, twenty-fifth session). A page read alone from a
 * hole in the file gets a folio of its own, and LMDB's writes then use it.
 *
 * The file grows only under LMDB's write lock (inside a transaction): no other
 * thread or process writes a page meanwhile, so growing it can never cut a
 * page LMDB has just appended. The headroom is a hole: it takes no disk space.
 */
import { closeSync, fstatSync, ftruncateSync, openSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import type { Logger } from '../log.js';
import type { StoreEnv } from './env.js';

/** What the reader thread reads, backwards: [from, to) of the file. */
export interface HeadroomRange {
  from: number;
  to: number;
}

const GROWTH_STEP = 1 << 20;
/** How often LMDB's last page is looked at: at the fastest growth measured (60 MB/s), a few MB each time. */
const CHECK_MS = 100;

/** Starts keeping `headroomBytes` past LMDB's last page; returns what stops it (before the store closes). */
export function keepFileHeadroom(env: StoreEnv, headroomBytes: number, log: Logger): () => Promise<void> {
  const fd = openSync(env.file, 'r+');
  const reader = new Worker(new URL('./file-headroom-reader.js', import.meta.url), { workerData: { file: env.file } });
  reader.unref();
  reader.on('error', (err) => log.error({ err }, 'store file headroom reader failed'));
  let grownTo = fstatSync(fd).size;
  // A headroom left by the last start: its pages' folios may be gone with a reboot.
  const used = env.usedBytes();
  if (grownTo > used) reader.postMessage({ from: used, to: grownTo } satisfies HeadroomRange);
  let growing: Promise<void> | undefined;
  const timer = setInterval(() => {
    if (growing || env.usedBytes() + headroomBytes / 2 <= grownTo) return;
    growing = env
      .transact(() => grow(fd, env.usedBytes() + headroomBytes))
      .then((range) => {
        grownTo = range.to;
        if (range.to > range.from) reader.postMessage(range);
      })
      // A speed-up, not worth a retry every 100 ms and a log line each: an operator reads one line and the store goes on.
      .catch((err: unknown) => {
        clearInterval(timer);
        log.error({ err }, 'store file headroom not grown: no longer kept until the next start');
      })
      .finally(() => (growing = undefined));
  }, CHECK_MS);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await growing;
    await reader.terminate();
    closeSync(fd);
  };
}

/** Under LMDB's write lock: the file grown to `bytes` (rounded up to a MB), never shrunk. */
function grow(fd: number, bytes: number): HeadroomRange {
  const size = fstatSync(fd).size;
  const target = Math.ceil(bytes / GROWTH_STEP) * GROWTH_STEP;
  if (target <= size) return { from: size, to: size };
  ftruncateSync(fd, target);
  return { from: size, to: target };
}
