/**
 * Custom attributes (contract part 1, "Rules for attributes"): flat, checked
 * against the Company's customer attribute schema with ajv (properties the
 * schema does not define are silently discarded), at most 50 of them and
 * 10 KB in total. On update the request is a JSON Merge Patch (null removes an
 * attribute) and only the attributes it sends are validated.
 */
import type { ValidateFunction } from 'ajv';
import { invalidRequest } from '../http/errors.js';
import { checkCompanyData, compileCompanySchema, createCompanyAjv } from '../http/company-schemas.js';
import type { CompanySettings, Tenant } from '../tenancy/types.js';
import { tenantPrefix } from '../store/keys.js';
import { checkLimits } from './attribute-limits.js';

interface Validators {
  version: number;
  /** Create: the whole schema, `required` included. */
  full: ValidateFunction;
  /** Update: the same properties without `required` (stored attributes are not re-validated). */
  partial: ValidateFunction;
}

/** Compiled once per Company environment and settings version (compile once, validate many). */
const cache = new Map<string, Validators>();
const ajv = createCompanyAjv({ removeAdditional: true });

function validators(tenant: Tenant, settings: CompanySettings): Validators {
  const key = tenantPrefix(tenant);
  const cached = cache.get(key);
  if (cached?.version === settings.version) return cached;
  const schema: Record<string, unknown> = { ...settings.customer_attribute_schema, type: 'object', additionalProperties: false };
  const { required: _required, ...withoutRequired } = schema;
  const compiled: Validators = {
    version: settings.version,
    full: compileCompanySchema(ajv, schema, 'customer_attribute_schema'),
    partial: compileCompanySchema(ajv, withoutRequired, 'customer_attribute_schema'),
  };
  cache.set(key, compiled);
  return compiled;
}

/**
 * Called after the schema dropped the properties it does not define: those are discarded without error, whatever their value.
 * An integer beyond 2^53 (a bigint: bodies are parsed losslessly) is kept with every digit, whatever its size.
 */
function checkFlat(attributes: Record<string, unknown>): void {
  for (const [name, value] of Object.entries(attributes)) {
    if (value !== null && typeof value === 'object') throw invalidRequest(`attributes.${name}`, 'must be a single value (attributes are flat)');
  }
}

/** The attributes of a new customer: validated, undefined properties dropped. */
export function createAttributes(tenant: Tenant, settings: CompanySettings, sent: Record<string, unknown> | undefined): Record<string, unknown> {
  const attributes = structuredClone(sent ?? {});
  const { full } = validators(tenant, settings);
  checkCompanyData(full, attributes, 'attributes');
  checkFlat(attributes);
  return checkLimits(attributes);
}

/** Applies a JSON Merge Patch to the stored attributes; only the patch is validated. */
export function patchAttributes(
  tenant: Tenant,
  settings: CompanySettings,
  stored: Record<string, unknown>,
  patch: Record<string, unknown>,
): Record<string, unknown> {
  const removals = Object.keys(patch).filter((name) => patch[name] === null);
  const values = Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== null));
  const { partial } = validators(tenant, settings);
  checkCompanyData(partial, values, 'attributes');
  checkFlat(values);
  const next: Record<string, unknown> = { ...stored, ...values };
  for (const name of removals) delete next[name];
  return checkLimits(next);
}
