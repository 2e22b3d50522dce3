/**
 * The query parameters the OpenAPI document names, for the operations whose
 * query the contract fixes (parts 1 and 2, Endpoints). Paged lists get
 * `starting_after` and `per_page` from their answer (bodies.ts).
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

export const PAGE_PARAMETERS: readonly QueryParameter[] = [
  q('starting_after', text, { description: 'The next_token_starts_after of the previous page.' }),
  q('per_page', { type: 'integer', minimum: 1, maximum: 100, default: 10 }),
];

export const QUERY_PARAMETERS: Partial<Record<OperationId, readonly QueryParameter[]>> = {
  'customers.create': duplicates,
  'customers.list': [q('ids', text, { description: 'Comma-separated customer ids; ids or phones is required.' }), q('phones', text)],
  'customers.get': [q('search_param', oneOf('id', 'code', 'dni', 'email'), { required: true })],
  'customers.update': [q('search_param', oneOf('id', 'code')), ...duplicates],
  'customers.delete': [q('hard', flag, { required: true }), q('search_param', oneOf('id', 'code'))],
  'customers.tiers': [q('search_param', oneOf('id', 'code'))],
  'customers.audience_validation': [q('segment_id', int64, { required: true })],
  'associations.delete': [q('customer_id', int64, { required: true }), q('associate_customer_id', int64, { required: true })],
  'associations.list': [q('active', flag)],
  'merges.unmerge': [q('with_activites', flag, { required: true }), q('search_param', oneOf('id', 'code'))],
  'carts.get': [q('search_param', text)],
  'discounts.get': [q('search_by', text)],
  'points.get': [q('search_by', text)],
  'games.get': [q('search_by', oneOf('loyalty_rule_id', 'loyalty_rule_history_id', 'campaign_history_id', 'static_code'))],
  'instant_wins.get': [q('search_by', oneOf('loyalty_rule_id', 'loyalty_rule_history_id', 'campaign_history_id', 'static_code'))],
  'points.balance': [q('search_param', oneOf('id', 'code'))],
  'points.expiring': [q('date', { type: 'string', format: 'date' }), q('search_param', oneOf('id', 'code', 'associate_id'))],
  'points.cashbacks': [q('location_id', int64, { required: true })],
  'challenges.customer_list': [q('search_param', oneOf('id', 'code')), q('only_enrolled', flag), q('use_display_dates', flag), q('type', text)],
};
