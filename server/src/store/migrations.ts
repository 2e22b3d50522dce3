/**
 * Start-up migrations that run once per store keep their state in one database, `migrations`: one entry each,
 * under the migration's name (docs/storage.md). What a finished one holds is its own (a time, `"done"`); a
 * resumable one keeps there where it stopped.
 */
import type { Key, StoreEnv } from './env.js';

const MIGRATIONS = 'migrations';

/** The migrations' database. */
export const migrations = (env: StoreEnv) => env.db(MIGRATIONS);

const DONE = 'done';

/** A start-up index build over one database (`source`), whose progress is the `migrations` entry `progress`. */
export interface IndexBuild {
  source: string;
  progress: string;
  /** Puts the index keys of one record; false when it has none. */
  index(key: Key, value: unknown): boolean;
}

/**
 * Walks every record of `build.source` in key order and indexes it, `batch` records a transaction; each transaction
 * records in `migrations` the key the next one starts at (then "done"), so a restart after a crash goes on from
 * there, and putting an index key again changes nothing. Once done, a start reads one key. Returns the records
 * indexed. Records are iterated, not collected (a batch of carts is some 87 MB).
 */
export async function buildIndex(env: StoreEnv, build: IndexBuild, batch = 10_000): Promise<number> {
  if (migrations(env).get(build.progress) === DONE) return 0;
  let indexed = 0;
  for (;;) {
    const { count, done } = await env.transact(() => indexSome(env, build, batch));
    indexed += count;
    if (done) return indexed;
  }
}

/**
 * `buildIndex` of an index whose keys are the records' own (`keyOf`: the key of a record of the tenant, or undefined
 * when it has none), each holding null; its progress is the `migrations` entry named as the index.
 */
export function indexKeys<R>(env: StoreEnv, source: string, index: string, keyOf: (tenant: string, record: R) => Key | undefined, batch?: number): Promise<number> {
  const db = env.db(index);
  return buildIndex(env, {
    source,
    progress: index,
    index(key, value) {
      const indexKey = keyOf(String((key as Key[])[0]), value as R);
      if (indexKey === undefined) return false;
      db.putSync(indexKey, null);
      return true;
    },
  }, batch);
}

function indexSome(env: StoreEnv, build: IndexBuild, batch: number): { count: number; done: boolean } {
  const next = migrations(env).get(build.progress) as Key[] | undefined;
  let read = 0;
  let count = 0;
  // One record more than the batch: where the next batch starts.
  for (const { key, value } of env.db(build.source).getRange({ start: next, limit: batch + 1 })) {
    if (read++ === batch) {
      migrations(env).putSync(build.progress, key);
      return { count, done: false };
    }
    if (build.index(key, value)) count++;
  }
  migrations(env).putSync(build.progress, DONE);
  return { count, done: true };
}
