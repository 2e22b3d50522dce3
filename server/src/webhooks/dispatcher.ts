/**
 * The webhook dispatcher: one per server, on the main thread (docs/webhooks.md).
 * Every poll it claims the due deliveries of the outbox in one transaction,
 * subscription by subscription, each up to its cap of attempts in flight
 * (leased: moved past the attempt's timeout, so another server on the same
 * store, or this one after a crash, sends it again only if this attempt never
 * records its outcome), POSTs each, signed, and records the outcome: delivered
 * on a 2xx, else the next attempt after the retry schedule's delay, failed
 * once the schedule is spent. At least once: the event id never changes.
 */
import { createHmac } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { DuplicateSuppressor } from '../http/duplicates.js';
import type { Logger } from '../log.js';
import type { Metrics } from '../metrics/metrics.js';
import { wireDatetime } from '../http/wire.js';
import type { StoreEnv } from '../store/env.js';
import { tenantPrefix } from '../store/keys.js';
import type { Tenant } from '../tenancy/types.js';
import {
  deliveryTarget, dueEntries, dueSubscriptions, getDelivery, putDeliveryInTransaction, removeDeliveryInTransaction, removeStaleEntryInTransaction, settleInTransaction, type DeliveryRecord, type DueSubscription,
} from './outbox.js';
import { DestinationRefused, namesPrivateAddress, publicLookup, type PrivateAddresses } from './destinations.js';
import { getWebhook } from './store.js';

export interface DispatchOptions {
  pollMs: number;
  timeoutMs: number;
  /** Delays (seconds) before the second, third, ... attempt. */
  retrySeconds: readonly number[];
  /** WEBHOOK_PRIVATE_ADDRESSES: `refuse` keeps attempts off the operator's own networks (destinations.ts). */
  privateAddresses: PrivateAddresses;
}

/** Deliveries sent at once, at most. */
const IN_FLIGHT = 32;
/** Deliveries of one subscription sent at once, at most: a receiver that never answers holds this many slots, not all. */
const PER_SUBSCRIPTION = 4;
/** Settled deliveries past their retention a subscription's claim removes, at most, besides those it sends. */
const REMOVALS = 32;
/** How long past its timeout a claimed attempt holds its delivery. */
const LEASE_MARGIN_MS = 5_000;
/** The most of a failure's text kept as last_error. */
const ERROR_LENGTH = 500;

interface Claim {
  tenant: Tenant;
  delivery: DeliveryRecord;
  url: string;
  secret: string;
}

/** What recording an attempt did (the metrics' `outcome`): superseded when the delivery changed meanwhile and nothing was recorded. */
export type AttemptOutcome = 'delivered' | 'retry' | 'failed' | 'superseded';

interface Outcome {
  status: number | null;
  error: string | null;
}

/**
 * Starts polling; the function returned stops it once the attempts in flight are recorded. `duplicates` learns of
 * each attempt's outcome: a manual retry answered before it no longer describes the delivery (deliveryTarget);
 * `metrics`, when on, counts each attempt recorded by outcome and reads the attempts in flight.
 */
export function startWebhookDispatcher(env: StoreEnv, log: Logger, options: DispatchOptions, duplicates: DuplicateSuppressor, metrics?: Metrics): () => Promise<void> {
  const inFlight = new Set<Promise<void>>();
  metrics?.readAttemptsInFlight(() => inFlight.size);
  // Attempts in flight per subscription (subscriptionKey), this process's.
  const busy = new Map<string, number>();
  const free = (subscription: DueSubscription) => PER_SUBSCRIPTION - (busy.get(subscriptionKey(subscription)) ?? 0);
  let polling = false;
  const poll = async () => {
    if (polling || inFlight.size >= IN_FLIGHT) return;
    polling = true;
    try {
      // Read first, outside a transaction: an idle outbox, or one whose due subscriptions are all at their cap, costs no write.
      if (!dueSubscriptions(env, Date.now()).some((due) => free(due) > 0)) return;
      const claims = await env.transact(() => claim(env, Date.now(), IN_FLIGHT - inFlight.size, free, options.timeoutMs + LEASE_MARGIN_MS));
      for (const claimed of claims) {
        const key = subscriptionKey({ tenant: claimed.tenant, webhookId: claimed.delivery.webhook_id });
        busy.set(key, (busy.get(key) ?? 0) + 1);
        const attempt = send(claimed, options)
          .then((outcome) => {
            // Before the outcome is visible, so no read of it precedes the end of the window; a retry meanwhile finds it pending (409).
            duplicates.changed(claimed.tenant, deliveryTarget(claimed.delivery.webhook_id, claimed.delivery.id));
            return env.transact(() => record(env, claimed, outcome, new Date(), options.retrySeconds));
          })
          .then((recorded) => metrics?.webhookAttempt(claimed.delivery.type, recorded))
          .catch((err: unknown) => log.error({ err }, 'webhook delivery not recorded'))
          .finally(() => {
            inFlight.delete(attempt);
            const left = busy.get(key)! - 1;
            if (left === 0) busy.delete(key);
            else busy.set(key, left);
          });
        inFlight.add(attempt);
      }
    } catch (err) {
      log.error({ err }, 'webhook dispatch failed');
    } finally {
      polling = false;
    }
  };
  const timer = setInterval(() => void poll(), options.pollMs);
  timer.unref();
  void poll();
  return async () => {
    clearInterval(timer);
    while (polling) await new Promise((next) => setTimeout(next, 10));
    await Promise.allSettled([...inFlight]);
  };
}

const subscriptionKey = ({ tenant, webhookId }: DueSubscription) => `${tenantPrefix(tenant)}/${webhookId}`;

