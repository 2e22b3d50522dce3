/** Validates the evaluation context: clock, mode, seed, customer state, counters. */
import { invalidRequest, mustBe, mustBeIn } from '../errors.js';
import { idString } from '../ids.js';
import { parseInstant } from '../time/zonedDate.js';
import type { CampaignCounters, Context, CustomerState, HeldVoucher, ReturnedPoints } from '../types.js';

export interface ContextInput {
  now: number;
  mode: 'simulate' | 'realtime';
  seed: string;
  customer: CustomerState | null;
  customerId: string | null;
  pointsAvailable: number;
  /** `expiresAt`: epoch ms, Infinity for a voucher that never expires. */
  vouchers: readonly (HeldVoucher & { campaignId: string; expiresAt: number })[];
  counters: Readonly<Record<string, CampaignCounters>>;
  productFeatures: Readonly<Record<string, string[]>>;
  productCodes: Readonly<Record<string, { code?: string; ean?: string }>>;
  locationFeatures: readonly string[];
  /** Aligned with the cart's returns. */
  returns: readonly (ReturnedPoints | null)[];
  prizeUnits: Readonly<Record<string, number>>;
}

const EMPTY = Object.freeze({});

/** `returnCount`: how many returns the cart has (context.returns may not have more). */
export function readContext(context: Context, returnCount = 0): ContextInput {
  if (context === null || typeof context !== 'object') throw invalidRequest('context', mustBe('object'));
  if (context.mode !== 'simulate' && context.mode !== 'realtime') throw invalidRequest('context.mode', "must be 'simulate' or 'realtime'");
  if (typeof context.seed !== 'string') throw invalidRequest('context.seed', mustBe('string'));
  const customer = context.customer ?? null;
  if (customer !== null && typeof customer !== 'object') throw invalidRequest('context.customer', mustBe('object'));
  const points = customer?.points_available ?? 0;
  if (!Number.isSafeInteger(points)) throw invalidRequest('context.customer.points_available', mustBe('integer'));
  return {
    now: parseInstant(context.now, 'context.now'),
    mode: context.mode,
    seed: context.seed,
    customer,
    customerId: customer?.id === undefined || customer.id === null ? null : idString(customer.id, 'context.customer.id'),
    pointsAvailable: points,
    vouchers: readVouchers(customer?.vouchers).map((voucher, i) => ({
      ...voucher,
      campaignId: idString(voucher.campaign_id, `context.customer.vouchers[${i}].campaign_id`),
      expiresAt: voucher.available_to == null ? Infinity : parseInstant(voucher.available_to, `context.customer.vouchers[${i}].available_to`),
    })),
    counters: context.counters ?? EMPTY,
    productFeatures: context.product_features ?? EMPTY,
    productCodes: context.product_codes ?? EMPTY,
    locationFeatures: readLocationFeatures(context.location_features),
    returns: readReturned(context.returns, returnCount),
    prizeUnits: readPrizeUnits(context.prize_units),
  };
}

/** The vouchers an app or the server passes: each an object with its code (what the engine reads it by). */
function readVouchers(vouchers: CustomerState['vouchers']): readonly HeldVoucher[] {
  if (vouchers === undefined || vouchers === null) return [];
  if (!Array.isArray(vouchers)) throw invalidRequest('context.customer.vouchers', mustBe('array'));
  for (const [i, voucher] of vouchers.entries()) {
    if (voucher === null || typeof voucher !== 'object') throw invalidRequest(`context.customer.vouchers[${i}]`, mustBe('object'));
    if (typeof voucher.code !== 'string') throw invalidRequest(`context.customer.vouchers[${i}].code`, mustBe('string'));
  }
  return vouchers;
}

function readLocationFeatures(features: Context['location_features']): readonly string[] {
  if (features === undefined || features === null) return [];
  if (!Array.isArray(features)) throw invalidRequest('context.location_features', mustBe('array'));
  features.forEach((feature, i) => {
    if (typeof feature !== 'string') throw invalidRequest(`context.location_features[${i}]`, mustBe('string'));
  });
  return features;
}

function readReturned(returns: Context['returns'], returnCount: number): (ReturnedPoints | null)[] {
  if (returns === undefined) return [];
  if (!Array.isArray(returns)) throw invalidRequest('context.returns', mustBe('array'));
  if (returns.length > returnCount) throw invalidRequest('context.returns', `has ${returns.length} entries for ${returnCount} returns of the cart`);
  return returns.map((returned, i) => {
    if (returned === null) return null;
    const field = `context.returns[${i}]`;
    idString(returned.ticket_id, `${field}.ticket_id`);
    if (!Number.isSafeInteger(returned.line_order)) throw invalidRequest(`${field}.line_order`, mustBe('integer'));
    if (typeof returned.quantity !== 'number' || !(returned.quantity >= 0)) throw invalidRequest(`${field}.quantity`, mustBeIn('number', { minimum: 0 }));
    for (const points of ['score_from_customer', 'score_to_customer', 'redeemed_to_customer'] as const) {
      const value = returned[points];
      if (points === 'redeemed_to_customer' && value === undefined) continue;
      if (!Number.isSafeInteger(value) || value! < 0) throw invalidRequest(`${field}.${points}`, mustBeIn('integer', { minimum: 0 }));
    }
    return returned;
  });
}

function readPrizeUnits(units: Context['prize_units']): Readonly<Record<string, number>> {
  if (units === undefined) return EMPTY;
  if (units === null || typeof units !== 'object') throw invalidRequest('context.prize_units', mustBe('object'));
  for (const [key, left] of Object.entries(units)) {
    if (!Number.isSafeInteger(left) || left < 0) throw invalidRequest(`context.prize_units.${key}`, mustBeIn('integer', { minimum: 0 }));
  }
  return units;
}

/** An identified customer: one the caller resolved to an id or a code. */
export function isIdentified(input: ContextInput): boolean {
  return input.customer !== null && (input.customerId !== null || typeof input.customer.code === 'string');
}
