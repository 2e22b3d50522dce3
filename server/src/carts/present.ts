/**
 * Cart responses on the wire. The evaluation already holds ids as numbers
 * (the request's ids and the campaign ids are turned into numbers before it,
 * bigint above 2^53), so a response is plain JSON; the cart read object adds
 * the stored cart's own fields, whose ids are kept as decimal strings.
 */
import { customerSummary, toMoney, type CartLine, type CartResponse, type CouponInfo, type CustomerSummary, type Effect, type Id } from '@tally/engine';
import type { CampaignTexts, Translations } from '../campaigns/types.js';
import { parseJson, stringifyJson } from '../http/json.js';
import { localize } from '../http/language.js';
import { wireInt } from '../http/wire.js';
import { pointsAsMoney } from '../points/money.js';
import type { Balance } from '../points/types.js';
import type { CompanySettings } from '../tenancy/types.js';
import type { CartRecord } from './types.js';

/** JSON text of a cart response or read object (bigint ids written as exact JSON numbers). */
export const cartJson = stringifyJson;

/** The cart without the code of its customer `customerId` (as sent, recorded and answered): a soft delete released it. */
export function withoutCustomerCode(cart: CartRecord, customerId: string): CartRecord {
  const { customer_code: _sent, ...request } = cart.request;
  const response = cartResponse(cart);
  const customer = response.customer.map((summary) => (String(summary.id) === customerId ? { ...summary, code: null } : summary));
  return { ...cart, customer_code: null, request, response_json: cartJson({ ...response, customer }) };
}

/** The stored evaluation response of a cart. */
export function cartResponse(cart: CartRecord): CartResponse {
  return parseJson(cart.response_json) as CartResponse;
}

/**
 * A cart's customer summary at `balance`, the customer's points after everything the cart's transaction
 * wrote (the evaluation's summary counts only the cart's own points): the engine's summary, at the Company's
 * point value and cashback threshold.
 */
export function summaryAtBalance(evaluated: CustomerSummary, balance: Balance, settings: CompanySettings): CustomerSummary {
  return customerSummary(evaluated, balance, settings.cashback_threshold, (points) => pointsAsMoney(points, settings));
}

/** Texts in `language` (common rule 7), or the stored text when the campaign has no translations of it. */
function textIn(language: string, settings: CompanySettings) {
  return <T>(translations: Translations | undefined, stored: T) => (translations ? localize(translations, language, settings) : stored);
}

function localizedCouponInfo(info: CouponInfo, coupon: Translations | undefined, text: ReturnType<typeof textIn>): CouponInfo {
  return coupon && info.coupon_name !== null ? { ...info, coupon_name: text(coupon, info.coupon_name) } : info;
}

/**
 * Effects with their campaigns' names and coupon names in `language` (common rule 7), wherever effects are
 * answered (carts, triggers, custom events): the engine names them in the Company's default language. Changed
 * entries are copies.
 */
export function localizedEffects(effects: Effect[], texts: CampaignTexts, language: string, settings: CompanySettings): Effect[] {
  const text = textIn(language, settings);
  return effects.map((effect) => {
    const of = texts.get(String(effect.rule_id));
    if (!of) return effect;
    return { ...effect, rule_name: text(of.name, effect.rule_name), ...(effect.coupon_info ? { coupon_info: localizedCouponInfo(effect.coupon_info, of.coupon_name, text) } : {}) };
  });
}

/**
 * A cart response with its campaigns' and coupons' names (and coupon descriptions) in `language` (common rule 7):
 * the engine names them in the Company's default language. Changed entries are copies: an evaluation shares its
 * coupon objects with the compiled program.
 */
