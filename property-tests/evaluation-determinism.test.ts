/** Same program, cart, context and seed: deeply equal outcome, always; inputs never mutated. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileCampaigns, evaluateCart } from '../engine/src/index.js';
import { arbCampaigns, arbCart, arbContext } from './arbitraries/evaluation.js';

const SETTINGS = { currency: 'EUR', timezone: 'Europe/Madrid' };

describe('evaluation is deterministic and pure', () => {
  it('evaluating twice, even with a fresh program, gives deeply equal outcomes and leaves the inputs intact', () => {
    fc.assert(
      fc.property(arbCampaigns, arbCart, arbContext, (campaigns, cart, context) => {
        const snapshot = JSON.stringify([campaigns, cart, context]);
        const program = compileCampaigns(campaigns, SETTINGS);
        const first = evaluateCart(program, cart, context);
        expect(evaluateCart(program, cart, context)).toEqual(first);
        expect(evaluateCart(compileCampaigns(campaigns, SETTINGS), structuredClone(cart), structuredClone(context))).toEqual(first);
        expect(JSON.stringify([campaigns, cart, context])).toBe(snapshot);
      }),
      { numRuns: 300, seed: 11 },
    );
  });
});
