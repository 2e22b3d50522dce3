/**
 * Products: POST /products, GET, PATCH (PUT) and DELETE /products/{id}.
 * Create, update and delete go through duplicate suppression; a product's
 * features must exist (404 feature_not_found naming the list entry).
 */
import type { ServerContext } from '../context.js';
import { requireInt64 } from '../http/params.js';
import { ok, success, type Routes } from '../http/types.js';
import { validate } from '../http/validation.js';
import { wireInt } from '../http/wire.js';
import { timestamp } from '../taxonomies/timestamp.js';
import { distinctFeatures } from '../taxonomies/types.js';
import { ProductStore } from './store.js';

export function productRoutes({ env, duplicates }: ServerContext): Routes {
  const store = new ProductStore(env);
  return {
    'products.create': (req) => {
      const body = validate('product.create', req.body);
      return duplicates.suppress(req, `product:${body.id}`, async () => {
        const now = timestamp(req);
        await store.create(req.tenant, {
          id: body.id,
          code: body.code ?? null,
          ean: body.ean ?? null,
          name: body.name,
          description: body.description ?? null,
          active: body.active,
          features: distinctFeatures(body.features ?? []),
          created_at: now,
          updated_at: now,
        });
        return success({ id: wireInt(body.id) });
      });
    },

    'products.get': (req) => {
      const id = requireInt64(req.params.id, 'id');
      const product = store.getOrThrow(req.tenant, id);
      return ok({ ...product, id: wireInt(product.id), features: store.taxonomies.describe(req.tenant, product.features) });
    },

    'products.update': (req) => {
      const id = requireInt64(req.params.id, 'id');
      return duplicates.suppress(req, `product:${id}`, async () => {
        const patch = validate('product.update', req.body);
        if (patch.features) patch.features = distinctFeatures(patch.features);
        await store.update(req.tenant, id, patch, timestamp(req));
        return success();
      });
    },

    'products.delete': (req) => {
      const id = requireInt64(req.params.id, 'id');
      return duplicates.suppress(req, `product:${id}`, async () => {
        await store.delete(req.tenant, id);
        return success();
      });
    },
  };
}
