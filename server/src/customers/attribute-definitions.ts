/**
 * Each custom attribute name of a Company environment gets an int64 id and a
 * creation time the first time a customer stores it or a challenge measures it
 * (GET /customers/{id}/attributes answers and filters by them, a challenge
 * answers the id as customer_attribute_id).
 */
import type { StoreEnv } from '../store/env.js';
import { allocateId } from '../store/ids.js';
import { tenantPrefix } from '../store/keys.js';
import type { Tenant } from '../tenancy/types.js';

export interface AttributeDefinition {
  id: string;
  created_at: string;
}

const db = (env: StoreEnv) => env.db('customer_attribute_definitions');

export function attributeDefinition(env: StoreEnv, tenant: Tenant, name: string): AttributeDefinition | undefined {
  return db(env).get([tenantPrefix(tenant), name]) as AttributeDefinition | undefined;
}

/** Inside a transaction: defines the names not seen before. */
export function defineAttributes(env: StoreEnv, tenant: Tenant, names: Iterable<string>, now: string): void {
  for (const name of names) {
    if (attributeDefinition(env, tenant, name)) continue;
    db(env).putSync([tenantPrefix(tenant), name], { id: allocateId(env, tenant, 'customer_attribute'), created_at: now });
  }
}
