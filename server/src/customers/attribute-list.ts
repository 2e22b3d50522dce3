/**
 * GET /customers/{id}/attributes: the customer's attributes as entries
 * (name, value as text, data type, type, slug, system flag, creation time),
 * filtered, in name order, cursor-paginated by name (stable under concurrent
 * changes). Custom attributes have attribute_type "custom" and system false.
 */
import { cannotBeSentWith } from '../http/errors.js';
import { optionalBoolean, optionalInt64, readPerPage } from '../http/params.js';
import { ok, type Reply, type TallyRequest } from '../http/types.js';
import { wireInt } from '../http/wire.js';
import type { StoreEnv } from '../store/env.js';
import { decodeCursor, encodeCursor } from '../store/paginate.js';
import { attributeDefinition } from './attribute-definitions.js';
import { findCustomer } from './lookup.js';
import type { CustomerStore } from './store.js';

interface AttributeEntry {
  id: number | bigint;
  name: string;
  value: string;
  data_type: string;
  attribute_type: string;
  slug: string;
  system: boolean;
  created_at: string;
}

function dataType(value: unknown): string {
  // 1e308 is an integer to JavaScript, but only a double: beyond 2^53 a number is a float (an exact integer there is a bigint).
  if (typeof value === 'number') return Number.isSafeInteger(value) ? 'integer' : 'float';
  if (typeof value === 'bigint') return 'integer';
  // A value the schema lets be null: `value` reads "null", and the type tells it from the text "null".
  if (value === null) return 'null';
  return typeof value === 'boolean' ? 'boolean' : 'string';
}

const slugOf = (name: string) => name.toLowerCase().replace(/[^a-z0-9_-]+/g, '_');

/** Page tokens as every list's (store/paginate.ts), one list per customer: a token this list did not issue is 400. */
const attributesOf = (customerId: string) => ({ name: 'customer_attributes', prefix: [customerId] });
const cursorOf = (customerId: string, name: string) => encodeCursor(attributesOf(customerId), [customerId, name]);
const nameOfCursor = (customerId: string, token: string) => String(decodeCursor(token, attributesOf(customerId))[1]);

export function listAttributes(env: StoreEnv, store: CustomerStore) {
  return async (req: TallyRequest): Promise<Reply> => {
    const customer = findCustomer(store, req.tenant, 'id', req.params.id, 'id');
    const attributeType = req.query.get('attribute_type') || undefined;
    const attributeId = optionalInt64(req.query.get('attribute_id'), 'attribute_id');
    if (attributeType !== undefined && attributeId !== undefined) throw cannotBeSentWith('attribute_id', 'attribute_type');
    const name = req.query.get('name')?.toLowerCase() || undefined;
    const system = optionalBoolean(req.query.get('system'), 'system');
    const perPage = readPerPage(req.query.get('per_page'));
    const after = req.query.get('starting_after') || undefined;
    const startAfter = after === undefined ? undefined : nameOfCursor(customer.id, after);

    const entries: AttributeEntry[] = Object.keys(customer.attributes)
      .sort()
      .filter((key) => startAfter === undefined || key > startAfter)
      .map((key) => {
        // Every stored attribute name was defined in the transaction that stored it.
        const definition = attributeDefinition(env, req.tenant, key)!;
        const value = customer.attributes[key];
        return {
          id: wireInt(definition.id),
          name: key,
          value: String(value),
          data_type: dataType(value),
          attribute_type: 'custom',
          slug: slugOf(key),
          system: false,
          created_at: definition.created_at,
        };
      })
      .filter((entry) => attributeType === undefined || entry.attribute_type === attributeType)
      .filter((entry) => attributeId === undefined || String(entry.id) === attributeId)
      .filter((entry) => name === undefined || entry.name.toLowerCase().includes(name))
      .filter((entry) => system === undefined || entry.system === system);
    const page = entries.slice(0, perPage);
    const more = entries.length > perPage;
    return ok(more ? { data: page, next_token_starts_after: cursorOf(customer.id, page[page.length - 1].name) } : { data: page });
  };
}
