/** What the points routes read from a request: the ledger's clock and the customer a body or path names. */
import { TallyError, type ErrorCode } from '@tally/engine';
import { auditMention } from '../audit/context.js';
import { invalidRequest, requiredOr } from '../http/errors.js';
import { optionalEnum } from '../http/params.js';
import type { TallyRequest } from '../http/types.js';
import { customerNotFound, findCustomer } from '../customers/lookup.js';
import type { CustomerStore } from '../customers/store.js';
import type { CustomerRecord } from '../customers/types.js';
import type { LocationStore } from '../locations/store.js';
import type { LocationRecord } from '../locations/types.js';
import type { Tenant } from '../tenancy/types.js';
import type { LedgerClock } from './types.js';

export function clockOf(req: Pick<TallyRequest, 'now' | 'settings'>): LedgerClock {
  return { now: req.now, timezone: req.settings.timezone };
}

/**
 * The customer named by `<prefix>_id` or `<prefix>_code` of a validated body. Its callers' contract lines say
 * each is required when the other is absent, not that they exclude each other: both may come when they name the
 * same customer (otherwise 400 naming the code). The audit entry is told the customer (auditMention).
 */
export function customerFromBody(customers: CustomerStore, req: TallyRequest, body: Record<string, unknown>, prefix = 'customer'): CustomerRecord {
  const customer = namedInBody(customers, req, body, prefix);
  auditMention(req, customer.id);
  return customer;
}

function namedInBody(customers: CustomerStore, req: TallyRequest, body: Record<string, unknown>, prefix: string): CustomerRecord {
  const idField = `${prefix}_id`;
  const codeField = `${prefix}_code`;
  const id = body[idField];
  const code = body[codeField];
  if (typeof id === 'string') {
    const customer = findCustomer(customers, req.tenant, 'id', id, idField);
    if (typeof code === 'string' && customer.code !== code) throw invalidRequest(codeField, `is not the code of ${idField} ${id}`);
    return customer;
  }
  if (typeof code === 'string') return findCustomer(customers, req.tenant, 'code', code, codeField);
  throw requiredOr(idField, codeField);
}

/** A request field and the value it carried, which a refusal about the record it names repeats. */
export interface Named {
  readonly field: string;
  readonly value: string;
}

/**
 * The field a body named its customer by and its value, for the refusals that follow the lookup (they name the field
 * the request used, and a customer since deleted by the value sent): `customer_id` when sent (customerFromBody reads
 * it first), else `customer_code`.
 */
export function customerNamedBy(body: { customer_id?: string; customer_code?: string }): Named & { field: 'customer_id' | 'customer_code' } {
  return body.customer_id !== undefined ? { field: 'customer_id', value: body.customer_id } : { field: 'customer_code', value: body.customer_code ?? '' };
}

/** The customer of a `/customers/{value}/...` path, read by search_param (id by default). */
export function customerFromPath(customers: CustomerStore, req: TallyRequest): CustomerRecord {
  const by = optionalEnum(req.query.get('search_param'), 'search_param', ['id', 'code'] as const) ?? 'id';
  return findCustomer(customers, req.tenant, by, req.params.value ?? '', 'value');
}

/** Transfers, reward redemptions and challenge enrolments need an active customer (customer_inactive otherwise). */
export function requireActive(customer: CustomerRecord, field: string): void {
  if (customer.status !== 'active') {
    throw new TallyError('customer_inactive', `${field}: customer ${customer.id} is ${customer.status}`, field);
  }
}

/**
 * The customer as a transaction reads it, found by the request as `named`: one deleted since is 404
 * customer_not_found (or `notFound`) naming the value the request sent (a code, not the id it resolved to).
 */
function stillThere(customers: CustomerStore, tenant: Tenant, customerId: string, named: Named, notFound?: ErrorCode): CustomerRecord {
  const customer = customers.get(tenant, customerId);
  if (!customer || customer.deleted_at !== undefined) throw customerNotFound(named.field, named.value, notFound);
  return customer;
}

/**
 * Inside `env.transact`, before the first write: requireActive on the customer as the transaction reads it, so a
 * merge (or status change) committed since the request's check refuses the write, and a delete is its 404
 * (transfers, reward redemptions, challenge enrolments).
 */
export function requireStillActive(customers: CustomerStore, tenant: Tenant, customerId: string, named: Named): void {
  requireActive(stillThere(customers, tenant, customerId, named), named.field);
}

/**
 * Inside `env.transact`, before the first write (so a merge or delete committing meanwhile is seen): points
 * movements (triggers, custom events, redemptions), card attachments, associations and game deliveries refuse a
 * merging or merged customer, 402 customer_inactive as POST /discounts/trigger: its records moved (or are moving)
 * to the customer it is merged into, and one left on it would be out of everyone's reach. A customer deleted since
 * the request found it is 404 customer_not_found (or `notFound`), as it would have been a moment earlier: a soft
 * delete leaves an emptied account nobody reads, a hard one an id a new customer may take.
 */
export function requireUnmerged(customers: CustomerStore, tenant: Tenant, customerId: string, named: Named, notFound?: ErrorCode): void {
  const { status } = stillThere(customers, tenant, customerId, named, notFound);
  if (status === 'merging' || status === 'merged') throw new TallyError('customer_inactive', `${named.field}: customer ${customerId} is ${status}`, named.field);
}

/** The location found, or 404 location_not_found naming `field`. */
export function foundLocation(location: LocationRecord | undefined, field: string, value: string): LocationRecord {
  if (!location) throw new TallyError('location_not_found', `${field}: no location ${value}`, field);
  return location;
}

/**
 * The location of a body's `location_id` or `location_code` (null when neither is sent); either must name a
 * location (404 location_not_found): the points transaction or redemption records it, unlike a cart's, whose
 * coherence the contract leaves unchecked. Both may be sent when they name the same location (400 naming
 * `location_code` otherwise).
 */
export function locationOf(locations: LocationStore, req: TallyRequest, body: { location_id?: string; location_code?: string }): LocationRecord | null {
  if (body.location_id !== undefined) {
    const location = foundLocation(locations.locationById(req.tenant, body.location_id), 'location_id', body.location_id);
    if (body.location_code !== undefined && location.code !== body.location_code) throw invalidRequest('location_code', `is not the code of location ${location.id}`);
    return location;
  }
  return body.location_code === undefined ? null : foundLocation(locations.locationByCode(req.tenant, body.location_code), 'location_code', body.location_code);
}
