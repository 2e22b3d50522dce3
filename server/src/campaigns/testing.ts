/** Test helpers for campaigns stored before a stricter rule: written straight into a stopped server's store. */
import { LmdbCampaignStore } from './store.js';
import { openStore } from '../store/env.js';
import type { TestServer } from '../testing/server.js';
import type { CampaignRecord } from './types.js';

const tenant = { companyId: 'default', environment: 'sandbox' as const };

/**
 * Stops the server, rewrites campaign `id`'s rule_params of the test key's Company with `change` (no check: what a
 * store written by an earlier version may hold), and starts the server again on the same store.
 */
export async function rewriteStoredCampaign(server: TestServer, id: number | string, change: (params: CampaignRecord['rule_params']) => CampaignRecord['rule_params']): Promise<void> {
  await server.stop();
  const env = openStore(server.dataDir);
  const campaigns = new LmdbCampaignStore(env);
  const stored = campaigns.get(tenant, String(id))!;
  await env.transact(() => campaigns.putInTransaction(tenant, { ...stored, rule_params: change(stored.rule_params) }, stored));
  await env.close();
  await server.restart();
}
