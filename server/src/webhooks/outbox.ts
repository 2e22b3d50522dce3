/**
 * The durable outbox of webhook events (docs/webhooks.md). A change raises
 * its events inside its own transaction; once the work has returned (so the
 * data is rendered as the transaction leaves it) they are written in that
 * same transaction, one delivery per active subscription to the type: a
 * committed change always has its deliveries, a failed one none. Keys:
 * `webhook_deliveries` [tenant, idKey(webhook id), idKey(delivery id)] ->
 * DeliveryRecord; `webhook_due` [tenant, idKey(webhook id), due ms,
 * idKey(delivery id)] -> Tenant, each subscription's queue, due first: a
 * pending delivery's next attempt, or a settled one's removal;
 * `webhook_heads` [due ms, tenant, idKey(webhook id)] -> Tenant, the earliest
 * entry of each subscription's queue, what the dispatcher reads: it takes the
 * due deliveries subscription by subscription, never reading past one
 * subscription's backlog to find another's;
 * `webhook_customer_deliveries` [tenant, idKey(customer id), idKey(webhook
 * id), idKey(delivery id)] -> '': the deliveries whose body names a customer,
 * so its delete erases them without reading the whole outbox.
 */
import { randomBytes } from 'node:crypto';
import { wireDatetime } from '../http/wire.js';
import type { Db, StoreEnv } from '../store/env.js';
import { allocateId } from '../store/ids.js';
import { idFromKey, idKey, tenantPrefix, under } from '../store/keys.js';
import type { Tenant } from '../tenancy/types.js';
import type { WebhookDeliveryResponse } from '../wire/types.js';
import { activeSubscriptions, WEBHOOKS, type EventType, type WebhookRecord } from './store.js';

const DELIVERIES = 'webhook_deliveries';
const QUEUE = 'webhook_due';
const HEADS = 'webhook_heads';
/** The one queue of stores written before `webhook_due`: [due ms, tenant, idKey(webhook), idKey(delivery)] -> Tenant. */
const OLD_QUEUE = 'webhook_queue';
const BY_CUSTOMER = 'webhook_customer_deliveries';

/** Opened with the store (openStore): any thread's or process's transaction may write an event. */
export const OUTBOX_DATABASES = [WEBHOOKS, DELIVERIES, QUEUE, HEADS, BY_CUSTOMER];

/** A delivered or failed delivery stays listed this long, then the dispatcher removes it. */
export const RETENTION_MS = 30 * 24 * 3600 * 1000;

export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** A delivery as stored: the answer's fields (the id an int64 decimal string, the type one of ours) and what only the store needs. */
export interface DeliveryRecord extends Omit<WebhookDeliveryResponse, 'id' | 'type' | 'status'> {
  id: string;
  webhook_id: string;
  type: EventType;
  status: DeliveryStatus;
  /** The request body, the same at every attempt. */
  payload: string;
  /** The event's number in its Company environment (`sequence`, Tally-Event-Sequence); absent in deliveries stored before it. */
  sequence?: string;
  /** The customers its body names, indexed under each (`webhook_customer_deliveries`); absent once erased, or none. */
  customers?: string[];
  /** The time (ms) of its queue entry. */
  due: number;
}

interface Raised {
  tenant: Tenant;
  type: EventType;
  /** The event's data as JSON text, rendered only when a subscription wants it. */
  data: () => string;
  /** The ids of the customers `data` names, asked only when a subscription wants it. */
  customers: () => readonly (string | null | undefined)[];
}

// The key of a transaction's raised events (StoreEnv.collect).
const RAISED = {};

/**
 * Inside `env.transact`: the change being made raises an event of `type`. `customers` names the customers whose
 * personal data `data` holds (a customer's delete erases those deliveries' bodies); both are called only when some
 * subscription wants the event.
 */
export function raiseEvent(env: StoreEnv, tenant: Tenant, type: EventType, data: () => string, customers: Raised['customers']): void {
  env.collect(RAISED, (): Raised[] => [], (raised) => writeEvents(env, raised)).push({ tenant, type, data, customers });
}

interface EventHead {
  event_id: string;
  type: EventType;
  created_at: string;
  sequence?: string;
}

/** What a customer's delete at `at` marks the bodies it erases with (as the audit log's entries, docs/audit-log.md). */
const erasedMark = (at: string) => `{"at":"${at}","reason":"customer_deleted"}`;

