/**
 * Start-up migrations that run once per store keep their state in one database, `migrations`: one entry each,
 * under the migration's name (docs/storage.md). What a finished one holds is its own (a time, `"done"`); a
 * resumable one keeps there where it stopped.
 */
import type { StoreEnv } from './env.js';

const MIGRATIONS = 'migrations';

/** The migrations' database. */
export const migrations = (env: StoreEnv) => env.db(MIGRATIONS);
