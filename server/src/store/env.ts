/**
 * The LMDB environment: one file under DATA_DIR, one named database per kind
 * of record. Opened with LMDB's safe defaults (never noSync or useWritemap);
 * a write is acknowledged only once it is flushed to disk (`transact`).
 * LMDB is multi-process safe, so the CLI can write while the server runs.
 */
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, readSync, statSync } from 'node:fs';
import { dirname, extname, join } from 'node:path';
import { open, type Database, type Key, type RootDatabase, type RootDatabaseOptionsWithPath } from 'lmdb';
import { CUSTOMER_ENTRIES } from './customer-entries.js';
import { VERSIONS_DATABASE } from './versioned.js';
import { OUTBOX_DATABASES } from '../webhooks/outbox.js';
import { AUDIT_DATABASES } from '../audit/log.js';

/** A named database: lmdb-js sets `name` on each database openDB opens (not in its types; page tokens name it). */
export type Db = Database<unknown, Key> & { readonly name: string };
export type { Key };

export interface StoreEnv {
  /** A named database (created on first use; open it when routes are built, see docs/storage.md). */
  db(name: string): Db;
  /** A named database if the store holds one, never creating it (migrations look for old layouts). */
  existingDb(name: string): Db | undefined;
  /**
   * Runs `work` in one write transaction (reads inside see a consistent
   * snapshot; a throw aborts every write) and resolves once the commit is
   * durable on disk. Keep `work` synchronous and short. `housekeeping`: a
   * write of the server's own made on a request's way (a Company's draw
   * secret created on first use), not the request's change: no witness sees
   * it (no audit entry, no Idempotency-Key claim).
   */
  transact<T>(work: () => T, options?: { housekeeping?: boolean }): Promise<T>;
  /**
   * Inside `transact`'s work: runs `settled` once that transaction's outcome
   * is known (durable, or rolled back), before `transact` resolves. Caches
   * use it to stop serving a record only once the store holds its new value.
   */
  afterCommit(settled: () => void): void;
  /**
   * Inside `transact`'s work: the value this transaction keeps under `key`,
   * made by `create` on first use; `prepare` then runs once with it when the
   * work has returned, still inside the transaction (a throw aborts it all).
   * The webhook outbox collects a transaction's events with it, and writes
   * them after the changes that raised them.
   */
  collect<T>(key: object, create: () => T, prepare: (value: T) => void): T;
  /**
   * Ends the current read snapshot: the next read sees every commit so far,
   * other threads' and processes' included. lmdb-js keeps one snapshot until
   * a timer of the event loop renews it; a worker that takes several tasks
   * in one turn calls this per task, so a cart sees the writes acknowledged
   * before it was sent; the main thread calls it when a worker's commit is
   * answered, so its next reads see that write.
   */
  freshReads(): void;
  /** Whether LMDB counts its commits (`openStore`'s `trackMetrics`). */
  readonly tracksMetrics: boolean;
  /** LMDB's counts since the store opened, of every thread of the process (undefined unless tracked). */
  commitMetrics(): CommitMetrics | undefined;
  /** The store's file (data.mdb, or DATA_DIR itself when named with an extension). */
  readonly file: string;
  /** The bytes of the store's file that LMDB's pages use, to the end of its last committed page (the file may be longer: store/file-headroom.ts). */
  usedBytes(): number;
  /**
   * Copies the store as of one read snapshot into the existing directory `dir`
   * as `data.mdb` (LMDB's mdb_env_copy2: consistent while other threads and
   * processes write); `compact` leaves out free pages (slower, smaller).
   */
  backup(dir: string, compact: boolean): Promise<void>;
  close(): Promise<void>;
}

/** Cumulative counts of lmdb-js's `trackMetrics`, for the periodic `store commits` log line (docs/storage.md). */
export interface CommitMetrics {
  transactions: number;
  pages_written: number;
  /** Waiting for the write lock. */
  lock_wait_seconds: number;
  /** From a write transaction's start to the end of its commit (its callbacks and page writes). */
  transaction_seconds: number;
  page_write_seconds: number;
  /** Flushing to disk (fdatasync), after the lock is released. */
  sync_seconds: number;
}

export interface StoreOptions {
  /** Count commits, pages and the time they take (lmdb-js `trackMetrics`): STORE_METRICS_INTERVAL_MS or METRICS_PORT. */
  trackMetrics?: boolean;
  /**
   * Called as `transact` is, in its caller's async context (so it can see the
   * request that asked for the transaction); what it returns runs inside that
   * transaction once the work has returned. The audit log records with it (audit/context.ts).
   */
  witness?: Witness;
}

/** Sees the caller of `transact`; what it returns runs inside the transaction (`StoreOptions.witness`). */
export type Witness = () => ((env: StoreEnv) => void) | undefined;

