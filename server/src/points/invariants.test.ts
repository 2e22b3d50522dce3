import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { startServer, type TestServer } from '../testing/server.js';
import { balance, createCustomer, expectLedgerAddsUp, transactions, triggerCampaign, utcDate } from './testing.js';

const CUSTOMERS = [90, 91, 92];

/** One step of a random history: a grant of a campaign, a subtraction or a transfer. */
const step = fc.oneof(
  fc.record({ op: fc.constant('grant' as const), campaign: fc.nat(5), customer: fc.constantFrom(...CUSTOMERS) }),
  fc.record({ op: fc.constant('redeem' as const), amount: fc.integer({ min: 1, max: 80 }), customer: fc.constantFrom(...CUSTOMERS) }),
  fc.record({ op: fc.constant('transfer' as const), score: fc.integer({ min: 1, max: 80 }), from: fc.constantFrom(...CUSTOMERS), to: fc.constantFrom(...CUSTOMERS), partial: fc.boolean() }),
);

describe('ledger invariants over a random history', () => {
  let server: TestServer;
  const campaigns: number[] = [];
  beforeAll(async () => {
    server = await startServer();
    for (const id of CUSTOMERS) await createCustomer(server.client, id);
    // Points that never expire, that expired yesterday, that expire soon, that are pending, that cannot be transferred.
    const kinds = [
      {}, { expiration_period_type: 'fixed', expiration_date: utcDate(-1) }, { expiration_period_type: 'fixed', expiration_date: utcDate(5) },
      { expiration_period_type: 'fixed', expiration_date: utcDate(50) }, { activation_period_type: 'fixed', activation_date: utcDate(3) }, { transferable: false },
    ];
    for (const [i, params] of kinds.entries()) campaigns.push(await triggerCampaign(server.client, `random-${i}`, 10 + 7 * i, params));
  });
  afterAll(async () => {
    await server.dispose();
  });

  it('every balance is the sum of its transactions, and points are only created by grants and removed by spends and expiries', async () => {
    const history = fc.sample(fc.array(step, { minLength: 60, maxLength: 60 }), { seed: 20261122, numRuns: 1 })[0];
    let granted = 0;
    let subtracted = 0;
    for (const s of history) {
      if (s.op === 'grant') {
        const res = await server.client.post('/trigger', { trigger: `random-${s.campaign}`, customer_id: s.customer, loyalty_rule_id: campaigns[s.campaign] });
        granted += res.body.score;
      } else if (s.op === 'redeem') {
        expect((await server.client.post('/points/redeem', { customer_id: s.customer, amount: s.amount, comments: 'random' })).status).toBe(200);
        subtracted += s.amount;
      } else if (s.from !== s.to) {
        const res = await server.client.post('/points/transfer', { score: s.score, from_customer_id: s.from, to_customer_id: s.to, allow_partial: s.partial });
        expect([200, 402]).toContain(res.status);
      }
    }
    let total = 0;
    let expired = 0;
    for (const id of CUSTOMERS) {
      await expectLedgerAddsUp(server.client, id);
      const b = await balance(server.client, id);
      const txs = await transactions(server.client, id);
      expired += txs.filter((t) => t.type === 'expiration').reduce((sum, t) => sum - t.amount - t.pending_amount, 0);
      total += b.score;
    }
    expect(total).toBe(granted - subtracted - expired);
  });
});
