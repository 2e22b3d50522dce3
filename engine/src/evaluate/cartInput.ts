/**
 * Validates the cart (the engine is also used offline, so it checks its own
 * input) and reads it into integer cents once.
 */
import { Decimal } from 'decimal.js';
import { isCurrency } from '../currency.js';
import { cannotBeSentWith, invalidRequest, mustBe, mustBeIn, type Bounds } from '../errors.js';
import { idString } from '../ids.js';
import { MAX_POINTS, toCents } from '../money.js';
import { parseInstant } from '../time/zonedDate.js';
import type { Cart, CartLine } from '../types.js';

export interface LineState {
  index: number;
  order: number;
  raw: CartLine;
  quantity: number;
  /** |quantity| when it is an integer, else null (weighed goods). */
  units: number | null;
  /**
   * The cents the quantity divides (cart rule 4): |quantity| for an integer, p for a fraction p/r in lowest terms
   * (1.5 = 3/2: 3). The line's total is a whole number of steps, and every amount taken off it is too.
   */
  step: number;
  productId: string | null;
  originalCents: number;
  /** The line total after the discounts and cashback applied so far. */
  current: number;
  cashback: number;
  /** A discount campaign acted on the line. */
  touched: boolean;
  /** An exclusive discount took the line: no later discount applies to it. */
  locked: boolean;
  /** One of the cart's returns names the line: goods given back, not bought. */
  returned: boolean;
}

export interface CartInput {
  cart: Cart;
  createdAt: number;
  currency: string;
  totalCents: number;
  originalCents: number;
  lines: LineState[];
  lineByOrder: ReadonlyMap<number, LineState>;
  locationId: string | null;
  coupons: 'all' | 'selected' | readonly string[];
  applyDiscounts: boolean;
  applyPoints: boolean;
  /** A line no return names has a total above 0 as sent: the cart buys something (a refund alone buys nothing). */
  buys: boolean;
}

const CURRENCY = /^[A-Z]{3}$/;
/** A line's or a return's quantity: the cart schema's bounds (`#/$defs/quantity`), besides 0. */
const QUANTITY: Bounds = { minimum: -Number.MAX_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER };

/** A quantity in the cart schema's words: a number (the schema's `not: {const: 0}` too) within QUANTITY. */
function readQuantity(value: unknown, field: string): number {
  if (typeof value !== 'number') throw invalidRequest(field, mustBe('number'));
  if (!(Math.abs(value) <= Number.MAX_SAFE_INTEGER) || value === 0) throw invalidRequest(field, mustBeIn('number', QUANTITY, 0));
  return value;
}

export function readCart(cart: Cart, companyCurrency: string): CartInput {
  if (cart === null || typeof cart !== 'object') throw invalidRequest('cart', mustBe('object'));
  if (!Array.isArray(cart.lines)) throw invalidRequest('lines', cart.lines === undefined ? 'is required' : mustBe('array'));
  if (cart.lines.length === 0) throw invalidRequest('lines', 'must not be empty');
  const currency = cart.currency ?? companyCurrency;
  if (typeof currency !== 'string' || !CURRENCY.test(currency)) throw invalidRequest('currency', 'must be an ISO 4217 code in capitals');
  // A code sent with the cart must be a currency in use (part 2: ISO 4217); the Company's is the settings' own check.
  if (cart.currency !== undefined && !isCurrency(currency)) throw invalidRequest('currency', `${currency} is not an ISO 4217 currency`);
  const totalCents = toCents(cart.total, 'total');
  const lines = cart.lines.map(readLine);
  const lineByOrder = new Map<number, LineState>();
  for (const line of lines) {
    if (lineByOrder.has(line.order)) throw invalidRequest(`lines[${line.index}].order`, `duplicate line order ${line.order}`);
    lineByOrder.set(line.order, line);
  }
  // The caller resolves the customer into the context; the cart's own id must still be a valid id.
  if (cart.customer_id !== undefined && cart.customer_id !== null) idString(cart.customer_id, 'customer_id');
  checkCashbacks(cart, lineByOrder);
  checkReturns(cart, lineByOrder);
  return {
    cart,
    createdAt: parseInstant(cart.creation_date, 'creation_date'),
    currency,
    totalCents,
    originalCents: cart.original_total === undefined || cart.original_total === null ? totalCents : toCents(cart.original_total, 'original_total'),
    lines,
    lineByOrder,
    locationId: cart.location_id === undefined || cart.location_id === null ? null : idString(cart.location_id, 'location_id'),
    coupons: readCoupons(cart),
    applyDiscounts: readFlag(cart.apply_discounts, 'apply_discounts'),
    applyPoints: readFlag(cart.apply_points, 'apply_points'),
    buys: buysSomething(lines),
  };
}

/** Whether a line no return names has a total above 0, as sent (before any discount: a line paid in full by one is bought). */
function buysSomething(lines: readonly LineState[]): boolean {
  for (const line of lines) if (!line.returned && line.current > 0) return true;
  return false;
}