/** The request body of an event: `data` and the `redacted` mark as JSON text (`null`, or `erasedMark`). */
function payloadOf(tenant: Tenant, head: EventHead, data: string, redacted: string): string {
  const sequence = head.sequence === undefined ? '' : `"sequence":${head.sequence},`;
  return `{"id":"${head.event_id}","type":"${head.type}","created_at":"${head.created_at}",${sequence}"company_id":${JSON.stringify(tenant.companyId)},"environment":"${tenant.environment}","data":${data},"redacted":${redacted}}`;
}

function writeEvents(env: StoreEnv, raised: readonly Raised[]): void {
  const now = new Date();
  const subscriptions = new Map<string, readonly WebhookRecord[]>();
  for (const { tenant, type, data, customers } of raised) {
    const prefix = tenantPrefix(tenant);
    let active = subscriptions.get(prefix);
    if (!active) subscriptions.set(prefix, (active = activeSubscriptions(env, tenant)));
    const wanting = active.filter((webhook) => webhook.events.includes(type));
    if (wanting.length === 0) continue;
    const eventId = `evt_${randomBytes(16).toString('hex')}`;
    // Allocated by the transaction that commits the event: a Company environment's events are numbered in commit order.
    const sequence = allocateId(env, tenant, 'webhook_event');
    const head: EventHead = { event_id: eventId, type, created_at: wireDatetime(now), sequence };
    const payload = payloadOf(tenant, head, data(), 'null');
    const named = [...new Set(customers().filter((id): id is string => typeof id === 'string'))];
    for (const webhook of wanting) {
      const delivery: DeliveryRecord = {
        id: allocateId(env, tenant, 'webhook_delivery'), webhook_id: webhook.id, event_id: eventId, type, payload, sequence,
        ...(named.length > 0 ? { customers: named } : {}),
        status: 'pending', attempts: 0, last_status_code: null, last_error: null, last_attempt_at: null,
        next_attempt_at: head.created_at, created_at: head.created_at, due: now.getTime(),
      };
      env.db(DELIVERIES).putSync(deliveryKey(tenant, delivery), delivery);
      changeQueue(env, tenant, webhook.id, (queue) => queue.putSync(queueKey(tenant, delivery), tenant));
      for (const customer of named) env.db(BY_CUSTOMER).putSync(customerKey(tenant, customer, delivery), '');
    }
  }
}

function deliveryKey(tenant: Tenant, delivery: DeliveryRecord): string[] {
  return [tenantPrefix(tenant), idKey(delivery.webhook_id), idKey(delivery.id)];
}

function customerKey(tenant: Tenant, customerId: string, delivery: DeliveryRecord): string[] {
  return [tenantPrefix(tenant), idKey(customerId), idKey(delivery.webhook_id), idKey(delivery.id)];
}

/** Inside `env.transact`: the delivery no longer names its customers (erased, or removed). */
function unindexCustomers(env: StoreEnv, tenant: Tenant, delivery: DeliveryRecord): void {
  for (const customer of delivery.customers ?? []) env.db(BY_CUSTOMER).removeSync(customerKey(tenant, customer, delivery));
}

/**
 * Inside a customer's delete transaction (docs/webhooks.md, Deleted customers): every delivery whose body names the
 * customer, pending or settled, keeps its event's id, type, created_at and sequence and loses its data (`data: null`,
 * `redacted: {at, reason: "customer_deleted"}`); a pending one is still sent, redacted. Reads only the customer's
 * entries of `webhook_customer_deliveries`. The delete's own transaction raises only customer.deleted, which names no
 * profile: written after this, it is sent whole.
 */
export function eraseCustomerFromDeliveries(env: StoreEnv, tenant: Tenant, customerId: string, at: string): void {
  for (const { key } of env.db(BY_CUSTOMER).getRange(under([tenantPrefix(tenant), idKey(customerId)]))) {
    const [, , webhookPart, deliveryPart] = key as string[];
    const delivery = getDelivery(env, tenant, idFromKey(webhookPart), idFromKey(deliveryPart));
    env.db(BY_CUSTOMER).removeSync(key);
    if (!delivery) continue;
    unindexCustomers(env, tenant, delivery);
    const { customers: _customers, ...kept } = delivery;
    env.db(DELIVERIES).putSync(deliveryKey(tenant, delivery), { ...kept, payload: payloadOf(tenant, delivery, 'null', erasedMark(at)) });
  }
}

type QueueKey = [string, string, number, string];

function queueKey(tenant: Tenant, delivery: DeliveryRecord): QueueKey {
  return [tenantPrefix(tenant), idKey(delivery.webhook_id), delivery.due, idKey(delivery.id)];
}

