/**
 * rule_effects → compiled effects, checked against the campaign type; and the
 * bounds of a points campaign's values, checked only where a campaign is
 * written (checkEffectBounds), so that a campaign stored before the bound
 * still compiles: evaluation cuts each of its awards to MAX_POINTS.
 */
import { Decimal } from 'decimal.js';
import { atMostOf, invalidRequest, mustBe, mustBeIn } from '../errors.js';
import { asSafeInteger, MAX_POINTS, toCents, toDecimal } from '../money.js';
import type { CampaignType } from '../types.js';
import { DISTRIBUTIONS, type CompiledEffect } from './program.js';
import { oneOf, optionalInteger, parseJsonField } from './read.js';

const DISCOUNT_TYPES = ['percentage', 'direct_value', 'combo_price'] as const;
const POINTS_TYPES = ['ratio', 'direct_value'] as const;
const POINTS_DISTRIBUTIONS = ['individual_items', 'total', 'total_cart'] as const;

/** The most effects a campaign has: each one is applied to the lines its application selects (docs/decisions.md, 'Size caps'). */
export const MAX_RULE_EFFECTS = 100;

export function compileEffects(raw: unknown, type: CampaignType): CompiledEffect[] {
  const field = 'rule_params.rule_effects';
  // An instant win's only effect is its draw.
  if (type === 'instant_win') return [];
  const list = parseJsonField(raw, field);
  if (!Array.isArray(list) || list.length === 0) throw invalidRequest(field, 'must be a non-empty array of effects');
  if (list.length > MAX_RULE_EFFECTS) throw invalidRequest(field, atMostOf(MAX_RULE_EFFECTS, 'item'));
  return list.map((item, i) => compileEffect(item, `${field}[${i}]`, type));
}

/**
 * Throws invalid_request naming `rule_params.rule_effects[i].value` when a points effect is out of
 * bounds: a ratio above MAX_POINTS points per currency unit, a direct_value above MAX_POINTS.
 */
export function checkEffectBounds(raw: unknown, type: CampaignType): void {
  if (type !== 'points') return;
  compileEffects(raw, type).forEach((effect, i) => {
    const field = `rule_params.rule_effects[${i}].value`;
    if (effect.rate.gt(MAX_POINTS)) throw invalidRequest(field, `${mustBeIn('number', { exclusiveMinimum: 0, maximum: MAX_POINTS })} (points per currency unit)`);
    if (effect.amount > MAX_POINTS) throw invalidRequest(field, mustBeIn('integer', { minimum: 1, maximum: MAX_POINTS }));
  });
}

function compileEffect(item: unknown, field: string, campaignType: CampaignType): CompiledEffect {
  if (item === null || typeof item !== 'object' || Array.isArray(item)) throw invalidRequest(field, mustBe('object'));
  const raw = item as Record<string, unknown>;
  const limits = optionalInteger(raw.limits, `${field}.limits`, 1);
  if (campaignType === 'points') {
    const type = oneOf(raw.type, `${field}.type`, POINTS_TYPES, 'ratio');
    const distribution = oneOf(raw.distribution, `${field}.distribution`, POINTS_DISTRIBUTIONS, 'individual_items');
    if (type === 'ratio') {
      const rate = toDecimal(raw.value, `${field}.value`);
      if (rate.lte(0)) throw invalidRequest(`${field}.value`, mustBeIn('number', { exclusiveMinimum: 0 }));
      return { type, distribution, rate, rateInt: asSafeInteger(rate), amount: 0, limits };
    }
    const points = optionalInteger(raw.value, `${field}.value`, 1);
    if (points === null) throw invalidRequest(`${field}.value`, 'is required');
    return { type, distribution, rate: new Decimal(0), rateInt: 0, amount: points, limits };
  }
  const type = oneOf(raw.type, `${field}.type`, DISCOUNT_TYPES, 'percentage');
  const distribution = oneOf(raw.distribution, `${field}.distribution`, DISTRIBUTIONS, 'individual_items');
  if (type === 'percentage') {
    const percent = toDecimal(raw.value, `${field}.value`);
    if (percent.lte(0) || percent.gt(100)) throw invalidRequest(`${field}.value`, mustBeIn('number', { exclusiveMinimum: 0, maximum: 100 }));
    return { type, distribution, rate: percent, rateInt: asSafeInteger(percent), amount: 0, limits };
  }
  return { type, distribution, rate: new Decimal(0), rateInt: 0, amount: toCents(raw.value, `${field}.value`, 0), limits };
}
