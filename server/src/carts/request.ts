/**
 * The cart request as the worker reads it: parsed from the JSON text (the
 * main thread does not parse it: `workerParsesBody` in the routing table),
 * validated (schemas/carts/cart.json, which canonicalises ids to decimal
 * strings), customer_id and customer_code checked naming the field. The canonical
 * identifiers are kept for the stores; the ids the evaluation echoes are
 * turned back into numbers so the response needs no rewriting.
 */
import type { Cart } from '@tally/engine';
import { checkLimits } from '../customers/attribute-limits.js';
import { cannotBeSentWith } from '../http/errors.js';
import { parseJsonObject } from '../http/json.js';
import { validate } from '../http/validation.js';
import { wireInt } from '../http/wire.js';
import { NO_CODES } from '../vouchers/store.js';
import type { CartsCart } from '../wire/types.js';

export interface CartRequest {
  /** The validated body, ids as numbers (bigint above 2^53). */
  body: Record<string, unknown> & Cart;
  id: string | undefined;
  code: string | undefined;
  customer_id: string | undefined;
  customer_code: string | undefined;
  location_id: string | undefined;
  /** The lines' product ids (canonical), for the catalogue's features. */
  product_ids: string[];
  /** The codes coupons_desired (else vouchers_desired) lists, when it is a list: the engine says why a held voucher among them cannot be used. */
  listed_codes: ReadonlySet<string>;
}

type Row = Record<string, unknown>;

function numeric(record: Row, fields: readonly string[]): void {
  for (const field of fields) if (typeof record[field] === 'string') record[field] = wireInt(record[field] as string);
}

function numericRows(rows: unknown, fields: readonly string[]): void {
  if (Array.isArray(rows)) for (const row of rows as Row[]) numeric(row, fields);
}

export function readCartRequest(text: string): CartRequest {
  const wire = validate('carts.cart', parseJsonObject(text));
  if (wire.customer_id !== undefined && wire.customer_code !== undefined) throw cannotBeSentWith('customer_code', 'customer_id');
  // cashbacks with cashback_score_desired is the engine's check (evaluate/cartInput.ts): every evaluation runs it, offline previews too.
  // "Same flat-object rules as customer attributes": flat and at most 50 is the schema's; 10 KB is checked here.
  if (wire.attributes !== undefined) checkLimits(wire.attributes);
  wire.lines.forEach((line, i) => line.attributes !== undefined && checkLimits(line.attributes, `lines[${i}].attributes`));
  return {
    id: wire.id,
    code: wire.code,
    customer_id: wire.customer_id,
    customer_code: wire.customer_code,
    location_id: wire.location_id,
    product_ids: productIds(wire),
    listed_codes: listedCodes(wire),
    body: engineCart(wire),
  };
}

function productIds(wire: CartsCart): string[] {
  const ids: string[] = [];
  for (const line of wire.lines) if (line.product_id !== undefined) ids.push(line.product_id);
  return ids;
}

/** Read as the engine reads it (readCoupons): coupons_desired, else the deprecated vouchers_desired. */
function listedCodes(wire: CartsCart): ReadonlySet<string> {
  const desired = wire.coupons_desired ?? wire.vouchers_desired;
  return Array.isArray(desired) && desired.length > 0 ? new Set(desired) : NO_CODES;
}

/** The same object, its ids turned back into numbers in place: the engine echoes them into the response. */
function engineCart(wire: CartsCart): Record<string, unknown> & Cart {
  const body = wire as unknown as Record<string, unknown> & Cart;
  numeric(body, ['id', 'location_id', 'customer_id']);
  numericRows(body.lines, ['product_id', 'supplier_id']);
  numericRows(body.returns, ['ticket_id']);
  numericRows(body.promotions, ['promotion_id', 'product_id']);
  return body;
}