/** One witness of several (the audit log's, the idempotency claim's): each that sees something writes, in turn. */
export function witnesses(...list: Witness[]): Witness {
  return () => {
    let seen: ((env: StoreEnv) => void)[] | undefined;
    for (const witness of list) {
      const write = witness();
      if (write) (seen ??= []).push(write);
    }
    return seen && ((env) => {
      for (const write of seen!) write(env);
    });
  };
}

/**
 * Whether DATA_DIR is the store's one file rather than its directory: a path named with an extension (`tally.db`,
 * lmdb-js's noSubdir default), unless it is a directory already. lmdb-js alone would take an existing directory
 * named with a dot (`mktemp -d`'s `/tmp/tmp.AbC123`, `/srv/tally-2.1`) for a file, and fail to open it.
 */
export function isSingleFileStore(dataDir: string): boolean {
  return extname(dataDir) !== '' && !isDirectory(dataDir);
}

/** Whether `path` is a directory; a path that cannot be looked at (no permission, a file on the way) is none: its open says why. */
function isDirectory(path: string): boolean {
  try {
    return statSync(path, { throwIfNoEntry: false })?.isDirectory() === true;
  } catch {
    return false;
  }
}

/** The store's file: DATA_DIR/data.mdb, or DATA_DIR itself for a single-file store. */
export function storeFile(dataDir: string): string {
  return isSingleFileStore(dataDir) ? dataDir : join(dataDir, 'data.mdb');
}

/**
 * What opening a store at `dataDir` where there is none would create, to remove if that must be undone: the topmost
 * directory of its path that is missing (lmdb-js makes them all), else the store's file and its lock file.
 */
export function storeCreation(dataDir: string): string[] {
  const file = storeFile(dataDir);
  let topmost: string | undefined;
  for (let dir = dirname(file); !existsSync(dir); dir = dirname(dir)) topmost = dir;
  if (topmost !== undefined) return [topmost];
  return [file, isSingleFileStore(dataDir) ? `${file}-lock` : join(dataDir, 'lock.mdb')];
}

/** Modes of what the store creates on disk: its directories and its files (LMDB's, a backup's), for their owner only. */
export const OWNER_ONLY_DIRECTORY = 0o700;
const OWNER_ONLY_FILE = 0o600;

/** LMDB's magic number (0xBEEFC0DE, little-endian) in its first meta page, after a 16- or 24-byte page header. */
const LMDB_MAGIC = Buffer.from([0xde, 0xc0, 0xef, 0xbe]);

/**
 * Refuses a store file that is not an LMDB file (`DATA_DIR=notes.txt`): lmdb-js's open of one ended the process
 * with a segmentation fault, nothing printed, and left a lock file beside it. An empty file becomes a new store.
 */
function checkStoreFile(file: string): void {
  if (!existsSync(file) || isDirectory(file)) return;
  const head = Buffer.alloc(32);
  const fd = openSync(file, 'r');
  let read: number;
  try {
    read = readSync(fd, head, 0, head.length, 0);
  } finally {
    closeSync(fd);
  }
  if (read === 0) return;
  if (!head.subarray(16, 20).equals(LMDB_MAGIC) && !head.subarray(24, 28).equals(LMDB_MAGIC)) {
    throw new Error(`${file} is not a Tally store (not an LMDB file)`);
  }
}

