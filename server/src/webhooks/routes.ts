/** Webhook subscriptions and their deliveries (Tally's back office, docs/webhooks.md). */
import { auditTarget } from '../audit/context.js';
import { randomBytes } from 'node:crypto';
import type { ServerContext } from '../context.js';
import { readPage, requireInt64 } from '../http/params.js';
import { ok, success, type Routes } from '../http/types.js';
import { validate } from '../http/validation.js';
import { wireDatetime, wireInt } from '../http/wire.js';
import { allocateId } from '../store/ids.js';
import { tenantPrefix } from '../store/keys.js';
import { paginate } from '../store/paginate.js';
import { deliveriesOf, removeDeliveriesInTransaction, type DeliveryRecord } from './outbox.js';
import { putWebhookInTransaction, removeWebhookInTransaction, requireWebhook, WEBHOOKS, type WebhookRecord } from './store.js';

function webhookView(webhook: WebhookRecord) {
  return { ...webhook, id: wireInt(webhook.id) };
}

function deliveryView(delivery: DeliveryRecord) {
  const { payload: _payload, due: _due, webhook_id: _webhook, ...view } = delivery;
  return { ...view, id: wireInt(delivery.id) };
}

export function webhookRoutes({ env, duplicates }: ServerContext): Routes {
  return {
    'webhooks.create': (req) => {
      const body = validate('webhooks.create', req.body);
      return duplicates.suppress(req, 'webhooks', async () => {
        const at = wireDatetime(req.now);
        const webhook = await env.transact(() => {
          const created: WebhookRecord = {
            id: allocateId(env, req.tenant, 'webhook'), url: body.url, events: body.events, active: body.active ?? true,
            description: body.description ?? null, secret: `whsec_${randomBytes(32).toString('hex')}`, created_at: at, updated_at: at,
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
      const body = validate('webhooks.update', req.body);
      return duplicates.suppress(req, `webhook:${id}`, async () => {
        const webhook = await env.transact(() => {
          const changed = { ...requireWebhook(env, req.tenant, id), ...body, updated_at: wireDatetime(req.now) };
          putWebhookInTransaction(env, req.tenant, changed);
          return changed;
        });
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

    'webhooks.deliveries': (req) => {
      const id = requireInt64(req.params.id, 'id');
      requireWebhook(env, req.tenant, id);
      const { db, prefix } = deliveriesOf(env, req.tenant, id);
      return ok(paginate<DeliveryRecord, unknown>(db, prefix, readPage(req.query), deliveryView));
    },
  };
}
