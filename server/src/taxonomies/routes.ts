/**
 * Taxonomy and feature operations, built for one kind: product taxonomies
 * (POST /taxonomies, /taxonomies/{taxonomy_slug}/features, ...) here, and
 * location taxonomies (/locations/taxonomies/...) by locations/routes.ts.
 * Create, update and delete go through duplicate suppression.
 */
import type { ServerContext } from '../context.js';
import type { OperationId } from '../http/operations.js';
import { requireInt64, requireWire } from '../http/params.js';
import { success, type Handler, type Routes, type TallyRequest } from '../http/types.js';
import { validate } from '../http/validation.js';
import { wireInt } from '../http/wire.js';
import { TaxonomyStore } from './store.js';
import { timestamp } from './timestamp.js';
import type { TaxonomyKind } from './types.js';

export function taxonomyHandlers({ env, duplicates }: ServerContext, kind: TaxonomyKind): Routes {
  const store = new TaxonomyStore(env, kind);
  const op = (name: string) => `${kind === 'product' ? '' : 'location_'}${name}` as OperationId;
  const slugOf = (req: TallyRequest, param = 'slug') => requireWire('slug', req.params[param], param);
  const handlers: Record<string, Handler> = {
    [op('taxonomies.create')]: (req) => {
      const body = validate('taxonomy.create', req.body);
      return duplicates.suppress(req, `${kind}_taxonomy:${body.slug}`, async () => {
        const now = timestamp(req);
        await store.createTaxonomy(req.tenant, {
          slug: body.slug,
          name: body.name,
          description: body.description ?? null,
          created_at: now,
          updated_at: now,
        });
        return success({ slug: body.slug });
      });
    },

    [op('taxonomies.update')]: (req) => {
      const slug = slugOf(req);
      return duplicates.suppress(req, `${kind}_taxonomy:${slug}`, async () => {
        const patch = validate('taxonomy.update', req.body);
        await store.updateTaxonomy(req.tenant, slug, patch, timestamp(req));
        return success();
      });
    },

    [op('taxonomies.delete')]: (req) => {
      const slug = slugOf(req);
      return duplicates.suppress(req, `${kind}_taxonomy:${slug}`, async () => {
        await store.deleteTaxonomy(req.tenant, slug);
        return success();
      });
    },

    [op('features.create')]: (req) => {
      const slug = slugOf(req, 'taxonomy_slug');
      const body = validate('feature.create', req.body);
      return duplicates.suppress(req, `${kind}_feature:${slug}:${body.id}`, async () => {
        const now = timestamp(req);
        await store.createFeature(req.tenant, {
          id: body.id,
          taxonomy_slug: slug,
          name: body.name,
          description: body.description ?? null,
          created_at: now,
          updated_at: now,
        });
        return success({ id: wireInt(body.id) });
      });
    },

    [op('features.update')]: (req) => {
      const slug = slugOf(req, 'taxonomy_slug');
      const id = requireInt64(req.params.id, 'id');
      return duplicates.suppress(req, `${kind}_feature:${slug}:${id}`, async () => {
        const patch = validate('feature.update', req.body);
        await store.updateFeature(req.tenant, slug, id, patch, timestamp(req));
        return success();
      });
    },

    [op('features.delete')]: (req) => {
      const slug = slugOf(req, 'taxonomy_slug');
      const id = requireInt64(req.params.id, 'id');
      return duplicates.suppress(req, `${kind}_feature:${slug}:${id}`, async () => {
        await store.deleteFeature(req.tenant, slug, id);
        return success();
      });
    },
  };
  return handlers as Routes;
}

/** Product taxonomies and features. */
export function taxonomyRoutes(ctx: ServerContext): Routes {
  return taxonomyHandlers(ctx, 'product');
}
