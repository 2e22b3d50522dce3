/**
 * Legacy promotions: POST /promotions, PATCH (PUT) and DELETE /promotions/{id}.
 * The contract has no read; carts read them through PromotionStore.
 */
import type { ServerContext } from '../context.js';
import { requireInt64 } from '../http/params.js';
import { success, type Routes } from '../http/types.js';
import { validate } from '../http/validation.js';
import { wireInt } from '../http/wire.js';
import { timestamp } from '../taxonomies/timestamp.js';
import { PromotionStore } from './store.js';

export function promotionRoutes({ env, duplicates }: ServerContext): Routes {
  const store = new PromotionStore(env);
  return {
    'promotions.create': (req) => {
      const body = validate('promotion.create', req.body);
      return duplicates.suppress(req, `promotion:${body.id}`, async () => {
        const now = timestamp(req);
        await store.create(req.tenant, {
          id: body.id,
          code: body.code ?? null,
          name: body.name,
          description: body.description ?? null,
          active: body.active,
          available_from: body.available_from ?? null,
          available_to: body.available_to ?? null,
          created_at: now,
          updated_at: now,
        });
        return success({ id: wireInt(body.id) });
      });
    },

    'promotions.update': (req) => {
      const id = requireInt64(req.params.id, 'id');
      return duplicates.suppress(req, `promotion:${id}`, async () => {
        const patch = validate('promotion.update', req.body);
        await store.update(req.tenant, id, patch, timestamp(req));
        return success();
      });
    },

    'promotions.delete': (req) => {
      const id = requireInt64(req.params.id, 'id');
      return duplicates.suppress(req, `promotion:${id}`, async () => {
        await store.delete(req.tenant, id);
        return success();
      });
    },
  };
}
