/**
 * Returns of a ticket and its cancellation, in the wallet's bookkeeping (server/src/points/wallet.ts):
 * whatever the customer spends in between and however the returns split the ticket, the returns and the
 * cancellation together take back exactly what the ticket granted and give back exactly what it spent,
 * the points spent on it with POST /points/redeem_cart included, and the balance is always the sum of the
 * movements.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { balanceOf, giveBack, grant, reverse, slicePoints, spend, spreadReturned, takeBack, type Movement, type Wallet } from '../server/src/points/wallet.js';
import type { ScoreLine } from '../server/src/points/types.js';

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

  it('redeem_cart spends: the returns\' shares of the lines plus the cancellation give back exactly what each spend took, with its dates', () => {
    const redeemScenario = fc.record({
      earlier: fc.array(fc.record({ points: fc.integer({ min: 1, max: 300 }), to: fc.constantFrom(null, '2026-12-31', '2027-06-30') }), { minLength: 1, maxLength: 3 }),
      spends: fc.array(fc.integer({ min: 1, max: 300 }), { minLength: 1, maxLength: 3 }),
      // The ticket's lines paid for: total in cents and units.
      lines: fc.array(fc.record({ cents: fc.integer({ min: 1, max: 100000 }), units: fc.integer({ min: 1, max: 5 }) }), { minLength: 1, maxLength: 3 }),
      returns: fc.array(fc.record({ line: fc.nat(2), units: fc.integer({ min: 1, max: 5 }), spendBefore: fc.integer({ min: 0, max: 300 }) }), { maxLength: 6 }),
    });
    fc.assert(
      fc.property(redeemScenario, ({ earlier, spends, lines, returns }) => {
        const wallet: Wallet = { buckets: [], debt: 0 };
        let total = 0;
        const apply = (m: Movement) => {
          total += m.amount;
          expect(balanceOf(wallet).score_available + 0).toBe(total + 0);
        };
        earlier.forEach((g, i) => apply(grant(wallet, [{ tx: `e${i}`, ...campaign(i), amount: g.points, from: TODAY, to: g.to }], TODAY)));
        // redeem_cart needs the points available: each spend takes at most what is left.
        const taken = spends.map((wanted) => {
          const spent = spend(wallet, Math.min(wanted, balanceOf(wallet).score_available));
          apply(spent.movement);
          return spent.taken;
        });
        const allTaken = taken.flat();
        const redeemed = allTaken.reduce((sum, line) => sum + line.score, 0);
        // Each line's part of the spends, pro rata to its total among the lines, rounded down (carts/returns.ts).
        const allCents = lines.reduce((sum, line) => sum + line.cents, 0);
        const lineShare = lines.map((line) => Math.floor((redeemed * line.cents) / allCents));
        const unitsReturned = lines.map(() => 0);
        const givenOnLine = lines.map(() => 0);
        const back: ScoreLine[] = [];
        let givenBack = 0;
        returns.forEach((ret, i) => {
          apply(spend(wallet, ret.spendBefore).movement);
          const l = ret.line % lines.length;
          unitsReturned[l] = Math.min(lines[l].units, unitsReturned[l] + ret.units);
          const give = Math.max(0, Math.floor((lineShare[l] * unitsReturned[l]) / lines[l].units) - givenOnLine[l]);
          const slice = slicePoints(allTaken, givenBack, give);
          apply(giveBack(wallet, slice, `r${i}`, TODAY));
          back.push(...slice);
          givenOnLine[l] += give;
          givenBack += give;
        });
        expect(givenBack).toBeLessThanOrEqual(redeemed);
        // The cancellation: each spend less its part of what the returns gave back.
        const parts = spreadReturned(taken.map((t) => t.reduce((sum, line) => sum + line.score, 0)), givenBack);
        let cancelledBack = 0;
        taken.forEach((spent, i) => {
          const reversed = reverse(wallet, { tx: `p${i}`, granted: [], taken: spent }, `c${i}`, TODAY, () => 0, { taken_back: 0, given_back: parts[i] });
          apply(reversed);
          cancelledBack += reversed.amount;
          back.push(...reversed.scores);
        });
        expect(givenBack + cancelledBack).toBe(redeemed);
        // Every point comes back with the campaign and dates it was spent with.
        const byDates = (list: readonly ScoreLine[]) => {
          const sums = new Map<string, number>();
          for (const line of list) {
            const key = `${line.loyalty_score_id}/${line.available_from}/${line.available_to}`;
            sums.set(key, (sums.get(key) ?? 0) + line.score);
          }
          return sums;
        };
        expect(byDates(back)).toEqual(byDates(allTaken));
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
