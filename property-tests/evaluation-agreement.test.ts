/**
 * The hot path agrees with the exported program: for generated campaigns and
 * carts, the campaigns evaluateCart applies are exactly the rules that
 * json-rules-engine's Engine matches when it runs program.toJSON(), in the
 * same order (priority, then id).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { referenceEngine, type CompiledRule } from '../engine/src/conditions/index.js';
import { buildFacts } from '../engine/src/evaluate/facts.js';
import { readCart } from '../engine/src/evaluate/cartInput.js';
import { readContext } from '../engine/src/evaluate/contextInput.js';
import { compileCampaigns, evaluateCart, type Campaign } from '../engine/src/index.js';
import { zonedDate } from '../engine/src/time/zonedDate.js';
import { arbCart, arbContext } from './arbitraries/evaluation.js';
import { arbRule } from './arbitraries/rules.js';

const SETTINGS = { currency: 'EUR', timezone: 'Europe/Madrid' };

/** One fixed point per campaign whose conditions hold: an effect appears exactly when the rule matches. */
const arbCampaigns = fc.array(fc.record({ rule: arbRule, priority: fc.integer({ min: 0, max: 2 }) }), { minLength: 1, maxLength: 8 }).map((items) =>
  items.map(
    ({ rule, priority }, i): Campaign => ({
      id: 100 - i,
      type: 'points',
      rule_params: { priority, rule_conditions: rule, rule_effects: [{ type: 'direct_value', value: 1, distribution: 'total_cart' }] },
    }),
  ),
);

describe('evaluateCart agrees with json-rules-engine running program.toJSON()', () => {
  it('on which campaigns apply, in evaluation order', async () => {
    await fc.assert(
      fc.asyncProperty(arbCampaigns, arbCart, arbContext, async (campaigns, cart, context) => {
        const program = compileCampaigns(campaigns, SETTINGS);
        const applied = evaluateCart(program, { ...cart, cashback_score_desired: undefined }, context).response.effects.map((e) => String(e.rule_id));
        const rules = program.toJSON().rules.map((rule) => ({ id: rule.name, rule: { json: rule.conditions } as unknown as CompiledRule }));
        const input = readCart(cart, SETTINGS.currency);
        const ctx = readContext(context);
        const facts = buildFacts(input, ctx, zonedDate(input.createdAt, program.settings.formatter));
        expect(applied).toEqual(await referenceEngine(rules).matching(facts));
      }),
      { numRuns: 400, seed: 41 },
    );
  });
});