function readLine(line: CartLine, index: number): LineState {
  const field = `lines[${index}]`;
  if (line === null || typeof line !== 'object') throw invalidRequest(field, mustBe('object'));
  const order = line.order ?? index + 1;
  // Effects name line -1 for the whole cart (part 2, Effect): a line's own order is an integer of 1 or more (part 1, rule 3).
  if (!Number.isSafeInteger(order) || order < 1) throw invalidRequest(`${field}.order`, mustBeIn('integer', { minimum: 1 }));
  // The total is divided by it.
  const quantity = readQuantity(line.quantity ?? 1, `${field}.quantity`);
  const total = toCents(line.total, `${field}.total`);
  const step = stepOf(quantity);
  if (total % step !== 0) {
    throw invalidRequest(`${field}.total`, 'must be divisible by the line quantity with at most two decimals');
  }
  const originalCents = line.original_total === undefined || line.original_total === null ? total : toCents(line.original_total, `${field}.original_total`);
  const productId = line.product_id === undefined || line.product_id === null ? null : idString(line.product_id, `${field}.product_id`);
  return new Line(index, order, line, quantity, Number.isInteger(quantity) ? Math.abs(quantity) : null, step, productId, originalCents, total);
}

/**
 * A class rather than an object literal: the evaluation writes `current`, `touched` and `locked` after
 * reading, and with literal-made objects V8 fell into a slow path for some processes and not others
 * (8 to 9 µs a 10-line cart to read instead of 1, and evaluateCart 20 to 27 µs instead of 16).
 */
class Line implements LineState {
  cashback = 0;
  touched = false;
  locked = false;
  returned = false;
  constructor(
    readonly index: number,
    readonly order: number,
    readonly raw: CartLine,
    readonly quantity: number,
    readonly units: number | null,
    readonly step: number,
    readonly productId: string | null,
    readonly originalCents: number,
    public current: number,
  ) {}
}

/**
 * A line's step: cents / quantity is whole exactly when the cents are a multiple of it. For a fraction p/r in lowest
 * terms, cents × r / p is whole when p divides the cents (p and r share no factor). A quantity whose p is beyond
 * 2^53 has a step no amount reaches: only a total of 0 is divisible by it, as before.
 */
function stepOf(quantity: number): number {
  if (Number.isInteger(quantity)) return Math.abs(quantity);
  return new Decimal(String(quantity)).toFraction()[0].abs().toNumber();
}

function checkCashbacks(cart: Cart, lineByOrder: ReadonlyMap<number, LineState>): void {
  const desired = cart.cashback_score_desired;
  if (desired !== undefined && desired !== null) {
    if (cart.cashbacks !== undefined && cart.cashbacks !== null) {
      throw cannotBeSentWith('cashbacks', 'cashback_score_desired');
    }
    // -1 spends all available points; otherwise the points a request moves (the cart schema's range).
    if (!Number.isSafeInteger(desired) || desired < -1 || desired > MAX_POINTS) {
      throw invalidRequest('cashback_score_desired', mustBeIn('integer', { minimum: -1, maximum: MAX_POINTS }));
    }
  }
  if (cart.cashbacks === undefined || cart.cashbacks === null) return;
  if (!Array.isArray(cart.cashbacks)) throw invalidRequest('cashbacks', mustBe('array'));
  cart.cashbacks.forEach((cashback, i) => {
    if (!lineByOrder.has(cashback?.line_order)) throw invalidRequest(`cashbacks[${i}].line_order`, 'must be the order of a line of the cart');
    // The cart schema's range (the server checks it first; offline callers meet it here): points a request moves.
    if (!Number.isSafeInteger(cashback.score) || cashback.score < 1 || cashback.score > MAX_POINTS) {
      throw invalidRequest(`cashbacks[${i}].score`, mustBeIn('integer', { minimum: 1, maximum: MAX_POINTS }));
    }
  });
}

/** A return names the cart line it gives back; it cannot return more units than that line holds. */
function checkReturns(cart: Cart, lineByOrder: ReadonlyMap<number, LineState>): void {
  if (cart.returns === undefined || cart.returns === null) return;
  if (!Array.isArray(cart.returns)) throw invalidRequest('returns', mustBe('array'));
  cart.returns.forEach((ret, i) => {
    const line = lineByOrder.get(ret?.line_order);
    if (!line) throw invalidRequest(`returns[${i}].line_order`, 'must be the order of a line of the cart');
    // Returning 0 units moves nothing.
    readQuantity(ret.quantity, `returns[${i}].quantity`);
    if (Math.abs(ret.quantity) > Math.abs(line.quantity)) {
      throw invalidRequest(`returns[${i}].quantity`, `is larger than the quantity of line ${line.order}`);
    }
    line.returned = true;
  });
}

/** Both names sent: they must agree, else one list would be ignored without a sign while the answer echoes both. */
function sameCodes(vouchers: unknown, coupons: unknown): boolean {
  if (!Array.isArray(vouchers) || !Array.isArray(coupons)) return vouchers === coupons;
  // The codes, in any order: a list names vouchers, it does not order them.
  const listed = new Set(coupons);
  return new Set(vouchers).size === listed.size && vouchers.every((code) => listed.has(code));
}

function readCoupons(cart: Cart): CartInput['coupons'] {
  if (cart.coupons_desired != null && cart.vouchers_desired != null && !sameCodes(cart.vouchers_desired, cart.coupons_desired)) {
    throw invalidRequest('vouchers_desired', 'is not coupons_desired (send one of them)');
  }
  const field = cart.coupons_desired !== undefined ? 'coupons_desired' : 'vouchers_desired';
  const value = cart.coupons_desired ?? cart.vouchers_desired;
  if (value === undefined || value === null) return [];
  if (value === 'all' || value === 'selected') return value;
  if (Array.isArray(value) && value.every((code) => typeof code === 'string')) return value as string[];
  throw invalidRequest(field, 'must be all, selected or a list of codes');
}

function readFlag(value: unknown, field: string): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value === 'boolean') return value;
  throw invalidRequest(field, mustBe('boolean'));
}
