/**
 * What a resource gets when its routes are built: the store environment
 * (to build its own narrow store), the tenancy store, the logger, the config,
 * and the duplicate suppressor.
 */
import type { Config } from './config.js';
import type { DuplicateSuppressor } from './http/duplicates.js';
import type { Logger } from './log.js';
import type { StoreEnv } from './store/env.js';
import type { TenancyStore } from './tenancy/store.js';

export interface ServerContext {
  config: Config;
  env: StoreEnv;
  tenancy: TenancyStore;
  log: Logger;
  /** Duplicate suppression for create, update and delete routes (common rule 8). */
  duplicates: DuplicateSuppressor;
}
