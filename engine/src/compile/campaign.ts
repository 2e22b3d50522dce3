/** One campaign's JSON → its compiled form. Throws invalid_request naming the field. */
import { compileRule } from '../conditions/index.js';
import { invalidRequest, mustBe } from '../errors.js';
import { idString } from '../ids.js';
import { toCents } from '../money.js';
import { checkPeriod, type Period } from '../time/periodKey.js';
import { compilePointsAvailability } from '../time/pointsAvailability.js';
import type { Campaign, CampaignType } from '../types.js';
import { compileCoupon, compileCouponDates } from './coupon.js';
import { DEFAULT_ONCE_LIMIT, RULE_PARAMS_DEFAULTS } from './defaults.js';
import { compileEffects } from './effects.js';
import { compilePrizes } from './prizes.js';
import { STACKABILITY, type CompiledCampaign } from './program.js';
import { oneOf, optionalBoolean, optionalInteger, optionalString } from './read.js';
import { compileTargeting } from './targeting.js';

const TYPES: readonly CampaignType[] = ['discount', 'points', 'instant_win'];

export function compileCampaign(campaign: Campaign): CompiledCampaign {
  if (campaign === null || typeof campaign !== 'object') throw invalidRequest('campaign', mustBe('object'));
  const type = campaign.type;
  if (!TYPES.includes(type)) throw invalidRequest('type', `must be one of ${TYPES.join(', ')}`);
  const params = campaign.rule_params;
  if (params === null || typeof params !== 'object') throw invalidRequest('rule_params', mustBe('object'));
  const coupon = campaign.coupon_params ?? null;
  if (coupon !== null && typeof coupon !== 'object') throw invalidRequest('coupon_params', mustBe('object'));
  const budget = optionalMoney(params.budget_value, 'rule_params.budget_value');
  const prizes = compilePrizes(campaign.prizes);
  const effects = compileEffects(params.rule_effects, type);
  const conditions = compileRule(params.rule_conditions, 'rule_params.rule_conditions');
  if (type !== 'instant_win' && prizes.length > 0) throw invalidRequest('prizes', 'only instant_win campaigns have prizes');
  return {
    id: idString(campaign.id, 'id'),
    rawId: campaign.id,
    type,
    name: optionalString(params.name, 'rule_params.name') ?? '',
    priority: optionalInteger(params.priority, 'rule_params.priority', Number.MIN_SAFE_INTEGER) ?? RULE_PARAMS_DEFAULTS.priority,
    conditions,
    application: compileRule(params.rule_application, 'rule_params.rule_application', { field: 'rule_params.rule_conditions', size: conditions.size }),
    effects,
    targeting: compileTargeting(params),
    couponRequired: optionalBoolean(params.coupon_required, 'rule_params.coupon_required', RULE_PARAMS_DEFAULTS.coupon_required),
    staticCode: coupon ? optionalString(coupon.static_code, 'coupon_params.static_code') : null,
    coupon: coupon ? compileCoupon(coupon, type, effects[0]) : null,
    couponDates: coupon ? compileCouponDates(coupon) : null,
    once: compileOnce(params),
    budget: budget === null ? null : { period: budgetPeriod(params.budget_period), cents: budget },
    maxTransactionCents: optionalMoney(params.maximum_budget_transaction, 'rule_params.maximum_budget_transaction'),
    stackability: oneOf(params.stackability_properties, 'rule_params.stackability_properties', STACKABILITY, RULE_PARAMS_DEFAULTS.stackability_properties),
    availability: type === 'points' ? compilePointsAvailability(params) : null,
    prizes,
  };
}

/**
 * rule_params.budget_period as a period (absent: always); invalid_request naming it when it is none. Compiling reads it
 * only with a budget_value, so a campaign stored with a bad one and no budget still compiles; a write checks it
 * whenever sent (exported as `checkBudgetPeriod`).
 */
export function budgetPeriod(value: unknown): Period {
  return checkPeriod(value, 'rule_params.budget_period');
}

/**
 * The per-customer limit: once_limit uses in each `once` period. The contract's chance_to_accrue_limit
 * and chance_to_accrue_period name the same thing (how many times a customer may accrue in a period;
 * docs/decisions.md): either pair sets it, and two pairs that disagree are refused, never one ignored.
 * Exported as `onceLimitOf` for the server's redemptions outside a cart, which count a use as carts do.
 */
export function compileOnce(params: Campaign['rule_params']): CompiledCampaign['once'] {
  const once = perCustomerLimit(params.once_limit, params.once, 'once_limit', 'once');
  const chance = perCustomerLimit(params.chance_to_accrue_limit, params.chance_to_accrue_period, 'chance_to_accrue_limit', 'chance_to_accrue_period');
  if (once && chance && (once.limit !== chance.limit || once.period !== chance.period)) {
    throw invalidRequest('rule_params.chance_to_accrue_limit', 'sets the per-customer limit once and once_limit already set differently: send one pair, or both alike');
  }
  return once ?? chance;
}

/** A period without a limit means once in that period (`once: "num_day"` is once a day), never no limit at all. */
function perCustomerLimit(limit: unknown, period: unknown, limitField: string, periodField: string): CompiledCampaign['once'] {
  const uses = optionalInteger(limit, `rule_params.${limitField}`, 1) ?? (period === undefined || period === null || period === '' ? null : DEFAULT_ONCE_LIMIT);
  return uses === null ? null : { period: checkPeriod(period, `rule_params.${periodField}`), limit: uses };
}

function optionalMoney(value: unknown, field: string): number | null {
  if (value === undefined || value === null) return null;
  return toCents(value, field, 0);
}
