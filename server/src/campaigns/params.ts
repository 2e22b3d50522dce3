/**
 * A create or update body → the campaign record to store. Update semantics
 * (docs/campaigns.md): each field sent replaces the stored one, fields not
 * sent are kept. The rule objects may come as objects or JSON strings and
 * are stored parsed; an absent one (null, "", {}) is removed. Any other
 * optional field sent null is removed too (no end date, no budget, no
 * static code...), so what a read shows as null can be sent back.
 */
import { checkBudgetPeriod, checkEffectBounds, endsBeforeStart, needsCoupon, type RuleParams } from '@tally/engine';
import { invalidRequest } from '../http/errors.js';
import { parseJsonText } from '../http/json.js';
import type { CompanySettings } from '../tenancy/types.js';
import type { CampaignsUpdate } from '../wire/types.js';
import type { CampaignKind, CampaignRecord, Translations } from './types.js';

const RULE_OBJECTS = ['rule_conditions', 'rule_application', 'rule_effects'] as const;

/** Fields the contract lists for points campaigns only. */
const POINTS_ONLY = [
  'activation_period_type', 'activation_fixed_option_selected', 'activation_date', 'expiration_date',
  'activation_delay', 'activation_delay_unit', 'expiration_period_type', 'fixed_option_selected',
  'availability_duration', 'availability_duration_unit', 'availability_duration_natural', 'transferable',
  'custom_entity_definition_id',
] as const;

export interface RecordInput {
  kind: CampaignKind;
  id: string;
  /** A create body too (the same fields, rule_params required). */
  body: CampaignsUpdate;
  previous: CampaignRecord | undefined;
  settings: CompanySettings;
  now: string;
  /** The coupon's id when the campaign has (or gets) a coupon. */
  couponId: string;
}

export function buildRecord({ kind, id, body, previous, settings, now, couponId }: RecordInput): CampaignRecord {
  const texts = { ...(previous?.texts ?? {}) };
  const ruleParams = mergeRuleParams(previous?.rule_params, body.rule_params, texts, settings, (field) =>
    kind === 'discount' && (POINTS_ONLY as readonly string[]).includes(field) ? 'is a points campaign field' : undefined,
  );
  // Checked when sent (as the date windows): a campaign stored before the bound stays editable, its awards cut at evaluation.
  if (body.rule_params?.rule_effects !== undefined) checkEffectBounds(ruleParams.rule_effects, kind);
  // Compiling reads it only with a budget_value: sent without one, it would be stored unchecked and refuse a later budget.
  if (body.rule_params?.budget_period !== undefined) checkBudgetPeriod(body.rule_params.budget_period);

  let couponParams = previous?.coupon_params ? { ...previous.coupon_params } : undefined;
  if (body.coupon_params !== undefined) {
    couponParams ??= {};
    for (const [field, value] of Object.entries(body.coupon_params)) {
      if (value === null) {
        delete couponParams[field];
        if (field === 'name' || field === 'description') delete texts[`coupon_${field}`];
      } else if (field === 'name' || field === 'description') {
        couponParams[field] = localized(texts, `coupon_${field}`, value, settings);
      } else couponParams[field] = value;
    }
    checkWindow(body.coupon_params, couponParams, 'coupon_params', ['available_from', 'available_to'], settings);
    checkWindow(body.coupon_params, couponParams, 'coupon_params', ['print_from', 'print_to'], settings);
  }
  // Contract part 2: coupon_params is required for targeted campaigns and for promotions that include a coupon
  // (coupon_required). A stored campaign that needs a coupon and has none (its coupon was deleted) stays editable.
  if (needsCoupon(ruleParams) && couponParams === undefined && !(previous && needsCoupon(previous.rule_params))) {
    throw invalidRequest('coupon_params', 'is required for targeted campaigns and coupon_required ones');
  }
  return {
    id,
    type: kind,
    rule_params: ruleParams,
    ...(couponParams ? { coupon_params: couponParams, coupon_id: previous?.coupon_id ?? couponId } : {}),
    texts,
    created_at: previous?.created_at ?? now,
    updated_at: now,
  };
}

/**
 * The rule_params sent merged over the stored ones (campaigns, games and
 * instant wins): each field sent replaces the stored one, rule objects are
 * stored parsed, a name or description sent per language is kept in `texts`,
 * a field sent null is removed; the name is required. `refusal` says why a field is not taken, if it is not.
 */
export function mergeRuleParams(
  stored: RuleParams | undefined,
  sent: CampaignsUpdate['rule_params'],
  texts: Partial<Record<'name' | 'description', Translations>>,
  settings: CompanySettings,
  refusal: (field: string) => string | undefined,
): RuleParams {
  const params: RuleParams = { ...(stored ?? {}) };
  for (const [field, value] of Object.entries(sent ?? {})) {
    const path = `rule_params.${field}`;
    const refused = refusal(field);
    if (refused !== undefined) throw invalidRequest(path, refused);
    if ((RULE_OBJECTS as readonly string[]).includes(field)) {
      const rule = parseRuleObject(value, path);
      if (rule === undefined) delete params[field];
      else params[field] = rule;
    } else if (value === null) {
      delete params[field];
      if (field === 'description') delete texts.description;
    } else if (field === 'name' || field === 'description') params[field] = localized(texts, field, value, settings);
    else params[field] = value;
  }
  if (typeof params.name !== 'string' || params.name === '') throw invalidRequest('rule_params.name', 'is required');
  checkWindow(sent, params, 'rule_params', ['available_from', 'available_to'], settings);
  checkWindow(sent, params, 'rule_params', ['activation_date', 'expiration_date'], settings);
  return params;
}

/**
 * A window whose end comes before its start is valid at no instant (campaigns and coupons: available_,
 * print_; points: activation_date to expiration_date): refused, naming the end, when the body sends
 * either (a stored one is not checked again, so an older campaign stays editable).
 */
function checkWindow(sent: object | undefined, merged: object, path: string, [start, end]: readonly [string, string], settings: CompanySettings): void {
  if (sent === undefined || !(start in sent || end in sent)) return;
  const bounds = merged as Record<string, unknown>;
  if (endsBeforeStart(bounds[start], bounds[end], settings.timezone, [start, end])) {
    throw invalidRequest(`${path}.${end}`, `is before ${path}.${start}`);
  }
}

/**
 * A rule object sent as an object or a JSON string → the object (stored parsed), or undefined when
 * it is absent (docs/rules.md: null, "" or {}). Both are read losslessly (http/json.ts): an integer
 * beyond 2^53 is a bigint, stored and compared exactly, as the engine reads a rule's JSON text.
 */
function parseRuleObject(value: unknown, field: string): unknown {
  let rule = value;
  if (typeof value === 'string') {
    if (value.trim() === '') return undefined;
    // Valid JSON of another kind (`"[]"` for conditions) is no rule: said so in the words of the JSON text, not left for
    // the engine to call it invalid JSON or "not an object or a JSON string".
    rule = parseJsonText(value, field, field.endsWith('rule_effects') ? 'array' : 'object', true);
  }
  if (rule === null || (typeof rule === 'object' && !Array.isArray(rule) && Object.keys(rule).length === 0)) return undefined;
  return rule;
}

/** A text or a text per language: stores the translations and returns the default-language text. */
function localized<F extends string>(
  texts: Partial<Record<F, Translations>>,
  field: F,
  value: unknown,
  settings: CompanySettings,
): string {
  if (typeof value === 'string') {
    delete texts[field];
    return value;
  }
  const translations = value as Translations;
  texts[field] = translations;
  return translations[settings.default_language] ?? Object.values(translations)[0] ?? '';
}