/**
 * Inside `env.transact`: claims up to `limit` due deliveries, taking from each due subscription, the one due longest
 * first, at most its `free` slots; removes settled ones whose retention ended.
 */
function claim(env: StoreEnv, now: number, limit: number, free: (subscription: DueSubscription) => number, leaseMs: number): Claim[] {
  const claims: Claim[] = [];
  for (const subscription of dueSubscriptions(env, now)) {
    const slots = Math.min(free(subscription), limit - claims.length);
    if (slots > 0) claims.push(...claimOf(env, subscription, now, slots, leaseMs));
    if (claims.length >= limit) break;
  }
  return claims;
}

/** Inside `env.transact`: claims up to `slots` due deliveries of a subscription. */
function claimOf(env: StoreEnv, subscription: DueSubscription, now: number, slots: number, leaseMs: number): Claim[] {
  const claims: Claim[] = [];
  const { tenant, webhookId } = subscription;
  for (const entry of dueEntries(env, subscription, now, slots + REMOVALS)) {
    if (claims.length >= slots) break;
    const delivery = getDelivery(env, tenant, webhookId, entry.deliveryId);
    if (!delivery || delivery.due !== entry.due) {
      // An entry left behind by its delivery (removed, or moved to another due without it): kept, it would be
      // skipped at every poll and keep its subscription listed as due.
      removeStaleEntryInTransaction(env, subscription, entry);
      continue;
    }
    if (delivery.status !== 'pending') {
      removeDeliveryInTransaction(env, tenant, delivery);
      continue;
    }
    const webhook = getWebhook(env, tenant, webhookId);
    if (!webhook) {
      removeDeliveryInTransaction(env, tenant, delivery);
      continue;
    }
    if (!webhook.active) {
      // Its deactivation fails its pending deliveries (failPendingInTransaction); one a store of an earlier version left pending is failed here.
      settleInTransaction(env, tenant, delivery, { ...delivery, status: 'failed', last_error: 'webhook deactivated' }, now);
      continue;
    }
    const leased = { ...delivery, due: now + leaseMs };
    putDeliveryInTransaction(env, tenant, delivery, leased);
    claims.push({ tenant, delivery: leased, url: webhook.url, secret: webhook.secret });
  }
  return claims;
}

/** The `Tally-Signature` header of a body sent at `seconds` (Unix time). */
function signature(secret: string, seconds: number, body: string): string {
  return `t=${seconds},v1=${createHmac('sha256', secret).update(`${seconds}.${body}`).digest('hex')}`;
}

function send({ delivery, url, secret }: Claim, options: DispatchOptions): Promise<Outcome> {
  const signal = AbortSignal.timeout(options.timeoutMs);
  const failed = (err: Error & { code?: string }): Outcome => {
    const text = err instanceof DestinationRefused ? err.message : signal.aborted ? `no answer within ${options.timeoutMs} ms` : (err.code ?? err.message);
    return { status: null, error: text.slice(0, ERROR_LENGTH) };
  };
  const refuse = options.privateAddresses === 'refuse';
  // Node connects to an IP literal without a lookup: checked here, names by publicLookup as they are resolved.
  if (refuse && namesPrivateAddress(url)) return Promise.resolve(failed(new DestinationRefused()));
  return new Promise<Outcome>((resolve) => {
    // node:http(s), not fetch: its `lookup` lets the socket connect to the very addresses checked. A redirect is
    // not followed (it never is by node:http): it is a failed attempt, the subscription names where events go.
    // The scheme as the URL parser reads it: `HTTPS://` is https too.
    const request = new URL(url).protocol === 'https:' ? httpsRequest : httpRequest;
    const req = request(url, {
      method: 'POST',
      signal,
      lookup: refuse ? publicLookup : undefined,
      headers: {
        'Content-Type': 'application/json',
        'Content-Length': Buffer.byteLength(delivery.payload),
        'User-Agent': 'Tally-Webhooks/1',
        'Tally-Event-Id': delivery.event_id,
        'Tally-Event-Type': delivery.type,
        ...(delivery.sequence === undefined ? {} : { 'Tally-Event-Sequence': delivery.sequence }),
        'Tally-Signature': signature(secret, Math.floor(Date.now() / 1000), delivery.payload),
      },
    }, (res) => {
      res.resume();
      const status = res.statusCode!;
      resolve({ status, error: status >= 200 && status < 300 ? null : `answered ${status}` });
    });
    req.on('error', (err) => resolve(failed(err)));
    req.end(delivery.payload);
  }).catch((err: Error) => failed(err));
}

/** Inside `env.transact`: the attempt's outcome; the delivery is retried, or settled. */
function record(env: StoreEnv, claimed: Claim, outcome: Outcome, at: Date, retrySeconds: readonly number[]): AttemptOutcome {
  const current = getDelivery(env, claimed.tenant, claimed.delivery.webhook_id, claimed.delivery.id);
  // Removed with its webhook meanwhile, failed by its deactivation, or claimed again after the lease ran out: that attempt records its own.
  if (!current || current.due !== claimed.delivery.due) return 'superseded';
  const attempts = current.attempts + 1;
  const tried = { ...current, attempts, last_status_code: outcome.status, last_error: outcome.error, last_attempt_at: wireDatetime(at) };
  const now = at.getTime();
  if (outcome.error === null) {
    settleInTransaction(env, claimed.tenant, current, { ...tried, status: 'delivered' }, now);
    return 'delivered';
  }
  if (attempts > retrySeconds.length) {
    settleInTransaction(env, claimed.tenant, current, { ...tried, status: 'failed' }, now);
    return 'failed';
  }
  const due = now + retrySeconds[attempts - 1] * 1000;
  putDeliveryInTransaction(env, claimed.tenant, current, { ...tried, due, next_attempt_at: wireDatetime(new Date(due)) });
  return 'retry';
}
