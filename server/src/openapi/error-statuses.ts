/**
 * The error statuses an operation answers, each with `{error, code}`
 * (403: `{message}`), for the OpenAPI document: a generated client types the
 * body of each status it is told about. Common to all: 400 (a malformed or
 * unknown parameter), 403, 429 (but the public operations), 503 (the server is
 * stopping; the cart pool is full). The others follow from the handlers, by
 * the code they throw (engine/src/errors.ts gives its status).
 */
import type { OperationId, OperationSpec } from '../http/operations.js';

/** Operations that name no stored record: never 404. */
const NAMES_NO_RECORD: ReadonlySet<OperationId> = new Set<OperationId>([
  'check', 'openapi', 'messages.print', 'company.get', 'company.update', 'audit_log.list',
  'webhooks.create', 'webhooks.list', 'custom_event_definitions.list',
]);

/**
 * 402 (customer_inactive, customer_not_enough_score, voucher_*): the operations that move points or
 * use a voucher (server/src/points/request.ts, vouchers/actions.ts, vouchers/trigger.ts, ...).
 */
const REFUSES_402: ReadonlySet<OperationId> = new Set<OperationId>([
  'associations.create', 'triggers.trigger', 'custom_events.create', 'discounts.trigger', 'discounts.redeem',
  'games.play', 'games.assign', 'challenges.enroll', 'rewards.redeem', 'points.redeem', 'points.redeem_cart', 'points.transfer',
  'vouchers.get', 'vouchers.redeem', 'vouchers.print', 'vouchers.print_put', 'vouchers.select', 'vouchers.select_many',
  'vouchers.deselect', 'vouchers.deselect_many', 'vouchers.freeze', 'vouchers.unfreeze',
]);

/** 409 on a DELETE: a customer being merged or with merged customers, a taxonomy holding features, a feature in use. */
const DELETE_CONFLICTS: ReadonlySet<OperationId> = new Set<OperationId>([
  'customers.delete', 'taxonomies.delete', 'features.delete', 'location_taxonomies.delete', 'location_features.delete',
]);

/** The error statuses of an operation, ascending. */
export function errorStatuses(id: OperationId, spec: OperationSpec): number[] {
  // Every write takes an Idempotency-Key: the key reused with another request is 409 idempotency_key_reused.
  const conflicts = spec.method !== 'GET' && (spec.method !== 'DELETE' || DELETE_CONFLICTS.has(id));
  return [
    400,
    ...(REFUSES_402.has(id) ? [402] : []),
    403,
    ...(NAMES_NO_RECORD.has(id) ? [] : [404]),
    ...(conflicts ? [409] : []),
    ...(spec.public ? [] : [429]),
    503,
  ];
}
