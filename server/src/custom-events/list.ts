/**
 * GET /custom_events (+ /custom_entities): in ingestion order, filtered by
 * id (read through the id index), customer (customer_id or customer_code; an unknown one is 404), slug and
 * created_at_gt (a date means its start in the Company's timezone; a datetime is taken as is).
 * GET /custom_events/{id}: one event.
 */
import { TallyError } from '@tally/engine';
import type { CustomerStore } from '../customers/store.js';
import { optionalInstant, readPage } from '../http/params.js';
import type { TallyRequest } from '../http/types.js';
import { customerOfQuery } from '../vouchers/customer.js';
import type { CustomEventRecord, CustomEventStore } from './store.js';
import { customEventView } from './view.js';

export function listCustomEvents(events: CustomEventStore, customers: CustomerStore, req: TallyRequest) {
  const q = req.query;
  // An unknown customer is 404 customer_not_found, by id as by code (as GET /points/transactions: an event always
  // has a known customer).
  const customer = customerOfQuery(customers, req.tenant, q)?.id;
  const id = q.get('id') || undefined;
  const slug = q.get('slug') || undefined;
  const after = optionalInstant(q.get('created_at_gt'), 'created_at_gt', req.settings.timezone);
  const page = readPage(q);
  const toItem = (record: CustomEventRecord) => {
    if (id !== undefined && record.id !== id) return undefined;
    if (slug !== undefined && record.slug !== slug) return undefined;
    if (after !== undefined && !(Date.parse(record.created_at) > after)) return undefined;
    return customEventView(record);
  };
  if (id !== undefined && page.startingAfter === undefined) {
    // One event at most: read through the id index, not by scanning the events (as GET /carts?id=). A token goes on
    // in the list that issued it, below.
    const record = events.get(req.tenant, id);
    const item = record && (customer === undefined || record.customer_id === customer) ? toItem(record) : undefined;
    return { data: item === undefined ? [] : [item] };
  }
  return events.page(req.tenant, customer, page, toItem);
}

export function getCustomEvent(events: CustomEventStore, req: TallyRequest) {
  const id = req.params.id ?? '';
  const record = events.get(req.tenant, id);
  if (!record) throw new TallyError('custom_event_not_found', `id: no custom event ${id}`, 'id');
  return customEventView(record);
}
