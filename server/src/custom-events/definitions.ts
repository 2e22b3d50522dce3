/**
 * Custom event definitions (a back-office resource of Tally: the contract
 * only says data is "validated against the schema configured for the slug").
 * A definition has a server-given int64 id (what a points campaign's
 * custom_entity_definition_id names), a unique slug and a JSON Schema,
 * compiled with ajv once per definition and reused for every event.
 * Keys: `custom_event_definitions` [tenant, idKey(id)] -> definition;
 * `custom_event_definition_slugs` [tenant, slug] -> id.
 */
import { TallyError } from '@tally/engine';
import type { ValidateFunction } from 'ajv';
import { invalidRequest } from '../http/errors.js';
import { readPage } from '../http/params.js';
import { success, ok, type Reply, type TallyRequest } from '../http/types.js';
import { checkCompanyData, compileCompanySchema, createCompanyAjv } from '../http/company-schemas.js';
import { wireDatetime, wireInt } from '../http/wire.js';
import type { StoreEnv } from '../store/env.js';
import { allocateId } from '../store/ids.js';
import { CART_EVENT } from '../triggers/binding.js';
import { idKey, tenantPrefix } from '../store/keys.js';
import { paginate } from '../store/paginate.js';
import type { Tenant } from '../tenancy/types.js';
import type { CustomEventDefinitionsCreate } from '../wire/types.js';

export interface CustomEventDefinition {
  id: string;
  slug: string;
  name: string | null;
  description: string | null;
  schema: Record<string, unknown>;
  created_at: string;
}

const DEFINITIONS = 'custom_event_definitions';
const SLUGS = 'custom_event_definition_slugs';

/** Opened when the routes are built (docs/storage.md). */
export const DEFINITION_DATABASES = [DEFINITIONS, SLUGS];

// Definitions never change once created, so a compiled validator is kept for good.
const ajv = createCompanyAjv();
const validators = new Map<string, ValidateFunction>();

export function definitionBySlug(env: StoreEnv, tenant: Tenant, slug: string): CustomEventDefinition {
  const prefix = tenantPrefix(tenant);
  const id = env.db(SLUGS).get([prefix, slug]) as string | undefined;
  const definition = id === undefined ? undefined : (env.db(DEFINITIONS).get([prefix, idKey(id)]) as CustomEventDefinition | undefined);
  if (!definition) throw new TallyError('custom_event_definition_not_found', `slug: no custom event definition ${slug}`, 'slug');
  return definition;
}

/** 404 custom_event_definition_not_found naming `field` when no definition has this id: a campaign bound to it would never run. */
export function requireDefinition(env: StoreEnv, tenant: Tenant, id: string, field: string): void {
  if (env.db(DEFINITIONS).get([tenantPrefix(tenant), idKey(id)]) === undefined) {
    throw new TallyError('custom_event_definition_not_found', `${field}: no custom event definition ${id}`, field);
  }
}

/** Checks an event's data against its definition's schema (invalid_request naming data.<field>). */
export function checkData(tenant: Tenant, definition: CustomEventDefinition, data: unknown): void {
  const key = `${tenantPrefix(tenant)}/${definition.id}`;
  let check = validators.get(key);
  if (!check) validators.set(key, (check = compileCompanySchema(ajv, definition.schema, 'schema')));
  checkCompanyData(check, data, 'data');
}

function view(d: CustomEventDefinition) {
  return { id: wireInt(d.id), slug: d.slug, name: d.name, description: d.description, schema: d.schema, created_at: d.created_at };
}

/** `body`: the request body validated by custom_event_definitions.create. */
export async function createDefinition(env: StoreEnv, req: TallyRequest, body: CustomEventDefinitionsCreate): Promise<Reply> {
  // Instant wins name their event by slug in `when`: this one would draw the carts' instant wins (as POST /trigger refuses it).
  if (body.slug === CART_EVENT) throw invalidRequest('slug', `${CART_EVENT} is the event of a cart: send the cart`);
  compileCompanySchema(ajv, body.schema, 'schema');
  // The contract types an event's data as an object: a schema of another type would refuse every event.
  if (body.schema.type !== undefined && body.schema.type !== 'object') throw invalidRequest('schema.type', "must be object: an event's data is an object");
  const prefix = tenantPrefix(req.tenant);
  const id = await env.transact(() => {
    if (env.db(SLUGS).get([prefix, body.slug]) !== undefined) {
      throw new TallyError('duplicate_id', `slug: a custom event definition ${body.slug} already exists`, 'slug');
    }
    const id = allocateId(env, req.tenant, 'custom_event_definition');
    const definition: CustomEventDefinition = {
      id, slug: body.slug, name: body.name ?? null, description: body.description ?? null, schema: body.schema,
      created_at: wireDatetime(req.now),
    };
    env.db(DEFINITIONS).putSync([prefix, idKey(id)], definition);
    env.db(SLUGS).putSync([prefix, body.slug], id);
    return id;
  });
  return success({ id: wireInt(id) });
}

export function listDefinitions(env: StoreEnv, req: TallyRequest): Reply {
  const page = readPage(req.query);
  return ok(paginate<CustomEventDefinition, unknown>(env.db(DEFINITIONS), [tenantPrefix(req.tenant)], page, view));
}
