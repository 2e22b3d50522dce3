/** Webhook subscriptions and their deliveries (Tally's back office, docs/webhooks.md). */
import { auditTarget } from '../audit/context.js';
import { randomBytes } from 'node:crypto';
import { invalidRequest, TallyError } from '@tally/engine';
import type { ServerContext } from '../context.js';
import { createTarget } from '../http/duplicates.js';
import { optionalEnum, readPage, requireInt64 } from '../http/params.js';
import { ok, success, type Routes } from '../http/types.js';
import { validate } from '../http/validation.js';
import { wireDatetime, wireInt } from '../http/wire.js';
import type { StoreEnv } from '../store/env.js';
import { allocateId } from '../store/ids.js';
import { tenantPrefix } from '../store/keys.js';
import { paginate } from '../store/paginate.js';
import { changesNothing } from '../store/unchanged.js';
import type { Tenant } from '../tenancy/types.js';
import { DELIVERY_STATUSES, deliveriesOf, deliveryTarget, failPendingInTransaction, getDelivery, putDeliveryInTransaction, removeDeliveriesInTransaction, type DeliveryRecord } from './outbox.js';
import { DESTINATION_REFUSED, namesPrivateAddress } from './destinations.js';
import { putWebhookInTransaction, removeWebhookInTransaction, requireWebhook, WEBHOOKS, type WebhookRecord } from './store.js';

function webhookView(webhook: WebhookRecord) {
  return { ...webhook, id: wireInt(webhook.id) };
}

function deliveryView(delivery: DeliveryRecord) {
  const { payload: _payload, due: _due, webhook_id: _webhook, sequence: _sequence, customers: _customers, ...view } = delivery;
  return { ...view, id: wireInt(delivery.id) };
}

/**
 * Inside `env.transact`: fails the pending deliveries a subscription's update stops, so none is sent: all of them when
 * it deactivates the subscription, else those of the event types it removes from `events`. Answers their ids.
 */
function failPendingOfUpdate(env: StoreEnv, tenant: Tenant, stored: WebhookRecord, changed: WebhookRecord, now: number): string[] {
  if (stored.active && !changed.active) return failPendingInTransaction(env, tenant, stored.id, now, 'webhook deactivated');
  const removed = stored.events.filter((type) => !changed.events.includes(type));
  return removed.length > 0 ? failPendingInTransaction(env, tenant, stored.id, now, 'event type unsubscribed', removed) : [];
}

/** The HMAC key of a subscription's signatures: whsec_ and 32 random bytes in hex. */
function newSecret(): string {
  return `whsec_${randomBytes(32).toString('hex')}`;
}

