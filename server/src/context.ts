/**
 * What a resource gets when its routes are built: the store environment
 * (to build its own narrow store), the tenancy store, the logger, the config,
 * the duplicate suppressor and, when on, the metrics.
 */
import type { Config } from './config.js';
import type { DuplicateSuppressor } from './http/duplicates.js';
import type { Logger } from './log.js';
import type { Metrics } from './metrics/metrics.js';
import type { StoreEnv } from './store/env.js';
import type { TenancyStore } from './tenancy/store.js';

export interface ServerContext {
  config: Config;
  env: StoreEnv;
  tenancy: TenancyStore;
  log: Logger;
  /** Duplicate suppression for create, update and delete routes (common rule 8). */
  duplicates: DuplicateSuppressor;
  /** Present when METRICS_PORT is set. */
  metrics?: Metrics;
}
