/**
 * Stored custom events, in the order they were ingested. Keys:
 * `custom_events` [tenant, idKey(seq)] -> record; `custom_event_ids`
 * [tenant, id] -> seq (ids are unique); `custom_events_by_customer`
 * [tenant, idKey(customer), idKey(seq)] -> null. Writes run inside the
 * caller's `env.transact`.
 */
import type { StoreEnv } from '../store/env.js';
import { allocateId } from '../store/ids.js';
import { idFromKey, idKey, tenantPrefix, under } from '../store/keys.js';
import { paginate, type Page, type PageRequest } from '../store/paginate.js';
import type { Tenant } from '../tenancy/types.js';

export interface CustomEventRecord {
  /** Position in ingestion order (the list's key). */
  seq: string;
  id: string;
  customer_id: string;
  customer_code: string | null;
  slug: string;
  definition_id: string;
  /** The event's data as JSON text (numbers of any size survive). */
  data: string;
  created_at: string;
  ingested_at: string;
  points_transaction_id: string | null;
}

const EVENTS = 'custom_events';
const IDS = 'custom_event_ids';
const BY_CUSTOMER = 'custom_events_by_customer';

/** Opened when the routes are built (docs/storage.md). */
export const CUSTOM_EVENT_DATABASES = [EVENTS, IDS, BY_CUSTOMER];

export class CustomEventStore {
  constructor(private readonly env: StoreEnv) {}

  get(tenant: Tenant, id: string): CustomEventRecord | undefined {
    const prefix = tenantPrefix(tenant);
    const seq = this.env.db(IDS).get([prefix, id]) as string | undefined;
    return seq === undefined ? undefined : (this.env.db(EVENTS).get([prefix, idKey(seq)]) as CustomEventRecord | undefined);
  }

  /** Inside `env.transact`: a new sequence number (and the event id when the client gave none). */
  nextSeq(tenant: Tenant): string {
    return allocateId(this.env, tenant, 'custom_event');
  }

  /** Inside `env.transact`. */
  put(tenant: Tenant, record: CustomEventRecord): void {
    const prefix = tenantPrefix(tenant);
    this.env.db(EVENTS).putSync([prefix, idKey(record.seq)], record);
    this.env.db(IDS).putSync([prefix, record.id], record.seq);
    this.env.db(BY_CUSTOMER).putSync([prefix, idKey(record.customer_id), idKey(record.seq)], null);
  }

  /** Inside `env.transact`: gives the customer's events to another customer (a merge). */
  moveAll(tenant: Tenant, from: string, to: string, toCode: string | null, seqs?: readonly string[]): void {
    const prefix = tenantPrefix(tenant);
    for (const seq of seqs ?? this.seqsOf(tenant, from)) {
      const record = this.env.db(EVENTS).get([prefix, idKey(seq)]) as CustomEventRecord | undefined;
      if (!record || record.customer_id !== from) continue;
      this.env.db(BY_CUSTOMER).removeSync([prefix, idKey(from), idKey(seq)]);
      this.put(tenant, { ...record, customer_id: to, customer_code: toCode });
    }
  }

  /** Inside `env.transact`: removes the customer's events (a customer delete). */
  removeAll(tenant: Tenant, customerId: string): void {
    const prefix = tenantPrefix(tenant);
    for (const seq of this.seqsOf(tenant, customerId)) {
      const record = this.env.db(EVENTS).get([prefix, idKey(seq)]) as CustomEventRecord | undefined;
      if (record) this.env.db(IDS).removeSync([prefix, record.id]);
      this.env.db(EVENTS).removeSync([prefix, idKey(seq)]);
      this.env.db(BY_CUSTOMER).removeSync([prefix, idKey(customerId), idKey(seq)]);
    }
  }

  seqsOf(tenant: Tenant, customerId: string): string[] {
    const prefix = [tenantPrefix(tenant), idKey(customerId)];
    return [...this.env.db(BY_CUSTOMER).getKeys(under(prefix))].map((key) => idFromKey(String((key as string[])[2])));
  }

  page<T>(tenant: Tenant, customerId: string | undefined, page: PageRequest, toItem: (record: CustomEventRecord) => T | undefined): Page<T> {
    const prefix = tenantPrefix(tenant);
    if (customerId === undefined) return paginate<CustomEventRecord, T>(this.env.db(EVENTS), [prefix], page, toItem);
    return paginate<null, T>(this.env.db(BY_CUSTOMER), [prefix, idKey(customerId)], page, (_v, key) => {
      const record = this.env.db(EVENTS).get([prefix, String(key[2])]) as CustomEventRecord | undefined;
      return record ? toItem(record) : undefined;
    });
  }
}
