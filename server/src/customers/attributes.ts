/**
 * Custom attributes (contract part 1, "Rules for attributes"): flat, checked
 * against the Company's customer attribute schema with ajv (properties the
 * schema does not define are silently discarded), at most 50 of them and
 * 10 KB in total. On update the request is a JSON Merge Patch (null removes an
 * attribute) and only the attributes it sends are validated.
 */
import type { ValidateFunction } from 'ajv';
import { invalidRequest, mustBeIn } from '../http/errors.js';
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
  /** The properties the schema declares `number` (not only `integer`): an integer beyond int64 is kept there as a double. */
  numbers: ReadonlySet<string>;
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
    numbers: numberProperties(schema),
  };
  cache.set(key, compiled);
  return compiled;
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

function numberProperties(schema: Record<string, unknown>): Set<string> {
  const properties = (schema.properties ?? {}) as Record<string, { type?: unknown }>;
  const declares = (type: unknown) => type === 'number' || (Array.isArray(type) && type.includes('number'));
  return new Set(Object.keys(properties).filter((name) => declares(properties[name]?.type)));
}

/**
 * Called after the schema dropped the properties it does not define: those are discarded without error, whatever their value.
 * An integer beyond 2^53 (a bigint) is kept exactly within int64, what the store can hold; beyond int64 it is kept as a double
 * (as `1e308` is) where the schema declares a number, and refused where only an integer is allowed (it would lose digits).
 */
function checkFlat(attributes: Record<string, unknown>, numbers: ReadonlySet<string>): void {
  for (const [name, value] of Object.entries(attributes)) {
    if (value !== null && typeof value === 'object') throw invalidRequest(`attributes.${name}`, 'must be a single value (attributes are flat)');
    if (typeof value === 'bigint' && (value < INT64_MIN || value > INT64_MAX)) {
      if (numbers.has(name)) attributes[name] = Number(value);
      else throw invalidRequest(`attributes.${name}`, mustBeIn('integer', { minimum: INT64_MIN, maximum: INT64_MAX }));
    }
  }
}

/** The attributes of a new customer: validated, undefined properties dropped. */
export function createAttributes(tenant: Tenant, settings: CompanySettings, sent: Record<string, unknown> | undefined): Record<string, unknown> {
  const attributes = structuredClone(sent ?? {});
  const { full, numbers } = validators(tenant, settings);
  checkCompanyData(full, attributes, 'attributes');
  checkFlat(attributes, numbers);
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
  const { partial, numbers } = validators(tenant, settings);
  checkCompanyData(partial, values, 'attributes');
  checkFlat(values, numbers);
  const next: Record<string, unknown> = { ...stored, ...values };
  for (const name of removals) delete next[name];
  return checkLimits(next);
}