/** Opens the store, creating DATA_DIR and an empty store when there is none (lmdb-js makes the directory even read-only). */
export function openStore(dataDir: string, options: StoreOptions = {}): StoreEnv {
  checkStoreFile(storeFile(dataDir));
  const trackMetrics = options.trackMetrics ?? false;
  // The store holds personal data and secrets: what Tally creates is its owner's only, whatever the umask
  // (lmdb-js would make the directories 0777 and the files 0664, less the umask: world-readable under 022).
  mkdirSync(dirname(storeFile(dataDir)), { recursive: true, mode: OWNER_ONLY_DIRECTORY });
  // trackMetrics, permissionsMode and useBigIntExtension are lmdb-js's, not in its types.
  const singleFile = isSingleFileStore(dataDir);
  const rootOptions: RootDatabaseOptionsWithPath & { trackMetrics: boolean; permissionsMode: number; useBigIntExtension: boolean } = {
    path: dataDir,
    noSubdir: singleFile,
    permissionsMode: OWNER_ONLY_FILE,
    // One named database per kind of record; room for many more resources.
    maxDbs: 256,
    // Explicit for readers of this file: these are lmdb-js's safe defaults.
    noSync: false,
    useWritemap: false,
    trackMetrics,
    // Bodies are parsed losslessly: an integer beyond int64 (a cart's `custom1` object, a rule's literal) is a bigint
    // msgpackr cannot write as a MessagePack integer; its extension keeps it exact (every database inherits it).
    useBigIntExtension: true,
  };
  const root: RootDatabase = open(rootOptions);
  const witness = options.witness;
  const dbs = new Map<string, Db>();
  // The callbacks and collected values of the transaction whose work is running (works run one at a time, synchronously).
  let settling: (() => void)[] | undefined;
  let collecting: Map<object, { value: unknown; prepare: (value: unknown) => void }> | undefined;
  // allocateId (ids.ts), version tokens (versioned.ts), customer entries (customer-entries.ts), webhook events
  // (webhooks/outbox.ts) and audit entries and their index (audit/log.ts) are only ever written inside transactions: open their databases now.
  for (const name of ['sequences', VERSIONS_DATABASE, CUSTOMER_ENTRIES, ...OUTBOX_DATABASES, ...AUDIT_DATABASES]) dbs.set(name, root.openDB({ name }) as Db);
  const env: StoreEnv = {
    db(name) {
      let db = dbs.get(name);
      if (!db) dbs.set(name, (db = root.openDB({ name }) as Db));
      return db;
    },
    existingDb(name) {
      if (dbs.has(name)) return dbs.get(name);
      try {
        const db = root.openDB({ name, create: false } as { name: string }) as Db; // create: false is lmdb-js's, not in its types
        dbs.set(name, db);
        return db;
      } catch (error) {
        if ((error as Error).message === 'Database not found') return undefined;
        throw error;
      }
    },
    async transact<T>(work: () => T, options?: { housekeeping?: boolean }): Promise<T> {
      const witnessed = options?.housekeeping ? undefined : witness?.();
      const settled: (() => void)[] = [];
      try {
        return await commit(() => {
          const outer = { settling, collecting };
          const collected = new Map<object, { value: unknown; prepare: (value: unknown) => void }>();
          settling = settled;
          collecting = collected;
          try {
            const result = work();
            // A work that refuses returns its error instead of throwing (checks come before writes): nothing changed to record.
            if (!(result instanceof Error)) witnessed?.(env);
            for (const { value, prepare } of collected.values()) prepare(value);
            return result;
          } finally {
            ({ settling, collecting } = outer);
          }
        });
      } finally {
        for (const callback of settled) callback();
      }
    },
    freshReads() {
      root.resetReadTxn();
    },
    tracksMetrics: trackMetrics,
    commitMetrics() {
      if (!trackMetrics) return undefined;
      // getStats() is typed `{}`; with trackMetrics it carries these counters (lmdb-js src/env.cpp).
      const stats = root.getStats() as Record<string, number>;
      return {
        transactions: stats.txns,
        pages_written: stats.pagesWritten,
        lock_wait_seconds: stats.timeStartTxns,
        transaction_seconds: stats.timeDuringTxns,
        page_write_seconds: stats.timePageFlushes,
        sync_seconds: stats.timeSync,
      };
    },
    file: storeFile(dataDir),
    usedBytes() {
      // getStats() is typed `{}`; it carries LMDB's env info and the main database's stat (lmdb-js src/env.cpp).
      const stats = root.getStats() as Record<string, number>;
      return (stats.lastPageNumber + 1) * stats.pageSize;
    },
    backup(dir, compact) {
      // LMDB copies to a directory, or to a file path when the store is one file; it creates the copy 0666 less the umask.
      const file = join(dir, 'data.mdb');
      return root.backup(singleFile ? file : dir, compact).then(() => chmodSync(file, OWNER_ONLY_FILE));
    },
    afterCommit(settled) {
      if (!settling) throw new Error('afterCommit is only called inside transact');
      settling.push(settled);
    },
    collect<T>(key: object, create: () => T, prepare: (value: T) => void): T {
      if (!collecting) throw new Error('collect is only called inside transact');
      let entry = collecting.get(key);
      if (!entry) collecting.set(key, (entry = { value: create(), prepare: prepare as (value: unknown) => void }));
      return entry.value as T;
    },
    async close() {
      await root.flushed;
      await root.close();
    },
  };
  return env;

  async function commit<T>(work: () => T): Promise<T> {
    // lmdb-js keeps the writes made before a throw in `transaction` (seen here);
    // a child transaction is rolled back by the throw, so no partial write lands.
    // Inside a transaction callback childTransaction returns synchronously (its type says Promise).
    const result = await root.transaction(() => {
      const known = new Set(dbs.keys());
      try {
        return root.childTransaction(work) as unknown as T;
      } catch (error) {
        // A database first opened by the failed work is rolled back with it: open it again on next use.
        for (const name of dbs.keys()) if (!known.has(name)) dbs.delete(name);
        throw error;
      }
    });
    // overlappingSync (the default) resolves on commit; durability comes with `flushed`.
    await root.flushed;
    return result;
  }
}
