/** Test helpers for campaigns stored before a stricter rule: written straight into a stopped server's store. */
import { MAX_RULE_CONDITIONS, type RuleParams } from '@tally/engine';
import { openStore, type StoreEnv } from '../store/env.js';
import type { Tenant } from '../tenancy/types.js';
import type { TestServer } from '../testing/server.js';
import { LmdbCampaignStore } from './store.js';
import type { CampaignRecord } from './types.js';

const tenant = { companyId: 'default', environment: 'sandbox' as const };

/** A store of records with rule_params: discount and points campaigns, instant wins. */
export interface RuleStore<R extends { rule_params: RuleParams }> {
  get(tenant: Tenant, id: string): R | undefined;
  putInTransaction(tenant: Tenant, record: R, previous: R): unknown;
}

export type Change = (params: RuleParams) => RuleParams;

/**
 * Stops the server, rewrites record `id`'s rule_params of the test key's Company with `change` (no check: what a
 * store written by an earlier version may hold), and starts the server again on the same store.
 */
export async function rewriteStored<R extends { rule_params: RuleParams }>(server: TestServer, open: (env: StoreEnv) => RuleStore<R>, id: number | string, change: Change): Promise<void> {
  await server.stop();
  const env = openStore(server.dataDir);
  const store = open(env);
  const stored = store.get(tenant, String(id))!;
  await env.transact(() => store.putInTransaction(tenant, { ...stored, rule_params: change(stored.rule_params) }, stored));
  await env.close();
  await server.restart();
}

/** A discount or points campaign rewritten so (`rewriteStored`). */
export const rewriteStoredCampaign = (server: TestServer, id: number | string, change: Change) => rewriteStored<CampaignRecord>(server, (env) => new LmdbCampaignStore(env), id, change);

/** A rule one condition over the engine's cap (`MAX_RULE_CONDITIONS`), each condition `condition`: what a stricter version refuses. */
export function overConditionsCap(condition: Record<string, unknown>) {
  return { conditions: { and: Array.from({ length: MAX_RULE_CONDITIONS + 1 }, () => condition) } };
}
