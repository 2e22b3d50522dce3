/**
 * The rule parameters of a game or an instant win (the same rule_params as
 * POST /discounts): each field sent replaces the stored one; rule objects may
 * come as objects or JSON strings and are stored parsed; a name or
 * description sent per language is kept in `texts` and stored in the
 * Company's default language (what the engine reports).
 */
import type { RuleParams } from '@tally/engine';
import { invalidRequest } from '../http/errors.js';
import type { CompanySettings } from '../tenancy/types.js';
import type { CampaignsUpdate } from '../wire/types.js';
import type { Translations } from './types.js';

/** The rule parameters that mean something without a cart's money (no budgets, points dates or coupons). */
const ACCEPTED = new Set([
  'name', 'description', 'when', 'loyalty_rule_category_id', 'available_from', 'available_to', 'active',
  'recurrence_type', 'recurrence_days', 'select_customers', 'partner_id', 'customer_registration_countries',
  'once', 'once_limit', 'rule_conditions', 'rule_application', 'rule_effects', 'stackability_properties', 'priority',
]);
const RULE_OBJECTS = new Set(['rule_conditions', 'rule_application', 'rule_effects']);
const AUDIENCES = ['loyalty', 'targeted'];

export interface CampaignFields {
  rule_params: RuleParams;
  texts: Partial<Record<'name' | 'description', Translations>>;
  static_code: string | null;
}

export function mergeCampaignFields(previous: CampaignFields | undefined, body: CampaignsUpdate, settings: CompanySettings): CampaignFields {
  const texts = { ...(previous?.texts ?? {}) };
  const params: RuleParams = { ...(previous?.rule_params ?? {}) };
  for (const [field, value] of Object.entries(body.rule_params ?? {})) {
    const path = `rule_params.${field}`;
    if (!ACCEPTED.has(field)) throw invalidRequest(path, 'is not a field of games and instant wins');
    if (RULE_OBJECTS.has(field)) params[field] = parseRuleObject(value, path);
    else if (field === 'name' || field === 'description') params[field] = defaultText(texts, field, value, settings);
    else params[field] = value;
  }
  if (typeof params.name !== 'string' || params.name === '') throw invalidRequest('rule_params.name', 'is required');
  params.select_customers ??= 'loyalty';
  if (!AUDIENCES.includes(params.select_customers)) throw invalidRequest('rule_params.select_customers', 'must be loyalty or targeted');
  let staticCode = previous?.static_code ?? null;
  for (const [field, value] of Object.entries(body.coupon_params ?? {})) {
    if (field !== 'static_code') throw invalidRequest(`coupon_params.${field}`, 'is not a field of games and instant wins (only static_code)');
    staticCode = typeof value === 'string' && value !== '' ? value : null;
  }
  return { rule_params: params, texts, static_code: staticCode };
}

function parseRuleObject(value: unknown, field: string): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    throw invalidRequest(field, 'is not valid JSON');
  }
}

function defaultText(texts: CampaignFields['texts'], field: 'name' | 'description', value: unknown, settings: CompanySettings): string {
  if (typeof value === 'string') {
    delete texts[field];
    return value;
  }
  const translations = value as Translations;
  texts[field] = translations;
  return translations[settings.default_language] ?? Object.values(translations)[0] ?? '';
}

/** Rule objects are answered as JSON strings (contract part 2, Campaign rule parameters). */
export function ruleObjectText(value: unknown): string | null {
  return value === undefined ? null : JSON.stringify(value);
}
