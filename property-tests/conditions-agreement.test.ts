/**
 * The fast path agrees with the reference: for generated rules and carts, the compiled
 * closures and json-rules-engine's Engine (running the exported JSON) give the same
 * matching rules, in the same order, and select the same lines.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileRule, referenceEngine } from '../engine/src/conditions/index.js';
import { arbCartFacts, arbLineCondition, arbRule } from './arbitraries/rules.js';

describe('compiled rules agree with json-rules-engine', () => {
  it('on conditions and on selected lines, for one rule', async () => {
    await fc.assert(
      fc.asyncProperty(arbRule, arbCartFacts, async (raw, facts) => {
        const rule = compileRule(raw, 'rule_conditions');
        const reference = referenceEngine([{ id: 'r', rule }]);
        expect(await reference.matching(facts)).toEqual(rule.test(facts) ? ['r'] : []);
        expect(await reference.selectedLines('r', facts)).toEqual(rule.selectLines(facts));
      }),
      { numRuns: 1000, seed: 20261122 },
    );
  });

  it('on the rules a cart matches, in the order given', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(arbRule, { minLength: 1, maxLength: 8 }), arbCartFacts, async (raws, facts) => {
        const rules = raws.map((raw, i) => ({ id: `campaign-${raws.length - i}`, rule: compileRule(raw, 'rule_conditions') }));
        const expected = rules.filter(({ rule }) => rule.test(facts)).map(({ id }) => id);
        expect(await referenceEngine(rules).matching(facts)).toEqual(expected);
      }),
      { numRuns: 400, seed: 7 },
    );
  });

  it('on rules given as JSON strings', async () => {
    await fc.assert(
      fc.asyncProperty(arbRule, arbCartFacts, async (raw, facts) => {
        const fromString = compileRule(JSON.stringify(raw), 'rule_application');
        expect(fromString.json).toEqual(compileRule(raw, 'rule_application').json);
        expect(await referenceEngine([{ id: 'r', rule: fromString }]).selectedLines('r', facts)).toEqual(fromString.selectLines(facts));
      }),
      { numRuns: 100, seed: 3 },
    );
  });

  it('bundles: each part holds the lines its line condition selects', () => {
    fc.assert(
      fc.property(fc.array(arbLineCondition, { minLength: 1, maxLength: 3 }), arbCartFacts, (parts, facts) => {
        const numbered = parts.map((part, i) => ({ ...part, bundle: i + 1 }));
        const bundles = compileRule({ conditions: { and: numbered } }, 'rule_application').bundles(facts);
        numbered.forEach((part, i) => {
          const alone = compileRule({ conditions: { and: [part] } }, 'rule_application').selectLines(facts);
          expect(bundles.get(i + 1)).toEqual(alone.flatMap((selected, line) => (selected ? [line] : [])));
        });
      }),
      { numRuns: 200, seed: 11 },
    );
  });
});
