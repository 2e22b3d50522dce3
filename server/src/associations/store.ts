/**
 * Associations (docs/storage.md, "Associations"): records by id, the
 * associations of each customer, the owners of each associate, and the one
 * active association of each pair. Writes run inside `env.transact`.
 */
import type { StoreEnv } from '../store/env.js';
import { allocateId } from '../store/ids.js';
import { idFromKey, idKey, tenantPrefix } from '../store/keys.js';
import type { Tenant } from '../tenancy/types.js';
import type { Association } from './types.js';

export class AssociationStore {
  constructor(private readonly env: StoreEnv) {}

  private get db() {
    return this.env.db('associations');
  }

  private idsUnder(tenant: Tenant, kind: 'of' | 'owner', customerId: string): string[] {
    const prefix = [tenantPrefix(tenant), kind, idKey(customerId)];
    return [...this.db.getKeys({ start: prefix, end: [...prefix, '\uffff'] })].map((key) => idFromKey((key as string[])[3]));
  }

  get(tenant: Tenant, id: string): Association | undefined {
    return this.db.get([tenantPrefix(tenant), 'id', idKey(id)]) as Association | undefined;
  }

  /** The active association between the two customers (customer first). */
  active(tenant: Tenant, customerId: string, associateId: string): Association | undefined {
    const id = this.db.get([tenantPrefix(tenant), 'pair', idKey(customerId), idKey(associateId)]) as string | undefined;
    return id === undefined ? undefined : this.get(tenant, id);
  }

  /** The customer's associations (as the customer, not as the associate), oldest first. */
  ofCustomer(tenant: Tenant, customerId: string): Association[] {
    return this.idsUnder(tenant, 'of', customerId).map((id) => this.get(tenant, id)!);
  }

  /** Associations where the customer is the associate, oldest first. */
  asAssociate(tenant: Tenant, associateId: string): Association[] {
    return this.idsUnder(tenant, 'owner', associateId).map((id) => this.get(tenant, id)!);
  }

  /** The customer an associate belongs to: the owner of its oldest active association whose owner `counts` (not a merged customer). */
  ownerOf(tenant: Tenant, associateId: string, counts: (customerId: string) => boolean): string | undefined {
    return this.asAssociate(tenant, associateId).find((a) => a.active && counts(a.customer_id))?.customer_id;
  }

  /** Inside a transaction: a new association with the next id. */
  create(tenant: Tenant, fields: Omit<Association, 'id'>): Association {
    const association = { id: allocateId(this.env, tenant, 'association'), ...fields };
    this.put(tenant, association);
    return association;
  }

  /** Inside a transaction: writes the association and keeps the indexes in step with `previous`. */
  put(tenant: Tenant, association: Association, previous?: Association): void {
    const prefix = tenantPrefix(tenant);
    if (previous) this.unindex(tenant, previous);
    this.db.putSync([prefix, 'id', idKey(association.id)], association);
    this.db.putSync([prefix, 'of', idKey(association.customer_id), idKey(association.id)], '');
    this.db.putSync([prefix, 'owner', idKey(association.associate_customer_id), idKey(association.id)], '');
    if (association.active) {
      this.db.putSync([prefix, 'pair', idKey(association.customer_id), idKey(association.associate_customer_id)], association.id);
    }
  }

  /** Inside a transaction. */
  remove(tenant: Tenant, association: Association): void {
    this.unindex(tenant, association);
    this.db.removeSync([tenantPrefix(tenant), 'id', idKey(association.id)]);
  }

  private unindex(tenant: Tenant, association: Association): void {
    const prefix = tenantPrefix(tenant);
    this.db.removeSync([prefix, 'of', idKey(association.customer_id), idKey(association.id)]);
    this.db.removeSync([prefix, 'owner', idKey(association.associate_customer_id), idKey(association.id)]);
    const pair = [prefix, 'pair', idKey(association.customer_id), idKey(association.associate_customer_id)];
    if (this.db.get(pair) === association.id) this.db.removeSync(pair);
  }
}
