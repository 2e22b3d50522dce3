/**
 * Every query parameter an operation accepts, as the OpenAPI document names
 * them: the contract's (parts 1 and 2, Endpoints) and Tally's own where the
 * contract shows none. Paged lists also get `starting_after` and `per_page`
 * from their answer (bodies.ts). The server refuses any other name, and a
 * route can read no other (http/query.ts).
 */
import type { OperationId } from '../http/operations.js';

export interface QueryParameter {
  name: string;
  required?: boolean;
  schema: Record<string, unknown>;
  description?: string;
}

const text = { type: 'string' };
const flag = { type: 'boolean' };
const int64 = { $ref: 'common#/$defs/int64' };
const oneOf = (...values: string[]) => ({ type: 'string', enum: values });
const q = (name: string, schema: Record<string, unknown>, extra: Partial<QueryParameter> = {}): QueryParameter => ({ name, schema, ...extra });

const duplicates = [q('allow_duplicate_email', flag), q('allow_duplicate_dni', flag)];
const customer = [q('customer_id', int64), q('customer_code', text)];
const location = [q('location_id', int64), q('location_code', text)];
const countries = q('countries', { type: 'array', items: { type: 'string', pattern: '^[A-Z]{2}$' } }, { description: 'Repeatable: repeated, as countries[] or comma-separated.' });
const audience = [q('campaign_audience', text), ...location, ...customer, countries, q('tier_id', text, { description: 'A tier level name, as rules name it (customer.tier).' })];
const campaigns = [...audience, q('category_id', int64), q('selected', flag)];
const createdAfter = q('created_at_gt', text, { description: "A datetime, or a date: created after that day starts in the Company's timezone." });
const searchParam = q('search_param', oneOf('id', 'code'));
const searchBy = q('search_by', oneOf('loyalty_rule_id', 'loyalty_rule_history_id', 'campaign_history_id', 'static_code'));

export const PAGE_PARAMETERS: readonly QueryParameter[] = [
  q('starting_after', text, { description: 'The next_token_starts_after of the previous page.' }),
  q('per_page', { type: 'integer', minimum: 1, maximum: 100, default: 10 }),
];

export const QUERY_PARAMETERS: Partial<Record<OperationId, readonly QueryParameter[]>> = {
  'customers.create': duplicates,
  'customers.list': [q('ids', text, { description: 'Comma-separated customer ids; ids or phones is required.' }), q('phones', text)],
  'customers.get': [q('search_param', oneOf('id', 'code', 'dni', 'email'), { required: true })],
  'customers.update': [searchParam, ...duplicates],
  'customers.delete': [q('hard', flag, { required: true }), searchParam],
  'customers.attributes': [q('attribute_type', text), q('attribute_id', int64), q('name', text), q('system', flag)],
  'customers.tiers': [searchParam],
  'customers.export': [q('search_param', oneOf('id', 'code', 'dni', 'email'), { required: true })],
  'customers.audience_validation': [q('segment_id', int64, { required: true })],
  'associations.delete': [q('customer_id', int64, { required: true }), q('associate_customer_id', int64, { required: true })],
  'associations.list': [q('active', flag)],
  'merges.unmerge': [q('with_activites', flag, { required: true }), searchParam],
  'carts.get': [q('search_param', text)],
  'carts.list': [
    ...customer, q('associate_id', int64), ...location, q('order_id', text),
    q('from_date', { type: 'string', format: 'date' }, { description: "A day of the Company's timezone: carts created on it or later." }),
    q('to_date', { type: 'string', format: 'date' }, { description: "A day of the Company's timezone: carts created on it or earlier." }),
    q('id', int64), q('code', text), q('country', text), countries,
  ],
  'audit_log.list': [
    q('operation', text), q('target', text, { description: 'kind:id, e.g. customer:42; at most 300 characters.' }),
    q('mentions', int64, { description: 'A customer id: the entries of other records whose request named that customer; exclusive with target.' }), q('api_key', text), q('author', text),
    q('from', { type: 'string', format: 'date-time' }, { description: 'Entries at or after.' }), q('to', { type: 'string', format: 'date-time' }, { description: 'Entries at or before.' }),
  ],
  'custom_events.list': [q('id', text), ...customer, q('slug', text), createdAfter],
  'discounts.list': campaigns,
  'discounts.get': [q('search_by', text)],
  'discounts.transactions': customer,
  'points.list': campaigns,
  'points.get': [q('search_by', text)],
  'points.transactions': [q('include', text), ...customer, q('associate_id', int64), createdAfter, q('origin_type', text)],
  'games.list': audience,
  'games.get': [searchBy],
  'instant_wins.list': audience,
  // The list's filters: the contract names the customer, location and countries ones; the other two ask the same (docs/decisions.md).
  'instant_wins.get': [searchBy, ...audience],
  'points.balance': [searchParam],
  'points.expiring': [q('date', { type: 'string', format: 'date' }), q('search_param', oneOf('id', 'code', 'associate_id'))],
  'points.cashbacks': [q('location_id', int64, { required: true })],
  'rewards.list': [
    ...location, ...customer, countries, q('status', text), q('store', text), q('type', text), q('redemption_type', oneOf('manual', 'loyalty_rule')),
    q('restricted_by', { type: 'array', items: { type: 'string' } }),
  ],
  'rewards.get': customer,
  'rewards.transactions': [...location, ...customer, q('status', oneOf('available', 'reverted'))],
  'challenges.list': [q('country', text), q('type', text)],
  'vouchers.list': [...customer, q('status', text), q('selected', flag), q('loyalty_rule_id', int64), q('coupon_id', int64), q('campaign_type', oneOf('discount', 'points'))],
  'vouchers.get': [...customer, q('validate', flag), ...location],
  'webhooks.deliveries': [q('status', oneOf('pending', 'delivered', 'failed')), q('event_type', text)],
  'challenges.customer_get': [searchParam],
  'locations.get': [searchParam],
  'locations.update': [searchParam],
  'locations.delete': [searchParam],
  'vouchers.selected': [searchParam],
  'vouchers.excluded_products': [
    q('code', text, { description: "A voucher's code; exactly one of code, static_code, coupon_id." }), q('static_code', text), q('coupon_id', int64),
  ],
  'challenges.customer_list': [searchParam, q('only_enrolled', flag), q('use_display_dates', flag), q('type', text)],
};