export function webhookRoutes({ env, duplicates, config }: ServerContext): Routes {
  /**
   * The body, validated: a url the URL parser reads (the schema's pattern alone let `http://[zz]/` and
   * `http://h:99999/` through, and every delivery to them failed); with WEBHOOK_PRIVATE_ADDRESSES=refuse, a url
   * naming a private address is refused before anything is stored.
   */
  const validDestination = <T extends { url?: string }>(body: T): T => {
    if (body.url !== undefined && !URL.canParse(body.url)) throw invalidRequest('url', 'must be an http or https URL');
    if (config.webhookPrivateAddresses === 'refuse' && body.url !== undefined && namesPrivateAddress(body.url)) {
      throw invalidRequest('url', `${DESTINATION_REFUSED}: loopback, private, link-local, documentation and other addresses that are not globally reachable are refused (WEBHOOK_PRIVATE_ADDRESSES=refuse)`);
    }
    return body;
  };
  return {
    'webhooks.create': (req) => {
      const body = validDestination(validate('webhooks.create', req.body));
      return duplicates.suppress(req, createTarget('webhook', 'create'), async () => {
        const at = wireDatetime(req.now);
        const webhook = await env.transact(() => {
          const created: WebhookRecord = {
            id: allocateId(env, req.tenant, 'webhook'), url: body.url, events: body.events, active: body.active ?? true,
            description: body.description ?? null, secret: newSecret(), created_at: at, updated_at: at,
          };
          putWebhookInTransaction(env, req.tenant, created);
          auditTarget(req, `webhook:${created.id}`);
          return created;
        });
        return ok(webhookView(webhook));
      });
    },

    'webhooks.list': (req) => ok(paginate<WebhookRecord, unknown>(env.db(WEBHOOKS), [tenantPrefix(req.tenant)], readPage(req.query), webhookView)),

    'webhooks.get': (req) => ok(webhookView(requireWebhook(env, req.tenant, requireInt64(req.params.id, 'id')))),

    'webhooks.update': (req) => {
      const id = requireInt64(req.params.id, 'id');
      const body = validDestination(validate('webhooks.update', req.body));
      const updated = (stored: WebhookRecord): WebhookRecord => ({ ...stored, ...body, updated_at: wireDatetime(req.now) });
      return duplicates.suppress(req, `webhook:${id}`, async () => {
        // An update that leaves the subscription as it is writes nothing: updated_at kept, no audit entry (as a
        // customer's). Judged on the record as read now: a change committed after this read is one it came before.
        const current = requireWebhook(env, req.tenant, id);
        if (changesNothing(updated(current), current)) return ok(webhookView(current));
        const { webhook, failed } = await env.transact(() => {
          const stored = requireWebhook(env, req.tenant, id);
          const changed = updated(stored);
          const failed = failPendingOfUpdate(env, req.tenant, stored, changed, req.now.getTime());
          putWebhookInTransaction(env, req.tenant, changed);
          return { webhook: changed, failed };
        });
        for (const deliveryId of failed) duplicates.changed(req.tenant, deliveryTarget(id, deliveryId));
        return ok(webhookView(webhook));
      });
    },

    'webhooks.delete': (req) => {
      const id = requireInt64(req.params.id, 'id');
      return duplicates.suppress(req, `webhook:${id}`, async () => {
        await env.transact(() => {
          requireWebhook(env, req.tenant, id);
          removeDeliveriesInTransaction(env, req.tenant, id);
          removeWebhookInTransaction(env, req.tenant, id);
        });
        return success();
      });
    },

    // No grace period: the old secret signs nothing from the next attempt on (docs/webhooks.md).
    'webhooks.rotate_secret': (req) => {
      const id = requireInt64(req.params.id, 'id');
      return duplicates.suppress(req, `webhook:${id}`, async () => {
        const webhook = await env.transact(() => {
          const changed = { ...requireWebhook(env, req.tenant, id), secret: newSecret(), updated_at: wireDatetime(req.now) };
          putWebhookInTransaction(env, req.tenant, changed);
          return changed;
        });
        return ok(webhookView(webhook));
      });
    },

    // Newest first: an operator looks for what just failed.
    'webhooks.deliveries': (req) => {
      const id = requireInt64(req.params.id, 'id');
      const status = optionalEnum(req.query.get('status') || undefined, 'status', DELIVERY_STATUSES);
      const type = req.query.get('event_type') || undefined;
      requireWebhook(env, req.tenant, id);
      const { db, prefix } = deliveriesOf(env, req.tenant, id);
      const keep = (delivery: DeliveryRecord) => (status === undefined || delivery.status === status) && (type === undefined || delivery.type === type);
      return ok(paginate<DeliveryRecord, unknown>(db, prefix, readPage(req.query), (delivery) => (keep(delivery) ? deliveryView(delivery) : undefined), true));
    },

    // A failed (or delivered) delivery sent again now, same event id and body: what an operator needs once the receiver is fixed.
    'webhooks.retry_delivery': (req) => {
      const id = requireInt64(req.params.id, 'id');
      const deliveryId = requireInt64(req.params.delivery_id, 'delivery_id');
      return duplicates.suppress(req, deliveryTarget(id, deliveryId), async () => {
        const delivery = await env.transact(() => {
          const webhook = requireWebhook(env, req.tenant, id);
          const current = getDelivery(env, req.tenant, id, deliveryId);
          if (!current) throw new TallyError('delivery_not_found', `delivery_id: webhook ${id} has no delivery ${deliveryId}`, 'delivery_id');
          if (current.status === 'pending') throw new TallyError('conflict', `delivery_id: delivery ${deliveryId} is pending (next attempt at ${current.next_attempt_at})`, 'delivery_id');
          // The dispatcher would fail it again at once ("webhook deactivated").
          if (!webhook.active) throw new TallyError('conflict', `id: webhook ${id} is inactive: activate it first`, 'id');
          const queued: DeliveryRecord = { ...current, status: 'pending', due: req.now.getTime(), next_attempt_at: wireDatetime(req.now) };
          putDeliveryInTransaction(env, req.tenant, current, queued);
          return queued;
        });
        return ok(deliveryView(delivery));
      });
    },
  };
}
