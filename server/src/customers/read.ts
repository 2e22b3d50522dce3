/** GET /customers/{value} (Tier 1), GET /customers (ids and/or phones) and POST /customers/search. */
import type { AssociationStore } from '../associations/store.js';
import { atMostOf, invalidRequest, requiredOr } from '../http/errors.js';
import { exactlyOne, requireEnum } from '../http/params.js';
import { ok, type Reply, type TallyRequest } from '../http/types.js';
import { validate } from '../http/validation.js';
import { toInt64, WIRE_DESCRIPTIONS } from '../http/wire.js';
import { normalizePhone } from './fields.js';
import { customerNotFound, findCustomer, resolveId } from './lookup.js';
import type { CustomerStore } from './store.js';
import type { CustomerRecord, SearchParam } from './types.js';
import { customerView } from './view.js';

export const SEARCH_PARAMS: readonly SearchParam[] = ['id', 'code', 'dni', 'email'];
/** Values per list in GET /customers (Tally's limit, docs/customers.md). */
export const MAX_LISTED = 100;

export function getCustomer(store: CustomerStore) {
  // Synchronous (Tier 1): the answer is written in the same event turn.
  return (req: TallyRequest): Reply => {
    const by = requireEnum(req.query.get('search_param'), 'search_param', SEARCH_PARAMS);
    const id = resolveId(store, req.tenant, by, req.params.value, 'value');
    const view = id === undefined ? undefined : store.getView(req.tenant, id);
    if (view === undefined) throw customerNotFound('value', req.params.value);
    return { body: null, raw: view };
  };
}

function listOf(raw: string | null, field: string): string[] {
  if (raw === null || raw.trim() === '') return [];
  const values = raw.split(',').map((v) => v.trim()).filter((v) => v !== '');
  if (values.length > MAX_LISTED) throw invalidRequest(field, atMostOf(MAX_LISTED, 'item'));
  return values;
}

export function listCustomers(store: CustomerStore) {
  return async (req: TallyRequest): Promise<Reply> => {
    const ids = listOf(req.query.get('ids'), 'ids').map((value) => {
      const id = toInt64(value);
      if (id === undefined) throw invalidRequest('ids', `${value} is not ${WIRE_DESCRIPTIONS.int64}`);
      return id;
    });
    const phones = listOf(req.query.get('phones'), 'phones').map(normalizePhone);
    if (ids.length === 0 && phones.length === 0) throw requiredOr('ids', 'phones');
    const found = new Map<string, CustomerRecord>();
    for (const id of [...ids, ...phones.flatMap((phone) => store.idsByPhone(req.tenant, phone))]) {
      const record = store.get(req.tenant, id);
      if (record && record.deleted_at === undefined) found.set(id, record);
    }
    return ok({ list: [...found.values()].map((record) => customerView(record)) });
  };
}

const SEARCH_KEYS = ['id', 'code', 'dni', 'associate_id', 'email'] as const;

/** The search keys a body holds, with their values. */
function sentKeys<V>(body: Partial<Record<(typeof SEARCH_KEYS)[number], V>>) {
  return SEARCH_KEYS.flatMap((key) => {
    const value = body[key];
    return value === undefined ? [] : [{ key, value }];
  });
}

export function searchCustomer(store: CustomerStore, associations: AssociationStore) {
  return async (req: TallyRequest): Promise<Reply> => {
    // Counted before the schema, whose minProperties and maxProperties would say it less plainly.
    exactlyOne(SEARCH_KEYS, (key) => req.body[key] !== undefined);
    const [{ key, value }] = sentKeys(validate('customers.search', req.body));
    if (key !== 'associate_id') return ok(customerView(findCustomer(store, req.tenant, key, value, key)));
    // The customer an associate belongs to: the owner of its active association, never a merged customer (a store written
    // before merges moved every association of the old customer may hold one active on a merged owner).
    const ownerId = associations.ownerOf(req.tenant, value, (id) => store.get(req.tenant, id)?.status !== 'merged');
    if (ownerId === undefined) throw customerNotFound('associate_id', value);
    return ok(customerView(findCustomer(store, req.tenant, 'id', ownerId, 'associate_id')));
  };
}
