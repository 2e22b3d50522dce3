/** A custom event as answered (spec part 2, Custom event, with ingested_at). */
import { parseJson } from '../http/json.js';
import { wireInt } from '../http/wire.js';
import type { CustomEventRecord } from './store.js';

export function customEventView(record: CustomEventRecord) {
  return {
    id: record.id,
    customer_id: wireInt(record.customer_id),
    customer_code: record.customer_code,
    slug: record.slug,
    data: parseJson(record.data),
    created_at: record.created_at,
    ingested_at: record.ingested_at,
  };
}
