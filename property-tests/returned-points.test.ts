/**
 * Returns of a ticket and its cancellation, in the wallet's bookkeeping (server/src/points/wallet.ts):
 * whatever the customer spends in between and however the returns split the ticket, the returns and the
 * cancellation together take back exactly what the ticket granted and give back exactly what it spent,
 * and the balance is always the sum of the movements.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { balanceOf, giveBack, grant, reverse, slicePoints, spend, takeBack, type Movement, type Wallet } from '../server/src/points/wallet.js';

const TODAY = '2026-11-20';
const campaign = (i: number) => ({ campaign_id: String(i), campaign_name: null });

const scenario = fc.record({
  earlier: fc.array(fc.integer({ min: 1, max: 500 }), { maxLength: 3 }),
  granted: fc.array(fc.record({ points: fc.integer({ min: 1, max: 300 }), to: fc.constantFrom(null, '2026-12-31', '2027-06-30') }), { minLength: 1, maxLength: 3 }),
  spentByTicket: fc.integer({ min: 0, max: 200 }),
  // What the returns take back and give back, as cumulative fractions of the ticket (the server's shares).
  returns: fc.array(fc.record({ share: fc.integer({ min: 0, max: 100 }), spendBefore: fc.integer({ min: 0, max: 300 }) }), { maxLength: 4 }),
});

describe('returned points', () => {
  it('returns plus the cancellation move exactly what the ticket moved; the balance is the sum of the movements', () => {
    fc.assert(
      fc.property(scenario, ({ earlier, granted, spentByTicket: wanted, returns }) => {
        const wallet: Wallet = { buckets: [], debt: 0 };
        let total = 0;
        const apply = (m: Movement) => {
          total += m.amount;
          expect(balanceOf(wallet).score_available + 0).toBe(total + 0);
        };
        earlier.forEach((points, i) => apply(grant(wallet, [{ tx: `e${i}`, ...campaign(9), amount: points, from: TODAY, to: null }], TODAY)));
        const grants = granted.map((g, i) => ({ tx: 't', ...campaign(i), amount: g.points, from: TODAY, to: g.to }));
        const ticketGrant = grant(wallet, grants, TODAY);
        // A cart spends only available points (the realtime re-check).
        const spentByTicket = Math.min(wanted, balanceOf(wallet).score_available);
        const ticketSpend = spend(wallet, spentByTicket);
        apply({ ...ticketGrant, amount: ticketGrant.amount + ticketSpend.movement.amount });
        const earned = granted.reduce((sum, g) => sum + g.points, 0);

        let takenBack = 0;
        let givenBack = 0;
        let shareSoFar = 0;
        returns.forEach((ret, i) => {
          apply(spend(wallet, ret.spendBefore).movement);
          shareSoFar = Math.max(shareSoFar, ret.share);
          const take = Math.floor((earned * shareSoFar) / 100) - takenBack;
          const give = Math.floor((spentByTicket * shareSoFar) / 100) - givenBack;
          apply(takeBack(wallet, 't', take, TODAY).movement);
          apply(giveBack(wallet, slicePoints(ticketSpend.taken, givenBack, give), `r${i}`, TODAY));
          takenBack += take;
          givenBack += give;
        });
        const before = total;
        const cancelled = reverse(wallet, { tx: 't', granted: ticketGrant.scores, taken: ticketSpend.taken }, 'c', TODAY, () => 0, { taken_back: takenBack, given_back: givenBack });
        apply(cancelled);
        // Nothing expired: returns and cancellation took back all the ticket earned and gave back all it spent.
        expect(before - total + takenBack - givenBack).toBe(earned - spentByTicket);
        expect(cancelled.amount + 0).toBe(-(earned - takenBack) + (spentByTicket - givenBack) + 0);
      }),
      { seed: 20261126, numRuns: 300 },
    );
  });

  it('slices of what a ticket spent, taken one after another, add up to it and never overlap', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 50 }), { minLength: 1, maxLength: 4 }), fc.array(fc.nat(60), { maxLength: 5 }), (scores, cuts) => {
        const lines = scores.map((score, i) => ({ loyalty_score_name: null, loyalty_score_id: String(i), score, available_from: TODAY, available_to: null }));
        const all = scores.reduce((a, b) => a + b, 0);
        let skip = 0;
        const perCampaign = new Map<string | null, number>();
        for (const take of [...cuts, Infinity]) {
          for (const line of slicePoints(lines, skip, take)) perCampaign.set(line.loyalty_score_id, (perCampaign.get(line.loyalty_score_id) ?? 0) + line.score);
          skip += Math.min(take, Math.max(0, all - skip));
        }
        expect(lines.map((line) => perCampaign.get(line.loyalty_score_id) ?? 0)).toEqual(scores);
      }),
      { seed: 20261126, numRuns: 300 },
    );
  });
});
