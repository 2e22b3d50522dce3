/**
 * The rule parameters of a game or an instant win: the same rule_params as
 * POST /discounts, merged the same way (mergeRuleParams), less the fields
 * that need a cart's money; coupon_params takes only static_code.
 */
import type { RuleParams } from '@tally/engine';
import { mergeRuleParams } from '../campaigns/params.js';
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
const AUDIENCES = ['loyalty', 'targeted'];

export interface CampaignFields {
  rule_params: RuleParams;
  texts: Partial<Record<'name' | 'description', Translations>>;
  static_code: string | null;
}

export function mergeCampaignFields(previous: CampaignFields | undefined, body: CampaignsUpdate, settings: CompanySettings): CampaignFields {
  const texts = { ...(previous?.texts ?? {}) };
  const params = mergeRuleParams(previous?.rule_params, body.rule_params, texts, settings, (field) =>
    ACCEPTED.has(field) ? undefined : 'is not a field of games and instant wins',
  );
  params.select_customers ??= 'loyalty';
  if (!AUDIENCES.includes(params.select_customers)) throw invalidRequest('rule_params.select_customers', 'must be loyalty or targeted');
  let staticCode = previous?.static_code ?? null;
  for (const [field, value] of Object.entries(body.coupon_params ?? {})) {
    if (field !== 'static_code') throw invalidRequest(`coupon_params.${field}`, 'is not a field of games and instant wins (only static_code)');
    staticCode = typeof value === 'string' && value !== '' ? value : null;
  }
  return { rule_params: params, texts, static_code: staticCode };
}

/**
 * A prize list whose sent ids are each sent once (a repeat is 400 naming it): two prizes of one id shared one
 * stock counter and one delivery, so the second could never be won as itself.
 */
export function distinctIds<P extends { id?: string }>(prizes: P[], field: string): P[] {
  const seen = new Set<string>();
  prizes.forEach((prize, i) => {
    if (prize.id === undefined) return;
    if (seen.has(prize.id)) throw invalidRequest(`${field}[${i}].id`, 'is the id of another prize of the list');
    seen.add(prize.id);
  });
  return prizes;
}
