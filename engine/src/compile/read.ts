/**
 * Readers of optional campaign fields: each returns the typed value or throws
 * invalid_request naming the field, so compileCampaigns rejects a malformed
 * campaign before any cart is evaluated.
 */
import { invalidRequest, mustBe, mustBeIn } from '../errors.js';

export function optionalString(value: unknown, field: string): string | null {
  if (value === undefined || value === null || value === '') return null;
  if (typeof value === 'string') return value;
  throw invalidRequest(field, mustBe('string'));
}

export function optionalBoolean(value: unknown, field: string, fallback: boolean): boolean {
  if (value === undefined || value === null) return fallback;
  if (typeof value === 'boolean') return value;
  throw invalidRequest(field, mustBe('boolean'));
}

export function optionalInteger(value: unknown, field: string, min: number): number | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= min) return value;
  throw invalidRequest(field, mustBeIn('integer', { minimum: min }));
}

export function optionalStringArray(value: unknown, field: string): string[] | null {
  if (value === undefined || value === null) return null;
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return value as string[];
  throw invalidRequest(field, 'must be an array of strings');
}

export function oneOf<T extends string>(value: unknown, field: string, allowed: readonly T[], fallback: T): T {
  if (value === undefined || value === null || value === '') return fallback;
  if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return value as T;
  throw invalidRequest(field, `must be one of ${allowed.join(', ')}`);
}

/** rule_effects (like the rule objects) may arrive as a JSON string: the contract's update and read form. */
export function parseJsonField(value: unknown, field: string): unknown {
  if (typeof value !== 'string') return value;
  if (value.trim() === '') return undefined;
  try {
    return JSON.parse(value);
  } catch {
    throw invalidRequest(field, 'is not valid JSON');
  }
}
