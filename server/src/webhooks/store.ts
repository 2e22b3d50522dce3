/**
 * Webhook subscriptions of a Company environment (docs/webhooks.md). Keys:
 * `webhooks` [tenant, idKey(id)] -> WebhookRecord. Every transaction that
 * raises an event asks which subscriptions want it: the active ones are kept
 * in memory per thread and store (VersionedRecords), so without any webhook
 * that costs one get of a version token.
 */
import { TallyError } from '@tally/engine';
import type { StoreEnv } from '../store/env.js';
import { idKey, tenantPrefix, under } from '../store/keys.js';
import { VersionedRecords } from '../store/versioned.js';
import type { Tenant } from '../tenancy/types.js';
import type { WebhooksCreate } from '../wire/types.js';

export type EventType = WebhooksCreate['events'][number];

export interface WebhookRecord {
  id: string;
  url: string;
  events: EventType[];
  active: boolean;
  description: string | null;
  /** whsec_ and 64 hex digits: the HMAC key of the signatures. */
  secret: string;
  created_at: string;
  updated_at: string;
}

export const WEBHOOKS = 'webhooks';

const activeWebhooks = new VersionedRecords<WebhookRecord>(WEBHOOKS, (env, tenant) => {
  const prefix = tenantPrefix(tenant);
  const active: WebhookRecord[] = [];
  for (const { value } of env.db(WEBHOOKS).getRange(under([prefix]))) {
    const record = value as WebhookRecord;
    if (record.active) active.push(record);
  }
  return active;
});

/** The active subscriptions as this transaction or snapshot sees them. */
export function activeSubscriptions(env: StoreEnv, tenant: Tenant): readonly WebhookRecord[] {
  return activeWebhooks.get(env, tenant);
}

export function getWebhook(env: StoreEnv, tenant: Tenant, id: string): WebhookRecord | undefined {
  return env.db(WEBHOOKS).get([tenantPrefix(tenant), idKey(id)]) as WebhookRecord | undefined;
}

export function requireWebhook(env: StoreEnv, tenant: Tenant, id: string): WebhookRecord {
  const record = getWebhook(env, tenant, id);
  if (!record) throw new TallyError('webhook_not_found', `id: no webhook ${id}`, 'id');
  return record;
}

/** Inside `env.transact`: stores a new or changed subscription (the cached active ones are read again). */
export function putWebhookInTransaction(env: StoreEnv, tenant: Tenant, record: WebhookRecord): void {
  env.db(WEBHOOKS).putSync([tenantPrefix(tenant), idKey(record.id)], record);
  activeWebhooks.changedInTransaction(env, tenant);
}

/** Inside `env.transact`: removes a subscription. */
export function removeWebhookInTransaction(env: StoreEnv, tenant: Tenant, id: string): void {
  env.db(WEBHOOKS).removeSync([tenantPrefix(tenant), idKey(id)]);
  activeWebhooks.changedInTransaction(env, tenant);
}
