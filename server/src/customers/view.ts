/**
 * Customers as answered (contract part 1, Customer response fields). The
 * password hash and authentication token are never answered; the deprecated
 * custom fields only by GET /customers/{value}. Points figures (score,
 * score_available, trimestral_expend) are the points ledger's and answered by
 * GET /customers/{value}/points, not here: the contract answers subsets, and a
 * copy here would go stale.
 */
import { wireInt } from '../http/wire.js';
import type { CustomerRecord } from './types.js';

const DEPRECATED_CUSTOM = /^custom\d+f?$/;
const NEVER_ANSWERED = new Set(['authentication_token', 'push_token']);

export function customerView(record: CustomerRecord, withCustomFields = false): Record<string, unknown> {
  const view: Record<string, unknown> = {
    id: wireInt(record.id),
    code: record.code ?? null,
    dni: record.dni ?? null,
    email: record.email ?? null,
    phone: record.phone ?? null,
    status: record.status,
    merged: record.status === 'merged',
  };
  for (const [field, value] of Object.entries(record.profile)) {
    if (NEVER_ANSWERED.has(field) || (!withCustomFields && DEPRECATED_CUSTOM.test(field))) continue;
    view[field] = typeof value === 'string' && field.endsWith('_id') ? wireInt(value) : value;
  }
  if (record.duplicated_email !== undefined) view.duplicated_email = record.duplicated_email;
  if (record.duplicated_dni !== undefined) view.duplicated_dni = record.duplicated_dni;
  if (record.merged_to !== undefined) view.merged_to = wireInt(record.merged_to);
  view.attributes = record.attributes;
  view.creation_date = record.creation_date;
  view.updated_at = record.updated_at;
  // Only the export reads a soft-deleted record (GET answers 404): its status alone would read as a live customer.
  if (record.deleted_at !== undefined) view.deleted_at = record.deleted_at;
  return view;
}
