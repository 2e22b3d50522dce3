/** Who and when a campaign applies to: compiled from rule_params once. */
import { invalidRequest, mustBe, mustBeIn, requiredWith } from '../errors.js';
import { dateBound } from '../time/dateWindow.js';
import type { RuleParams } from '../types.js';
import { RULE_PARAMS_DEFAULTS } from './defaults.js';
import { oneOf, optionalBoolean, optionalString, optionalStringArray } from './read.js';
import { SELECT_CUSTOMERS, type CompiledTargeting } from './program.js';

const RECURRENCE = ['daily', 'weekly', 'monthly'] as const;

export function compileTargeting(params: RuleParams): CompiledTargeting {
  const countries = optionalStringArray(params.customer_registration_countries, 'rule_params.customer_registration_countries');
  return {
    active: optionalBoolean(params.active, 'rule_params.active', RULE_PARAMS_DEFAULTS.active),
    dates: { from: dateBound(params.available_from, 'rule_params.available_from'), to: dateBound(params.available_to, 'rule_params.available_to') },
    recurrence: compileRecurrence(params),
    selectCustomers: oneOf(params.select_customers, 'rule_params.select_customers', SELECT_CUSTOMERS, RULE_PARAMS_DEFAULTS.select_customers),
    countries: countries && countries.length > 0 ? new Set(countries) : null,
    currency: optionalString(params.currency, 'rule_params.currency'),
  };
}

/** recurrence_type and recurrence_days → the days the campaign runs (null: every day); evaluate/recurrence.ts reads them. */
export function compileRecurrence(params: RuleParams): CompiledTargeting['recurrence'] {
  const type = params.recurrence_type;
  if (type === undefined || type === null || type === '') return null;
  const kind = oneOf(type, 'rule_params.recurrence_type', RECURRENCE, 'daily');
  if (kind === 'daily') return { type: kind, days: new Set() };
  const days = params.recurrence_days;
  const max = kind === 'weekly' ? 7 : 31;
  const field = 'rule_params.recurrence_days';
  if (days === undefined || days === null) throw requiredWith(field, `rule_params.recurrence_type ${kind}`);
  if (!Array.isArray(days)) throw invalidRequest(field, mustBe('array'));
  if (days.length === 0) throw invalidRequest(field, 'must not be empty');
  days.forEach((day, i) => {
    if (!Number.isInteger(day) || day < 1 || day > max) throw invalidRequest(`${field}[${i}]`, mustBeIn('integer', { minimum: 1, maximum: max }));
  });
  return { type: kind, days: new Set(days) };
}
