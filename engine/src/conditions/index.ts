/** The rule language of rule_conditions and rule_application (docs/rules.md). */
export type { CartFacts, LineFacts, CustomerFacts } from './facts.js';
export type { CompiledRule } from './compiled-rule.js';
export { compileRule, MAX_RULE_CONDITIONS } from './compile-rule.js';
export { referenceEngine } from './reference-engine.js';
