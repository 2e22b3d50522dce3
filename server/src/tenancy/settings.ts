/** Default settings of a new Company environment, and the rules of a change. */
import { compileRule, isCurrency } from '@tally/engine';
import { invalidRequest } from '../http/errors.js';
import { compileCompanySchema, createCompanyAjv } from '../http/company-schemas.js';
import type { CompanyUpdate } from '../wire/types.js';
import type { CompanySettings } from './types.js';

export const DEFAULT_SETTINGS: CompanySettings = {
  version: 1,
  currency: 'EUR',
  country: 'ES',
  timezone: 'UTC',
  default_language: 'en',
  languages: ['en'],
  point_value: '0.01',
  cashback_cap: null,
  cashback_threshold: 0,
  trigger_engine_version: 2,
  customer_attribute_schema: { type: 'object', properties: {} },
  audiences: [],
  rate_limits: {},
  cart_cancellation_wait_seconds: 300,
};

function isTimezone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/**
 * Applies a (schema-validated) patch: top-level fields are replaced whole.
 * Checks the rules a schema cannot express; throws invalid_request.
 */
export function applySettingsPatch(current: CompanySettings, patch: CompanyUpdate): CompanySettings {
  const next: CompanySettings = { ...current, ...patch, version: current.version + 1 };
  if (!isTimezone(next.timezone)) throw invalidRequest('timezone', 'is not an IANA time zone');
  // Checked on change only: carts refuse a currency outside ISO 4217, so the Company's must be one of them.
  if (patch.currency !== undefined && !isCurrency(patch.currency)) throw invalidRequest('currency', 'is not an ISO 4217 currency');
  // The engine refuses a point value of 0 (every cart of the Company would be refused); the schema already allows digits only.
  if (patch.point_value !== undefined && !/[1-9]/.test(patch.point_value)) throw invalidRequest('point_value', 'must be a decimal number greater than 0');
  if (!next.languages.includes(next.default_language)) {
    throw invalidRequest('default_language', 'must be one of languages');
  }
  if (patch.customer_attribute_schema !== undefined) {
    compileCompanySchema(createCompanyAjv(), patch.customer_attribute_schema, 'customer_attribute_schema');
  }
  const audienceIds = new Set(next.audiences.map((a) => a.id));
  if (audienceIds.size !== next.audiences.length) throw invalidRequest('audiences', 'ids must be unique');
  // A rule that does not compile is refused when it is saved, not when an audience is first evaluated.
  next.audiences.forEach((audience, i) => compileRule(audience.rule, `audiences[${i}].rule`));
  return next;
}
