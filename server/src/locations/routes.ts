/**
 * Locations: POST /locations, GET, PATCH (PUT) and DELETE /locations/{value}
 * (value read by query search_param: id, the default, or code), and the
 * location taxonomies and features under /locations/taxonomies (static path
 * segments win in the router, so they are never taken for a location).
 */
import type { ServerContext } from '../context.js';
import { lookupTarget } from '../http/duplicates.js';
import { optionalEnum, requireInt64 } from '../http/params.js';
import { ok, success, type Routes, type TallyRequest } from '../http/types.js';
import { validate } from '../http/validation.js';
import { wireInt } from '../http/wire.js';
import { taxonomyHandlers } from '../taxonomies/routes.js';
import { timestamp } from '../taxonomies/timestamp.js';
import { distinctFeatures } from '../taxonomies/types.js';
import { LocationStore, currencyFor } from './store.js';
import type { LocationSearchParam } from './types.js';

const SEARCH_PARAMS: readonly LocationSearchParam[] = ['id', 'code'];

/** The path value as the search_param says: an int64 id (default) or a code. */
function target(req: TallyRequest): { by: LocationSearchParam; value: string } {
  const by = optionalEnum(req.query.get('search_param'), 'search_param', SEARCH_PARAMS) ?? 'id';
  const value = by === 'id' ? requireInt64(req.params.value, 'value') : req.params.value;
  return { by, value };
}

export function locationRoutes(ctx: ServerContext): Routes {
  const { env, duplicates } = ctx;
  const store = new LocationStore(env);
  /** Duplicate suppression keys on the location's id, however the request names it. */
  const suppressionTarget = (req: TallyRequest, by: LocationSearchParam, value: string) =>
    lookupTarget('location', by, value, by === 'id' ? value : store.locationByCode(req.tenant, value)?.id);
  return {
    'locations.create': (req) => {
      const body = validate('location.create', req.body);
      return duplicates.suppress(req, `location:${body.id}`, async () => {
        const now = timestamp(req);
        await store.create(req.tenant, {
          id: body.id,
          code: body.code ?? null,
          name: body.name,
          country: body.country,
          currency: currencyFor(body.country),
          address: body.address ?? null,
          city: body.city ?? null,
          state: body.state ?? null,
          postal_code: body.postal_code ?? null,
          active: body.active,
          features: distinctFeatures(body.features ?? []),
          created_at: now,
          updated_at: now,
        });
        return success({ id: wireInt(body.id) });
      });
    },

    'locations.get': (req) => {
      const { by, value } = target(req);
      const location = store.getOrThrow(req.tenant, by, value);
      return ok({ ...location, id: wireInt(location.id), features: store.taxonomies.describe(req.tenant, location.features) });
    },

    'locations.update': (req) => {
      const { by, value } = target(req);
      return duplicates.suppress(req, suppressionTarget(req, by, value), async () => {
        const patch = validate('location.update', req.body);
        if (patch.features) patch.features = distinctFeatures(patch.features);
        await store.update(req.tenant, by, value, patch, timestamp(req));
        return success();
      });
    },

    'locations.delete': (req) => {
      const { by, value } = target(req);
      return duplicates.suppress(req, suppressionTarget(req, by, value), async () => {
        await store.delete(req.tenant, by, value);
        return success();
      });
    },

    ...taxonomyHandlers(ctx, 'location'),
  };
}
