/**
 * Audience rules (a Company setting: `audiences`, each a rule in the
 * evaluator's condition language) compiled once per Company environment and
 * settings version with the engine's compileRule.
 */
import { compileRule, type CompiledRule } from '@tally/engine';
import { tenantPrefix } from '../store/keys.js';
import type { CompanySettings, Tenant } from '../tenancy/types.js';

interface Compiled {
  version: number;
  /** By audience id (the contract's segment_id), in the settings' order. */
  rules: Map<string, CompiledRule>;
}

const cache = new Map<string, Compiled>();

export function audienceRules(tenant: Tenant, settings: CompanySettings): Map<string, CompiledRule> {
  const key = tenantPrefix(tenant);
  const cached = cache.get(key);
  if (cached?.version === settings.version) return cached.rules;
  const rules = new Map(settings.audiences.map((audience, i) => [audience.id, compileRule(audience.rule, `audiences[${i}].rule`)]));
  cache.set(key, { version: settings.version, rules });
  return rules;
}