/** A subscription's queue entries due from `from` to `to` (ms, both included). */
const queueRange = (prefix: string, webhookKey: string, from: number, to: number) => ({ start: [prefix, webhookKey, from], end: [prefix, webhookKey, to + 1] });

/** The due (ms) of a subscription's earliest queue entry. */
function headOf(env: StoreEnv, prefix: string, webhookKey: string): number | undefined {
  for (const { key } of env.db(QUEUE).getRange({ ...queueRange(prefix, webhookKey, 0, Number.MAX_SAFE_INTEGER - 1), limit: 1 })) return (key as QueueKey)[2];
  return undefined;
}

/** Inside `env.transact`: changes a subscription's queue and moves its `webhook_heads` entry with its earliest one. */
function changeQueue(env: StoreEnv, tenant: Tenant, webhookId: string, change: (queue: Db) => void): void {
  const prefix = tenantPrefix(tenant);
  const webhookKey = idKey(webhookId);
  const before = headOf(env, prefix, webhookKey);
  change(env.db(QUEUE));
  const after = headOf(env, prefix, webhookKey);
  if (before === after) return;
  if (before !== undefined) env.db(HEADS).removeSync([before, prefix, webhookKey]);
  if (after !== undefined) env.db(HEADS).putSync([after, prefix, webhookKey], tenant);
}

/** The key range of a webhook's deliveries, in id order. */
export function deliveriesOf(env: StoreEnv, tenant: Tenant, webhookId: string) {
  return { db: env.db(DELIVERIES), prefix: [tenantPrefix(tenant), idKey(webhookId)] };
}

/** Inside `env.transact`: stores the delivery, its queue entry moved to `due` (ms). */
export function putDeliveryInTransaction(env: StoreEnv, tenant: Tenant, previous: DeliveryRecord, next: DeliveryRecord): void {
  changeQueue(env, tenant, previous.webhook_id, (queue) => {
    queue.removeSync(queueKey(tenant, previous));
    queue.putSync(queueKey(tenant, next), tenant);
  });
  env.db(DELIVERIES).putSync(deliveryKey(tenant, next), next);
}

/** Inside `env.transact`: stores the delivery delivered or failed, its queue entry moved to its removal, `RETENTION_MS` after `now` (ms). */
export function settleInTransaction(env: StoreEnv, tenant: Tenant, previous: DeliveryRecord, next: DeliveryRecord, now: number): void {
  putDeliveryInTransaction(env, tenant, previous, { ...next, next_attempt_at: null, due: now + RETENTION_MS });
}

/**
 * Inside `env.transact`: fails a webhook's pending deliveries, those of the event types `types` or all, with `reason`
 * as their last error, so none is sent, even if the webhook is activated (the type subscribed) again before their
 * next attempt: a deactivation fails them all ("webhook deactivated"), a change of `events` those of the types it
 * removes ("event type unsubscribed"). One claimed meanwhile records no outcome (its lease moved). Answers the ids
 * of the deliveries failed.
 */
export function failPendingInTransaction(env: StoreEnv, tenant: Tenant, webhookId: string, now: number, reason: string, types?: readonly EventType[]): string[] {
  const { db, prefix } = deliveriesOf(env, tenant, webhookId);
  const failed: string[] = [];
  for (const { value } of db.getRange(under(prefix))) {
    const delivery = value as DeliveryRecord;
    if (delivery.status !== 'pending' || (types && !types.includes(delivery.type))) continue;
    settleInTransaction(env, tenant, delivery, { ...delivery, status: 'failed', last_error: reason }, now);
    failed.push(delivery.id);
  }
  return failed;
}

/**
 * The duplicate-suppression target of a delivery (its manual retry's): a change the server makes to it afterwards
 * (an attempt recorded, a deactivation failing it) ends the retry's window (`DuplicateSuppressor.changed`), so the
 * same retry sent again runs rather than answering `pending` for a delivery that failed since.
 */
export function deliveryTarget(webhookId: string, deliveryId: string): string {
  return `webhook_delivery:${webhookId}:${deliveryId}`;
}

/** Inside `env.transact`: removes a queue entry that names no delivery at its due (its delivery removed, or moved without it). */
export function removeStaleEntryInTransaction(env: StoreEnv, subscription: DueSubscription, entry: DueEntry): void {
  const { tenant, webhookId } = subscription;
  changeQueue(env, tenant, webhookId, (queue) => queue.removeSync([tenantPrefix(tenant), idKey(webhookId), entry.due, idKey(entry.deliveryId)]));
}