export function localizedResponse(response: CartResponse, texts: CampaignTexts, language: string, settings: CompanySettings): CartResponse {
  const text = textIn(language, settings);
  const textsOf = (id: Id) => texts.get(String(id));
  return {
    ...response,
    effects: localizedEffects(response.effects, texts, language, settings),
    rejected_campaigns: response.rejected_campaigns.map((rejected) => {
      const of = textsOf(rejected.rule_id);
      if (!of) return rejected;
      return { ...rejected, rule_name: text(of.name, rejected.rule_name), coupon_info: rejected.coupon_info && localizedCouponInfo(rejected.coupon_info, of.coupon_name, text) };
    }),
    vouchers: response.vouchers.map((voucher) => {
      const of = textsOf(voucher.rule_id);
      if (!of) return voucher;
      return { ...voucher, coupon: { ...voucher.coupon, name: text(of.coupon_name, voucher.coupon.name), description: text(of.coupon_description, voucher.coupon.description) } };
    }),
  };
}

const orNull = (id: string | null) => (id === null ? null : wireInt(id));

/**
 * GET /carts/{id} and GET /carts items: the request's fields, the evaluation's
 * fields, `customer` as an object, and the stored cart's own fields.
 */
/** The customers a cart's webhook event names (its holder, the associate it was moved from, the one it was stored for). */
export function cartCustomers(cart: CartRecord): (string | null)[] {
  return [cart.customer_id, cart.associate_id, cart.origin_customer_id];
}

export function cartReadBody(cart: CartRecord): Record<string, unknown> {
  const { customer, ...response } = cartResponse(cart);
  const shipment = cart.request.shipment;
  return {
    ...cart.request,
    ...response,
    // What the contract adds in cart reads: the lines' unit price, the promotions' discount in cents, the shipment's status history.
    lines: response.lines.map((line) => ({ ...line, price: unitPrice(line) })),
    promotions: (response.promotions ?? []).map((promotion) => withDiscountInCents(promotion)),
    ...(isObject(shipment) ? { shipment: { ...shipment, status_histories: typeof shipment.status === 'string' ? [{ status: shipment.status, created_at: cart.stored_at }] : [] } } : {}),
    id: wireInt(cart.id),
    code: cart.code,
    customer: customer[0] ?? null,
    customer_id: orNull(cart.customer_id),
    customer_code: cart.customer_code,
    associate_id: orNull(cart.associate_id),
    location_code: cart.location_code,
    barcode: null,
    staff_code: null,
    score_simulation: false,
    cashback_score_desired_unused: unusedCashbackScore(cart, response.score_used),
    rewards: [],
    cancelled_by_cart_id: orNull(cart.cancelled_by),
    cancels_cart_id: orNull(cart.cancels),
    ...(cart.deferred_errors.length > 0 ? { deferred_errors: cart.deferred_errors } : {}),
    ...(cart.deferred_errors_omitted ? { deferred_errors_omitted: cart.deferred_errors_omitted } : {}),
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * Cents of an amount as stored, rounded: not the engine's `toCents`, which refuses more than two decimals, and a
 * promotion's `discount` is stored as the client sent it (the contract's money is any number; a read never fails).
 */
const cents = (amount: number) => Math.round(amount * 100);

/** The line's unit price before discounts (original_total over quantity, to the cent); null without a quantity. */
function unitPrice(line: CartLine): number | null {
  const quantity = line.quantity ?? 1;
  if (quantity === 0) return null;
  return toMoney(Math.round(cents(Number(line.original_total ?? line.total)) / quantity));
}

/** A promotion of the request with `discount_int`: its discount in cents. */
function withDiscountInCents(promotion: unknown): unknown {
  if (!isObject(promotion) || typeof promotion.discount !== 'number') return promotion;
  return { ...promotion, discount_int: cents(promotion.discount) };
}

/** Points asked for with cashback_score_desired and not spent (-1 asks for the maximum: nothing is left unused). */
function unusedCashbackScore(cart: CartRecord, used: number): number {
  const desired = cart.request.cashback_score_desired;
  if (typeof desired !== 'number' || desired < 0) return 0;
  return Math.max(0, desired - used);
}
