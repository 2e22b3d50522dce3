/** rule_effects → compiled effects, checked against the campaign type. */
import { Decimal } from 'decimal.js';
import { invalidRequest } from '../errors.js';
import { asSafeInteger, MAX_POINTS, toCents, toDecimal } from '../money.js';
import type { CampaignType } from '../types.js';
import { DISTRIBUTIONS, type CompiledEffect } from './program.js';
import { oneOf, optionalInteger, parseJsonField } from './read.js';

const DISCOUNT_TYPES = ['percentage', 'direct_value', 'combo_price'] as const;
const POINTS_TYPES = ['ratio', 'direct_value'] as const;
const POINTS_DISTRIBUTIONS = ['individual_items', 'total', 'total_cart'] as const;

export function compileEffects(raw: unknown, type: CampaignType): CompiledEffect[] {
  const field = 'rule_params.rule_effects';
  // An instant win's only effect is its draw.
  if (type === 'instant_win') return [];
  const list = parseJsonField(raw, field);
  if (!Array.isArray(list) || list.length === 0) throw invalidRequest(field, 'must be a non-empty array of effects');
  return list.map((item, i) => compileEffect(item, `${field}[${i}]`, type));
}

function compileEffect(item: unknown, field: string, campaignType: CampaignType): CompiledEffect {
  if (item === null || typeof item !== 'object' || Array.isArray(item)) throw invalidRequest(field, 'must be an object');
  const raw = item as Record<string, unknown>;
  const limits = optionalInteger(raw.limits, `${field}.limits`, 1);
  if (campaignType === 'points') {
    const type = oneOf(raw.type, `${field}.type`, POINTS_TYPES, 'ratio');
    const distribution = oneOf(raw.distribution, `${field}.distribution`, POINTS_DISTRIBUTIONS, 'individual_items');
    if (type === 'ratio') {
      const rate = positive(toDecimal(raw.value, `${field}.value`), `${field}.value`);
      if (rate.gt(MAX_POINTS)) throw invalidRequest(`${field}.value`, `a ratio must be at most ${MAX_POINTS} points per currency unit`);
      return { type, distribution, rate, rateInt: asSafeInteger(rate), amount: 0, limits };
    }
    const points = optionalInteger(raw.value, `${field}.value`, 1);
    if (points === null) throw invalidRequest(`${field}.value`, 'is required');
    if (points > MAX_POINTS) throw invalidRequest(`${field}.value`, `must be at most ${MAX_POINTS} points`);
    return { type, distribution, rate: new Decimal(0), rateInt: 0, amount: points, limits };
  }
  const type = oneOf(raw.type, `${field}.type`, DISCOUNT_TYPES, 'percentage');
  const distribution = oneOf(raw.distribution, `${field}.distribution`, DISTRIBUTIONS, 'individual_items');
  if (type === 'percentage') {
    const percent = positive(toDecimal(raw.value, `${field}.value`), `${field}.value`);
    if (percent.gt(100)) throw invalidRequest(`${field}.value`, 'a percentage must be at most 100');
    return { type, distribution, rate: percent, rateInt: asSafeInteger(percent), amount: 0, limits };
  }
  const cents = toCents(raw.value, `${field}.value`);
  if (cents < 0) throw invalidRequest(`${field}.value`, 'must not be negative');
  return { type, distribution, rate: new Decimal(0), rateInt: 0, amount: cents, limits };
}

function positive(value: Decimal, field: string): Decimal {
  if (value.lte(0)) throw invalidRequest(field, 'must be positive');
  return value;
}