/** Inside `env.transact`: removes the delivery and its queue entry. */
export function removeDeliveryInTransaction(env: StoreEnv, tenant: Tenant, delivery: DeliveryRecord): void {
  unindexCustomers(env, tenant, delivery);
  changeQueue(env, tenant, delivery.webhook_id, (queue) => queue.removeSync(queueKey(tenant, delivery)));
  env.db(DELIVERIES).removeSync(deliveryKey(tenant, delivery));
}

/** Inside `env.transact`: removes every delivery of a webhook (its pending events are never sent). */
export function removeDeliveriesInTransaction(env: StoreEnv, tenant: Tenant, webhookId: string): void {
  const { db, prefix } = deliveriesOf(env, tenant, webhookId);
  for (const { value } of db.getRange(under(prefix))) removeDeliveryInTransaction(env, tenant, value as DeliveryRecord);
}

export function getDelivery(env: StoreEnv, tenant: Tenant, webhookId: string, id: string): DeliveryRecord | undefined {
  return env.db(DELIVERIES).get([tenantPrefix(tenant), idKey(webhookId), idKey(id)]) as DeliveryRecord | undefined;
}

/** A subscription with queue entries due. */
export interface DueSubscription {
  tenant: Tenant;
  webhookId: string;
}

/** The subscriptions whose earliest queue entry is due by `now` (ms), the one due longest first. */
export function dueSubscriptions(env: StoreEnv, now: number): DueSubscription[] {
  const due: DueSubscription[] = [];
  for (const { key, value } of env.db(HEADS).getRange({ start: [0], end: [now + 1] })) {
    due.push({ tenant: value as Tenant, webhookId: idFromKey((key as [number, string, string])[2]) });
  }
  return due;
}

/** What is due in the outbox (the metrics' gauges). */
export interface Backlog {
  /** Queue entries due: deliveries new or retrying, not claimed (a claim moves its entry past the lease). */
  deliveries: number;
  subscriptions: number;
  /** Seconds since the earliest due entry was due; 0 when none is. */
  oldestSeconds: number;
}

/**
 * What is due by `now` (ms): reads `webhook_heads` up to `now` and counts each due subscription's due keys (no
 * value read). A settled delivery's entry is due only once its retention ended, until the next claim removes it.
 */
export function outboxBacklog(env: StoreEnv, now: number): Backlog {
  let deliveries = 0;
  let subscriptions = 0;
  let oldest: number | undefined;
  for (const key of env.db(HEADS).getKeys({ start: [0], end: [now + 1] })) {
    const [due, prefix, webhookKey] = key as [number, string, string];
    oldest ??= due;
    subscriptions += 1;
    deliveries += env.db(QUEUE).getKeysCount(queueRange(prefix, webhookKey, 0, now));
  }
  return { deliveries, subscriptions, oldestSeconds: oldest === undefined ? 0 : (now - oldest) / 1000 };
}

/** A queue entry due by `now` (ms): the delivery it names. */
export interface DueEntry {
  deliveryId: string;
  due: number;
}

/** Up to `limit` of a subscription's queue entries due by `now` (ms), earliest first. */
export function dueEntries(env: StoreEnv, { tenant, webhookId }: DueSubscription, now: number, limit: number): DueEntry[] {
  const entries: DueEntry[] = [];
  for (const { key } of env.db(QUEUE).getRange({ ...queueRange(tenantPrefix(tenant), idKey(webhookId), 0, now), limit })) {
    const [, , due, deliveryKey] = key as QueueKey;
    entries.push({ deliveryId: idFromKey(deliveryKey), due });
  }
  return entries;
}

/**
 * At start, before the dispatcher: moves the entries of a store's `webhook_queue` (one queue for every subscription,
 * due first) into the subscriptions' queues, `batch` a transaction, each removing what it moved (a restart goes on
 * where it stopped; an emptied one costs one read). Answers how many it moved.
 */
export async function migrateWebhookQueue(env: StoreEnv, batch = 10_000): Promise<number> {
  const old = env.existingDb(OLD_QUEUE);
  if (!old) return 0;
  let moved = 0;
  for (;;) {
    const count = await env.transact(() => {
      // Read first: the old entries are removed after, not while a cursor walks them.
      const some = [...old.getRange({ limit: batch })];
      for (const { key, value } of some) {
        const [due, prefix, webhookKey, deliveryKey] = key as [number, string, string, string];
        changeQueue(env, value as Tenant, idFromKey(webhookKey), (queue) => queue.putSync([prefix, webhookKey, due, deliveryKey], value));
        old.removeSync(key);
      }
      return some.length;
    });
    moved += count;
    if (count < batch) return moved;
  }
}
