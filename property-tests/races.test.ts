/**
 * The writes that are not carts, fired at one real server IN PARALLEL (bursts of 20 to 60 requests at once, a
 * random mix on the same few customers, fast-check), and the invariants checked afterwards through the API only.
 * counters.test.ts and customer-merges.test.ts check the same rules one request at a time; the carts' own races
 * are carts/concurrency.test.ts. Five bursts:
 * - points: `POST /points/redeem`, `POST /points/redeem_cart` and `POST /points/transfer` (with and without
 *   allow_partial) from the same customers, among realtime carts earning points. Replayed in commit order
 *   (transaction ids are allocated inside the write transaction), no transfer or redeem_cart ever took more than
 *   the customer held (a redeem may leave a debt, a transfer never moves one), one without allow_partial moved all
 *   it asked, and each cart, redeem and redeem_cart answered the customer's points at the balance its own
 *   transaction left (carts answered the balance their evaluation read, the spends one read after their commit,
 *   before fixes: docs/decisions.md); each balance is the sum of its transactions and what the 200s did; each 200
 *   left its transactions, each refusal none.
 * - rewards: redemptions of a reward with a small stock and one redemption per customer, racing the customers'
 *   spends, then rollbacks (some sent twice at once: the copy is answered as the first, common rule 8) racing new
 *   redemptions: never more units handed over than the stock nor more than one per customer; a refusal is
 *   justified by the state it left (409 conflict: the stock is gone or the customer holds one; 402: the points are
 *   not there) and leaves no redemption or transaction; a redemption never spent points the customer did not
 *   hold, and answered the balance its own transaction left (its spend, paired with it in commit order); a
 *   rollback gives the points back once.
 * - vouchers: `POST /discounts/redeem`, `POST /vouchers/redeem` (one code, or both of a list: all or nothing) and
 *   realtime carts listing the code, against vouchers with max_redemptions: never over, `redemptions` equal to the
 *   uses answered, a 402 voucher_redeemed or a cart without the voucher only once it is used up; beside them a
 *   discount with a budget every cart takes, whose static code `POST /discounts/redeem` spends (not refused by
 *   it): the carts never take more than the budget, `budget_spent` is what the answers gave.
 * - triggers and custom events (some sent twice at once: the copy is answered as the first, granting nothing)
 *   against points campaigns with a budget and a once limit, and instant wins (one of carts, one of the trigger)
 *   whose prize is one reward of small stock, also redeemed directly, raced by realtime carts of the same
 *   customers: the grants and the units handed over, by three paths on two kinds of threads, are exactly what the
 *   limits allow (order does not change the totals), `budget_spent`, the stocks and the ledger equal the answers;
 *   each trigger, event and redemption that wrote a transaction answered its customer at the balance its own
 *   transaction left (replayed in commit order).
 * - a merge (`POST /customers/transfer`, or transfer-new completing during the burst) racing carts, triggers,
 *   spends, transfers, reward redemptions and rollbacks of both customers and a third, and uses of the old
 *   customer's voucher: afterwards the old customer is merged and holds nothing, every cart and redemption of
 *   either customer is the receiver's (carts naming the old one with it as associate), so is the voucher, used as
 *   answered, every 200 left its transactions once and every refusal none, each balance is the sum of its
 *   transactions and the three customers' points are those given minus those spent.
 * Every answer is a 200 or a 4xx `{error, code}` with one of the contract's codes for that race: never a 5xx,
 * never a hang. FUZZ_SEED and FUZZ_RUNS explore further by hand (fast-check prints the seed of a failure).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { balance, createCustomer, grant, triggerCampaign } from '../server/src/points/testing.js';
import { createReward, LOCATION } from '../server/src/rewards/testing.js';
import { cartBody } from '../server/src/testing/carts.js';
import { everyPage } from '../server/src/testing/pages.js';
import { startServer, type Client, type TestResponse, type TestServer } from '../server/src/testing/server.js';

// Fixed, so CI is repeatable; each burst kind runs RUNS bursts.
const SEED = Number(process.env.FUZZ_SEED ?? 20261130);
const RUNS = Number(process.env.FUZZ_RUNS ?? 5);
/** A burst that has not been answered by then hangs. */
const HANG_MS = 20_000;
/** transfer-new completes this long after its answer: during the rest of the burst. */
const MERGE_DELAY_MS = 30;
/** Points every realtime cart with a customer earns (a campaign of the whole file). */
const CART_POINTS = 5;
const GIFT = 'gift';

interface Tx {
  id: number | bigint;
  type: string;
  amount: number;
  pending_amount: number;
  customer_id: number;
  /** `activity`: the cart whose transaction it is. */
  origin_info: { comments?: string | null; activity?: { id: number } };
}

/** Each answer is a 200 or one of the refusals allowed (`402 customer_inactive`), a 4xx `{error, code}`: never a 5xx. */
function expectOneOf(res: TestResponse, allowed: readonly string[], what: string): void {
  if (res.status !== 200) expect(Object.keys(res.body ?? {}).sort(), `${what}: ${res.text}`).toEqual(['code', 'error']);
  expect(allowed, `${what}: ${res.status} ${res.text}`).toContain(res.status === 200 ? '200' : `${res.status} ${res.body.code}`);
}

/** Sends every request at once; fails when the burst is not answered within HANG_MS. */
async function burst(requests: (() => Promise<TestResponse>)[]): Promise<TestResponse[]> {
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`a burst of ${requests.length} requests was not answered within ${HANG_MS} ms`)), HANG_MS);
  });
  try {
    return await Promise.race([Promise.all(requests.map((send) => send())), hang]);
  } finally {
    clearTimeout(timer);
  }
}

async function ok(res: Promise<TestResponse>): Promise<any> {
  const r = await res;
  expect(r.status, r.text).toBe(200);
  return r.body;
}

/** A customer's points transactions, every page, in id order. */
const ledger = (client: Client, customerId: number): Promise<Tx[]> => everyPage(client, '/points/transactions', { customer_id: String(customerId) });

/** The customer's transactions, checked to add up to its balance. */
async function settledLedger(client: Client, customerId: number, what: string): Promise<{ txs: Tx[]; score: number }> {
  const txs = await ledger(client, customerId);
  const b = await balance(client, customerId);
  expect(b.score_available, `${what}: customer ${customerId}'s available points are the sum of its transactions`).toBe(txs.reduce((s, t) => s + t.amount, 0));
  expect(b.score, `${what}: customer ${customerId}'s balance is the sum of its transactions`).toBe(txs.reduce((s, t) => s + t.amount + t.pending_amount, 0));
  return { txs, score: b.score };
}

/** The transactions a request left, found by the unique comment it sent. */
const traces = (txs: Tx[], comment: string) => txs.filter((t) => t.origin_info?.comments === comment);

/** A customer's points as the answers of writes give them (their customer block; a spend's answer also at its top). */
interface Points {
  score: number;
  score_available: number;
}

/**
 * Replays the customers' transactions in commit order (ids are allocated inside the write transaction) and returns,
 * for each transaction, the customer's balance before it (`held`: what a transfer or a reward could take then) and
 * its points right after it (`after`: what the write that committed it answers).
 */
function replay(ledgers: Map<number, Tx[]>): Map<Tx, { held: number; after: Points }> {
  const all = [...ledgers.values()].flat().sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1));
  const running = new Map<number, Points>();
  const replayed = new Map<Tx, { held: number; after: Points }>();
  for (const tx of all) {
    const was = running.get(tx.customer_id) ?? { score: 0, score_available: 0 };
    const after = { score: was.score + tx.amount + tx.pending_amount, score_available: was.score_available + tx.amount };
    replayed.set(tx, { held: was.score, after });
    running.set(tx.customer_id, after);
  }
  return replayed;
}

/**
 * A write answers the balance its own transaction left, not one read after its commit, which may count the writes of
 * the same group commit or committed since (docs/decisions.md, "The customer summary is the balance after the cart's
 * transaction").
 */
function expectAnsweredAfter(answered: Points, tx: Tx, replayed: Map<Tx, { after: Points }>, what: string): void {
  expect({ score: answered.score, score_available: answered.score_available }, `${what}: the balance its transaction left`).toEqual(replayed.get(tx)!.after);
}

/** Points granted from `campaign` in a trigger's or a custom event's answer. */
const grantedBy = (res: TestResponse, campaign: number) =>
  (res.body.scores as { loyalty_score_id: number; score: number }[]).filter((s) => Number(s.loyalty_score_id) === campaign).reduce((n, s) => n + s.score, 0);

/** Whether an answer won the instant win's prize (an instant_win effect with prize data). */
const won = (res: TestResponse, instantWin: number) =>
  (res.body.effects as { rule_id: number; prize_name?: string }[]).some((e) => Number(e.rule_id) === instantWin && e.prize_name !== undefined);

describe('races: the writes that are not carts, in parallel', () => {
  let server: TestServer;
  let giftCampaign: number;
  /** Customer, cart and comment ids, fresh for every burst. */
  let next = 1000;
  const fresh = () => next++;
  const client = () => server.client;

  async function customers(n: number, points: number[] = []): Promise<number[]> {
    const ids = Array.from({ length: n }, fresh);
    for (const [i, id] of ids.entries()) {
      await createCustomer(client(), id);
      if ((points[i] ?? 0) > 0) await grant(client(), GIFT, id, giftCampaign, { score_overwrite: points[i] });
    }
    return ids;
  }

  const cart = (customerId: number, fields: Record<string, unknown> = {}) => () =>
    client().post('/carts/realtime', cartBody(2, { id: fresh(), customer_id: customerId, ...fields }));

  beforeAll(async () => {
    server = await startServer({ env: { TALLY_MERGE_DELAY_MS: String(MERGE_DELAY_MS), POINTS_SETTLEMENT_INTERVAL_MS: '0', WORKERS: '1', REALTIME_WORKERS: '2' } });
    await ok(client().post('/locations', LOCATION));
    giftCampaign = await triggerCampaign(client(), GIFT, 1);
    await ok(client().post('/points', { rule_params: { name: 'Cart points', rule_effects: [{ type: 'direct_value', value: CART_POINTS, distribution: 'total_cart' }] } }));
  });
  afterAll(() => server?.dispose());

  const c3 = fc.nat(2);
  type PointsCommand =
    /** `POST /points/redeem` (a subtraction: may leave a debt) or `POST /points/redeem_cart` (a payment: only points held). */
    | { kind: 'redeem'; c: number; amount: number }
    | { kind: 'redeemCart'; c: number; amount: number }
    | { kind: 'transfer'; from: number; to: number; score: number; partial: boolean }
    | { kind: 'cart'; c: number };
  const pointsCommand: fc.Arbitrary<PointsCommand> = fc.oneof(
    { weight: 3, arbitrary: fc.record({ kind: fc.constantFrom('redeem' as const, 'redeemCart' as const), c: c3, amount: fc.integer({ min: 1, max: 40 }) }) },
    {
      weight: 5,
      arbitrary: fc.record({ kind: fc.constant('transfer' as const), from: c3, to: fc.nat(1), score: fc.integer({ min: 1, max: 40 }), partial: fc.boolean() })
        .map((t) => ({ ...t, to: (t.from + 1 + t.to) % 3 })),
    },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('cart' as const), c: c3 }) },
  );

  it('points: parallel spends and transfers never move points a customer does not hold, and the ledger is what the 200s did', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.nat(60), { minLength: 3, maxLength: 3 }), fc.array(pointsCommand, { minLength: 20, maxLength: 60 }), async (initial, commands) => {
        const ids = await customers(3, initial);
        // The cart each customer's redeem_cart pays for.
        const paid: number[] = [];
        for (const id of ids) paid.push(Number((await ok(cart(id)())).id));
        const comments = commands.map(() => `race ${fresh()}`);
        const answers = await burst(commands.map((cmd, i) => {
          if (cmd.kind === 'redeem') return () => client().post('/points/redeem', { customer_id: ids[cmd.c], amount: cmd.amount, comments: comments[i] });
          if (cmd.kind === 'redeemCart') return () => client().post('/points/redeem_cart', { customer_id: ids[cmd.c], activity_id: paid[cmd.c], amount: cmd.amount, comments: comments[i] });
          if (cmd.kind === 'cart') return cart(ids[cmd.c]);
          return () => client().post('/points/transfer', { from_customer_id: ids[cmd.from], to_customer_id: ids[cmd.to], score: cmd.score, allow_partial: cmd.partial, comments: comments[i] });
        }));
        const expected = initial.map((p) => p + CART_POINTS);
        for (const [i, cmd] of commands.entries()) {
          const res = answers[i];
          const what = `${JSON.stringify(cmd)} (#${i})`;
          expectOneOf(res, cmd.kind === 'transfer' || cmd.kind === 'redeemCart' ? ['200', '402 customer_not_enough_score'] : ['200'], what);
          if (res.status !== 200) continue;
          if (cmd.kind === 'redeem' || cmd.kind === 'redeemCart') expected[cmd.c] -= cmd.amount;
          if (cmd.kind === 'cart') expected[cmd.c] += CART_POINTS;
          if (cmd.kind !== 'transfer') continue;
          const moved = res.body.score as number;
          if (cmd.partial) expect(moved, what).toBeGreaterThan(0);
          expect(moved, what).toBeLessThanOrEqual(cmd.score);
          if (!cmd.partial) expect(moved, what).toBe(cmd.score);
          expected[cmd.from] -= moved;
          expected[cmd.to] += moved;
        }
        const ledgers = new Map<number, Tx[]>();
        for (const [c, id] of ids.entries()) {
          const { txs, score } = await settledLedger(client(), id, 'after the burst');
          expect(score, `customer ${id}'s balance is what the 200s did`).toBe(expected[c]);
          ledgers.set(id, txs);
        }
        const replayed = replay(ledgers);
        const all = [...ledgers.values()].flat();
        for (const [i, cmd] of commands.entries()) {
          if (cmd.kind === 'cart') {
            // A till prints the summary: the balance its own transaction left, not the one its evaluation read.
            const tx = all.find((t) => t.type === 'activity' && Number(t.origin_info.activity?.id) === Number(answers[i].body.id))!;
            expectAnsweredAfter(answers[i].body.customer[0], tx, replayed, `cart #${i}: its customer summary`);
            continue;
          }
          const res = answers[i];
          const what = `${JSON.stringify(cmd)} (#${i}, ${res.status})`;
          const left = traces(all, comments[i]);
          if (res.status !== 200) {
            expect(left, `${what}: a refusal leaves no transaction`).toEqual([]);
            continue;
          }
          if (cmd.kind === 'redeem') {
            expect(left.map((t) => [t.customer_id, t.type, t.amount]), what).toEqual([[ids[cmd.c], 'subtract', -cmd.amount]]);
            expectAnsweredAfter(res.body.customer, left[0], replayed, `${what}: its customer`);
            expectAnsweredAfter(res.body, left[0], replayed, what);
            continue;
          }
          if (cmd.kind === 'redeemCart') {
            expect(left.map((t) => [t.customer_id, t.type, t.amount]), what).toEqual([[ids[cmd.c], 'activity', -cmd.amount]]);
            const { held } = replayed.get(left[0])!;
            expect(held, `${what}: the customer held ${held} when it committed`).toBeGreaterThanOrEqual(cmd.amount);
            expectAnsweredAfter(res.body.customer, left[0], replayed, `${what}: its customer`);
            expectAnsweredAfter(res.body, left[0], replayed, what);
            continue;
          }
          const moved = res.body.score as number;
          expect(left.map((t) => [t.customer_id, t.type, t.amount]).sort(), what).toEqual([[ids[cmd.from], 'transfer', -moved], [ids[cmd.to], 'transfer', moved]].sort());
          const out = left.find((t) => t.amount < 0)!;
          const { held } = replayed.get(out)!;
          expect(held, `${what}: the sender held ${held} when it committed`).toBeGreaterThanOrEqual(moved);
          // allow_partial moves all the sender holds when it holds less than asked.
          if (moved < cmd.score) expect(held, `${what}: a partial transfer moves all the sender holds`).toBe(moved);
        }
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
  }, 120_000);

  const REWARD_STOCK = 4;
  const REWARD_POINTS = 10;
  const REWARD_CUSTOMERS = 6;
  type RewardCommand = { kind: 'redeem'; c: number } | { kind: 'spend'; c: number; amount: number } | { kind: 'rollback'; pick: number; twice: boolean };
  const rc = fc.nat(REWARD_CUSTOMERS - 1);
  const redeemOrSpend: fc.Arbitrary<RewardCommand>[] = [
    fc.record({ kind: fc.constant('redeem' as const), c: rc }),
    fc.record({ kind: fc.constant('spend' as const), c: rc, amount: fc.integer({ min: 1, max: 15 }) }),
  ];

  it('rewards: parallel redemptions and rollbacks never hand over more than the stock, nor more than one a customer, and refusals leave no trace', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.nat(35), { minLength: REWARD_CUSTOMERS, maxLength: REWARD_CUSTOMERS }),
        fc.array(fc.oneof({ weight: 3, arbitrary: redeemOrSpend[0] }, { weight: 1, arbitrary: redeemOrSpend[1] }), { minLength: 20, maxLength: 40 }),
        fc.array(fc.oneof(
          { weight: 2, arbitrary: redeemOrSpend[0] },
          { weight: 1, arbitrary: redeemOrSpend[1] },
          { weight: 2, arbitrary: fc.record({ kind: fc.constant('rollback' as const), pick: fc.nat(10), twice: fc.boolean() }) },
        ), { minLength: 20, maxLength: 40 }),
        async (initial, first, second) => {
          const ids = await customers(REWARD_CUSTOMERS, initial);
          const reward = await createReward(client(), { name: `Mug ${fresh()}`, points: REWARD_POINTS, total_stock: REWARD_STOCK, redeem_times: 1, redeem_chances: 'always' });
          const spent = ids.map(() => 0);
          /** Redemption id -> customer index, of every 200. */
          const redeemed = new Map<number, number>();
          /** Redemption id -> its 200's answer. */
          const answeredFor = new Map<number, { customer: Points } & Points>();
          const redemptions = async () => {
            const held = new Map<number, string>();
            for (const id of ids) {
              for (const r of await everyPage(client(), '/rewards/transactions', { customer_id: String(id) })) if (Number(r.reward_id) === reward) held.set(Number(r.id), r.status);
            }
            return held;
          };

          const run = async (phase: string, commands: RewardCommand[]) => {
            const picked = [...redeemed.keys()];
            const sent: { cmd: RewardCommand; target?: number; send: () => Promise<TestResponse> }[] = [];
            for (const cmd of commands) {
              if (cmd.kind === 'redeem') sent.push({ cmd, send: () => client().post(`/rewards/${reward}/redeem`, { location_id: LOCATION.id, customer_id: ids[cmd.c] }) });
              if (cmd.kind === 'spend') sent.push({ cmd, send: () => client().post('/points/redeem', { customer_id: ids[cmd.c], amount: cmd.amount, comments: 'race' }) });
              if (cmd.kind !== 'rollback' || picked.length === 0) continue;
              const target = picked[cmd.pick % picked.length];
              const rollback = () => client().post(`/rewards/transactions/${target}/rollback`, { status_detail: 'returned' });
              sent.push({ cmd, target, send: rollback });
              if (cmd.twice) sent.push({ cmd, target, send: rollback });
            }
            const answers = await burst(sent.map((s) => s.send));
            for (const [i, { cmd, target }] of sent.entries()) {
              const res = answers[i];
              const what = `${phase}: ${JSON.stringify(cmd)} (#${i})`;
              if (cmd.kind === 'spend') {
                expectOneOf(res, ['200'], what);
                spent[cmd.c] += cmd.amount;
              } else if (cmd.kind === 'rollback') {
                // The same rollback sent twice, at once or not: the later one waits for the first and is answered as it
                // (common rule 8), nothing done again.
                expectOneOf(res, ['200'], what);
                expect(res.text, `${what}: answered as the first rollback of it`).toBe(answers[sent.findIndex((x) => x.target === target)].text);
              } else {
                expectOneOf(res, ['200', '409 conflict', '402 customer_not_enough_score'], what);
                if (res.status !== 200) continue;
                const id = Number(res.body.redemption_id);
                expect(redeemed.has(id), `${what}: a new redemption`).toBe(false);
                redeemed.set(id, cmd.c);
                answeredFor.set(id, res.body);
              }
            }
            const after = await redemptions();
            const available = [...after].filter(([, status]) => status === 'available').map(([id]) => id);
            const holders = new Set(available.map((id) => redeemed.get(id)));
            const points = await Promise.all(ids.map((id) => balance(client(), id)));
            for (const [i, { cmd, target }] of sent.entries()) {
              const res = answers[i];
              const what = `${phase}: ${JSON.stringify(cmd)} (#${i})`;
              if (cmd.kind === 'rollback') expect(after.get(target!), `${what}: the redemption rolled back`).toBe('reverted');
              // Refusals are justified by the state they left; only in the first burst, where stock and points only go down.
              if (cmd.kind !== 'redeem' || res.status === 200 || phase !== 'redemptions') continue;
              if (res.body.code === 'conflict') expect(holders.has(cmd.c) || available.length === REWARD_STOCK, `${what}: refused with stock left, holding none`).toBe(true);
              else expect(points[cmd.c].score_available, `${what}: refused holding enough points`).toBeLessThan(REWARD_POINTS);
            }
            // Exactly the 200s are listed: a refusal left no redemption.
            expect([...after.keys()].sort(), `${phase}: the redemptions listed are the 200s`).toEqual([...redeemed.keys()].sort());
            expect(available.length, `${phase}: units held`).toBeLessThanOrEqual(REWARD_STOCK);
            expect(holders.size, `${phase}: at most one held a customer`).toBe(available.length);
            const read = await ok(client().get(`/rewards/${reward}`));
            expect([read.available_stock, read.redemptions_quantity], `${phase}: the reward's available_stock and redemptions_quantity`).toEqual([REWARD_STOCK - available.length, available.length]);
            const ledgers = new Map<number, Tx[]>();
            for (const [c, id] of ids.entries()) {
              const { txs, score } = await settledLedger(client(), id, phase);
              ledgers.set(id, txs);
              const held = available.filter((r) => redeemed.get(r) === c).length;
              // A rollback gives the points back once: the balance counts only the redemptions still held.
              expect(score, `${phase}: customer ${id}'s balance`).toBe(initial[c] - spent[c] - REWARD_POINTS * held);
              const mine = [...redeemed].filter(([, holder]) => holder === c).length;
              expect(txs.filter((t) => t.type === 'reward' && t.amount < 0).length, `${phase}: customer ${id}'s reward transactions are its 200s`).toBe(mine);
            }
            // A redemption never takes points the customer does not hold (a spend may leave a debt).
            const replayed = replay(ledgers);
            for (const [tx, { held }] of replayed) if (tx.type === 'reward' && tx.amount < 0) expect(held, `${phase}: a redemption spent ${-tx.amount} of ${held}`).toBeGreaterThanOrEqual(-tx.amount);
            // A customer's redemptions and their spends, both numbered inside the write transaction, pair in commit order.
            for (const [c, id] of ids.entries()) {
              const spends = ledgers.get(id)!.filter((t) => t.type === 'reward' && t.amount < 0);
              const mine = [...redeemed].filter(([, holder]) => holder === c).map(([r]) => r).sort((a, b) => a - b);
              for (const [k, r] of mine.entries()) {
                const what = `${phase}: customer ${id}'s redemption ${r}`;
                expectAnsweredAfter(answeredFor.get(r)!.customer, spends[k], replayed, `${what}: its customer`);
                expectAnsweredAfter(answeredFor.get(r)!, spends[k], replayed, what);
              }
            }
          };
          await run('redemptions', first);
          await run('rollbacks', second);
        },
      ),
      { numRuns: RUNS, seed: SEED + 1, endOnFailure: true },
    );
  }, 120_000);

  const VOUCHER_USES = 3;
  /** A discount of 0.30 a cart (any cart) within 1.00 of budget, whose static code `POST /discounts/redeem` spends 0.20 of. */
  const BUDGET_CENTS = 100;
  const BUDGET_CART_CENTS = 30;
  const STATIC_CENTS = 20;
  type VoucherCommand =
    | { kind: 'discount'; c: number }
    | { kind: 'cart'; c: number }
    | { kind: 'static'; c: number }
    | { kind: 'list'; cs: readonly number[] };
  const vc = fc.nat(1);
  const voucherCommand: fc.Arbitrary<VoucherCommand> = fc.oneof(
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('discount' as const), c: vc }) },
    { weight: 3, arbitrary: fc.record({ kind: fc.constant('cart' as const), c: vc }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('list' as const), cs: fc.constantFrom([0], [1], [0, 1], [1, 0]) }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('static' as const), c: vc }) },
  );

  it('vouchers: discount redemptions, voucher redemptions and carts in parallel never use a voucher beyond max_redemptions, nor carts a budget', async () => {
    const campaign = await ok(client().post('/discounts', {
      rule_params: { name: 'One off', select_customers: 'targeted', rule_effects: [{ type: 'direct_value', value: 1, distribution: 'total' }] },
      coupon_params: { name: 'Three uses', max_redemptions: VOUCHER_USES },
    }));
    await fc.assert(
      fc.asyncProperty(fc.array(voucherCommand, { minLength: 20, maxLength: 60 }), async (commands) => {
        const ids = await customers(2);
        const codes = ids.map((id) => `RACE-${id}`);
        for (const [c, id] of ids.entries()) await ok(client().post('/discounts/trigger', { customer_id: id, loyalty_rule_id: campaign.id, external_voucher_code: codes[c] }));
        const staticCode = `BUDGET-${fresh()}`;
        const budget = (await ok(client().post('/discounts', {
          rule_params: { name: staticCode, budget_value: BUDGET_CENTS / 100, rule_effects: [{ type: 'direct_value', value: BUDGET_CART_CENTS / 100, distribution: 'total' }] },
          coupon_params: { static_code: staticCode },
        }))).id as number;
        const answers = await burst(commands.map((cmd) => {
          if (cmd.kind === 'discount') return () => client().post('/discounts/redeem', { voucher_code: codes[cmd.c], customer_id: ids[cmd.c], cart_id: fresh(), discount: 100 });
          if (cmd.kind === 'static') return () => client().post('/discounts/redeem', { static_code: staticCode, customer_id: ids[cmd.c], cart_id: fresh(), discount: STATIC_CENTS });
          if (cmd.kind === 'cart') return cart(ids[cmd.c], { total: 5, lines: [{ order: 1, product_id: 1, total: 5, quantity: 1 }], coupons_desired: [codes[cmd.c]] });
          const body: Record<string, unknown> = { codes: cmd.cs.map((c) => codes[c]), location_id: LOCATION.id };
          if (cmd.cs.length === 1) body.customer_id = ids[cmd.cs[0]];
          return () => client().post('/vouchers/redeem', body);
        }));
        const uses = [0, 0];
        const discounts = [0, 0];
        /** Per cart, whether it used its voucher and what the budget gave it; the budget spent by the static code. */
        const carts = new Map<number, { voucher: boolean; budget: number }>();
        let budgetSpent = 0;
        for (const [i, cmd] of commands.entries()) {
          const res = answers[i];
          expectOneOf(res, cmd.kind === 'cart' || cmd.kind === 'static' ? ['200'] : ['200', '402 voucher_redeemed'], `${JSON.stringify(cmd)} (#${i})`);
          if (res.status !== 200) continue;
          if (cmd.kind === 'list') for (const c of cmd.cs) uses[c]++;
          if (cmd.kind === 'discount' || cmd.kind === 'static') discounts[cmd.c]++;
          if (cmd.kind === 'discount') uses[cmd.c]++;
          if (cmd.kind === 'static') budgetSpent += STATIC_CENTS;
          if (cmd.kind !== 'cart') continue;
          const effects = res.body.effects as { rule_id: number; value: number; coupon_info?: { voucher_code?: string } }[];
          const used = effects.some((e) => e.coupon_info?.voucher_code === codes[cmd.c]);
          const fromBudget = effects.filter((e) => Number(e.rule_id) === budget).reduce((n, e) => n + e.value, 0);
          expect(fromBudget, `${JSON.stringify(cmd)} (#${i}): the budget's discount`).toBeLessThanOrEqual(BUDGET_CART_CENTS);
          if (used) uses[cmd.c]++;
          budgetSpent += fromBudget;
          carts.set(i, { voucher: used, budget: fromBudget });
        }
        for (const [c, code] of codes.entries()) {
          const voucher = await ok(client().get(`/vouchers/${code}`));
          expect(uses[c], `voucher ${code}: used at most max_redemptions`).toBeLessThanOrEqual(VOUCHER_USES);
          expect({ redemptions: voucher.redemptions, available: voucher.available_redemptions, status: voucher.status }, `voucher ${code}: as the answers used it`)
            .toEqual({ redemptions: uses[c], available: VOUCHER_USES - uses[c], status: uses[c] === VOUCHER_USES ? 'redeemed' : 'active' });
          const listed = await everyPage(client(), '/discounts/transactions', { customer_id: String(ids[c]) });
          expect(listed.length, `customer ${ids[c]}'s discount transactions are its 200s`).toBe(discounts[c]);
        }
        const cartBudget = [...carts.values()].reduce((n, x) => n + x.budget, 0);
        // POST /discounts/redeem is not refused by the budget (docs/campaigns.md); carts never take more than it has left.
        expect(cartBudget, 'the carts\' discounts within the budget').toBeLessThanOrEqual(BUDGET_CENTS);
        const read = await ok(client().get(`/discounts/${budget}`));
        expect(Math.round(read.budget_spent * 100), 'budget_spent is what the answers gave').toBe(budgetSpent);
        // Refused, or a cart without it, only once the voucher is used up, and a cart cut by the budget only once
        // most of it was spent (no rollback here: uses and spend only grow).
        for (const [i, cmd] of commands.entries()) {
          const res = answers[i];
          const what = `${JSON.stringify(cmd)} (#${i})`;
          if (cmd.kind === 'list' && res.status !== 200) expect(cmd.cs.some((c) => uses[c] === VOUCHER_USES), `${what}: refused with uses left`).toBe(true);
          if (cmd.kind === 'discount' && res.status !== 200) expect(uses[cmd.c], `${what}: refused with uses left`).toBe(VOUCHER_USES);
          if (cmd.kind !== 'cart') continue;
          if (!carts.get(i)!.voucher) expect(uses[cmd.c], `${what}: a cart without the voucher while it had uses left`).toBe(VOUCHER_USES);
          if (carts.get(i)!.budget < BUDGET_CART_CENTS) expect(budgetSpent, `${what}: cut by a budget with more than ${BUDGET_CART_CENTS} cents left`).toBeGreaterThan(BUDGET_CENTS - BUDGET_CART_CENTS);
        }
        await ok(client().patch(`/discounts/${budget}`, { rule_params: { active: false } }));
      }),
      { numRuns: RUNS, seed: SEED + 2, endOnFailure: true },
    );
  }, 120_000);

  /** Trigger points: 10 at most twice a customer within 0.25 of budget (at 0.01 a point: 10, 10, then 5). */
  const TRIGGER_POINTS = 10;
  const TRIGGER_LIMIT = 2;
  const TRIGGER_BUDGET = 25;
  /** Custom event points: 10 once a customer within 0.15. */
  const EVENT_POINTS = 10;
  const EVENT_BUDGET = 15;
  /** The prize of both instant wins: a reward of this stock, one a customer. */
  const PRIZE_UNITS = 2;
  const PRIZE_STOCK = 3;
  /** The points each customer starts with: enough to buy the prize reward directly. */
  const PRIZE_POINTS = 50;
  type EventCommand = { kind: 'trigger' | 'cart' | 'reward'; c: number } | { kind: 'event'; c: number; twice: boolean };
  const eventCommand: fc.Arbitrary<EventCommand> = fc.oneof(
    { weight: 3, arbitrary: fc.record({ kind: fc.constantFrom('trigger' as const, 'cart' as const), c: c3 }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('event' as const), c: c3, twice: fc.boolean() }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('reward' as const), c: c3 }) },
  );

  it('triggers, custom events and reward redemptions racing carts of the same customers grant exactly what budgets, once limits and stocks allow', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(eventCommand, { minLength: 20, maxLength: 50 }), async (commands) => {
        const n = fresh();
        const ids = await customers(3, [PRIZE_POINTS, PRIZE_POINTS, PRIZE_POINTS]);
        const slug = `visit${n}`;
        const triggerPoints = await triggerCampaign(client(), slug, TRIGGER_POINTS, { once: 'always', once_limit: TRIGGER_LIMIT, budget_value: TRIGGER_BUDGET / 100 });
        const definition = await ok(client().post('/custom_event_definitions', { slug: `event${n}`, schema: { type: 'object' } }));
        const eventPoints = (await ok(client().post('/points', {
          rule_params: { name: `Event ${n}`, custom_entity_definition_id: definition.id, once: 'always', once_limit: 1, budget_value: EVENT_BUDGET / 100, rule_effects: [{ type: 'direct_value', value: EVENT_POINTS, distribution: 'total' }] },
        }))).id as number;
        // Won as a prize at no cost, bought for PRIZE_POINTS: one a customer, PRIZE_UNITS in all, whichever thread hands it over.
        const reward = await createReward(client(), { name: `Prize ${n}`, points: PRIZE_POINTS, total_stock: PRIZE_UNITS, redeem_times: 1, redeem_chances: 'always' });
        const prize = { instant_win_prizes: [{ name: `Prize ${n}`, outcome: { promotion_type: 'reward', promotion_id: reward }, weight: 1, stock: PRIZE_STOCK }] };
        const cartWin = (await ok(client().post('/instant_wins', { rule_params: { name: `Scratch ${n}`, select_customers: 'loyalty' }, instant_win: prize }))).id as number;
        const triggerWin = (await ok(client().post('/instant_wins', { rule_params: { name: `Spin ${n}`, select_customers: 'loyalty', when: slug }, instant_win: prize }))).id as number;

        // An event sent twice at once: the second is the first's duplicate (common rule 8), answered as it, granting nothing.
        const sent: { cmd: EventCommand; copy: boolean; comments?: string; send: () => Promise<TestResponse> }[] = [];
        for (const cmd of commands) {
          const comments = `race ${fresh()}`;
          if (cmd.kind === 'trigger') sent.push({ cmd, copy: false, comments, send: () => client().post('/trigger', { trigger: slug, customer_id: ids[cmd.c], comments }) });
          if (cmd.kind === 'cart') sent.push({ cmd, copy: false, send: cart(ids[cmd.c]) });
          if (cmd.kind === 'reward') sent.push({ cmd, copy: false, send: () => client().post(`/rewards/${reward}/redeem`, { location_id: LOCATION.id, customer_id: ids[cmd.c] }) });
          if (cmd.kind !== 'event') continue;
          const body = { slug: `event${n}`, customer_id: ids[cmd.c], data: { n: fresh() } };
          sent.push({ cmd, copy: false, send: () => client().post('/custom_events', body) });
          if (cmd.twice) sent.push({ cmd, copy: true, send: () => client().post('/custom_events', body) });
        }
        const answers = await burst(sent.map((s) => s.send));
        const points = [...ids.map(() => PRIZE_POINTS)];
        const grants = { trigger: ids.map(() => 0), event: ids.map(() => 0) };
        const units = { cart: 0, trigger: 0, bought: 0, of: ids.map(() => 0) };
        let triggerTotal = 0;
        let eventTotal = 0;
        for (const [i, { cmd, copy }] of sent.entries()) {
          const res = answers[i];
          const what = `${JSON.stringify(cmd)} (#${i})`;
          expectOneOf(res, cmd.kind === 'reward' ? ['200', '409 conflict'] : ['200'], what);
          if (copy) {
            expect(res.text, `${what}: the copy answered as the first`).toBe(answers[i - 1].text);
            continue;
          }
          if (cmd.kind === 'reward') {
            if (res.status === 200) points[cmd.c] -= PRIZE_POINTS, units.bought++, units.of[cmd.c]++;
            continue;
          }
          points[cmd.c] += res.body.score;
          if (cmd.kind === 'cart') {
            if (won(res, cartWin)) units.cart++, units.of[cmd.c]++;
            continue;
          }
          const fromTrigger = grantedBy(res, triggerPoints);
          const fromEvent = grantedBy(res, eventPoints);
          if (fromTrigger > 0) grants.trigger[cmd.c]++;
          if (fromEvent > 0) grants.event[cmd.c]++;
          triggerTotal += fromTrigger;
          eventTotal += fromEvent;
          if (cmd.kind === 'trigger' && won(res, triggerWin)) units.trigger++, units.of[cmd.c]++;
        }
        const count = (kinds: EventCommand['kind'][], c: number) => commands.filter((x) => kinds.includes(x.kind) && x.c === c).length;
        // The totals do not depend on the order: each grant takes min(its points, what is left), once a customer's limit allows.
        expect(triggerTotal, 'the trigger campaign granted').toBe(Math.min(TRIGGER_BUDGET, TRIGGER_POINTS * ids.reduce((s, _, c) => s + Math.min(TRIGGER_LIMIT, count(['trigger'], c)), 0)));
        expect(eventTotal, 'the event campaign granted').toBe(Math.min(EVENT_BUDGET, EVENT_POINTS * ids.filter((_, c) => count(['event'], c) > 0).length));
        for (const c of ids.keys()) {
          expect(grants.trigger[c], `customer ${ids[c]}'s trigger grants`).toBeLessThanOrEqual(TRIGGER_LIMIT);
          expect(grants.event[c], `customer ${ids[c]}'s event grants`).toBeLessThanOrEqual(1);
          expect(units.of[c], `customer ${ids[c]}'s units of the reward`).toBeLessThanOrEqual(1);
        }
        expect(Math.round((await ok(client().get(`/points/${triggerPoints}`))).budget_spent * 100), 'the trigger campaign\'s budget_spent').toBe(triggerTotal);
        expect(Math.round((await ok(client().get(`/points/${eventPoints}`))).budget_spent * 100), 'the event campaign\'s budget_spent').toBe(eventTotal);
        // Each customer who draws or buys gets a unit while one is left (its points cover the price; it holds none yet).
        const handed = units.cart + units.trigger + units.bought;
        const tried = ids.filter((_, c) => count(['cart', 'trigger', 'reward'], c) > 0).length;
        expect(handed, 'units of the reward handed over').toBe(Math.min(PRIZE_UNITS, tried));
        for (const [i, { cmd }] of sent.entries()) {
          if (cmd.kind === 'reward' && answers[i].status !== 200) expect(units.of[cmd.c] === 1 || handed === PRIZE_UNITS, `${JSON.stringify(cmd)} (#${i}): refused with stock left, holding none`).toBe(true);
        }
        const read = await ok(client().get(`/rewards/${reward}`));
        expect([read.available_stock, read.redemptions_quantity], 'the reward\'s stock').toEqual([PRIZE_UNITS - handed, handed]);
        expect((await ok(client().get(`/instant_wins/${cartWin}`))).instant_win.instant_win_prizes[0].available_stock, 'the cart instant win\'s stock').toBe(PRIZE_STOCK - units.cart);
        expect((await ok(client().get(`/instant_wins/${triggerWin}`))).instant_win.instant_win_prizes[0].available_stock, 'the trigger instant win\'s stock').toBe(PRIZE_STOCK - units.trigger);
        const ledgers = new Map<number, Tx[]>();
        for (const [c, id] of ids.entries()) {
          const { txs, score } = await settledLedger(client(), id, 'after the burst');
          expect(score, `customer ${id}'s balance is what the answers granted and spent`).toBe(points[c]);
          ledgers.set(id, txs);
        }
        // Each answer is the balance its own transaction left, placed by the last transaction it wrote: a trigger's carry
        // its comments (its prize's too), a customer's one granting event (once_limit 1) and its one redemption
        // (redeem_times 1) are told by their type. A trigger or event that wrote none has no place to check.
        const replayed = replay(ledgers);
        for (const [i, { cmd, copy, comments }] of sent.entries()) {
          const res = answers[i];
          if (copy || res.status !== 200 || cmd.kind === 'cart') continue;
          const txs = ledgers.get(ids[cmd.c])!;
          const own = cmd.kind === 'trigger' ? txs.filter((t) => t.origin_info.comments === comments).at(-1)
            : cmd.kind === 'reward' ? txs.find((t) => t.type === 'reward' && t.amount < 0)
              : res.body.score > 0 ? txs.find((t) => t.type === 'custom_entity') : undefined;
          if (own === undefined) continue;
          const what = `${JSON.stringify(cmd)} (#${i})`;
          expectAnsweredAfter(res.body.customer, own, replayed, `${what}: its customer`);
          if (cmd.kind === 'reward') expectAnsweredAfter(res.body, own, replayed, what);
        }
        // Off, so that later bursts' carts and triggers meet only their own.
        for (const id of [triggerPoints, eventPoints]) await ok(client().patch(`/points/${id}`, { rule_params: { active: false } }));
        for (const id of [cartWin, triggerWin]) await ok(client().patch(`/instant_wins/${id}`, { rule_params: { active: false } }));
      }),
      { numRuns: RUNS, seed: SEED + 3, endOnFailure: true },
    );
  }, 120_000);

  const byId = { query: { search_param: 'id' } };
  /** What the merge burst's triggers grant (score_overwrite of the gift trigger). */
  const VISIT_POINTS = 7;
  /** The merge burst's reward: this many points, no stock or per-customer limit; each customer holds one redeemed before. */
  const MERGE_REWARD_POINTS = 10;
  type MergeCommand =
    | { kind: 'cart' | 'trigger' | 'reward' | 'rollback'; c: number }
    | { kind: 'redeem'; c: number; amount: number }
    | { kind: 'transfer'; from: number; to: number; score: number; partial: boolean }
    /** The old customer's voucher, in a cart naming it or by `POST /vouchers/redeem` (the code is the credential). */
    | { kind: 'voucherCart' | 'voucherRedeem' };
  const mergeCommand: fc.Arbitrary<MergeCommand> = fc.oneof(
    { weight: 3, arbitrary: fc.record({ kind: fc.constant('cart' as const), c: fc.nat(1) }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constantFrom('trigger' as const, 'reward' as const, 'rollback' as const), c: fc.nat(1) }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('redeem' as const), c: fc.nat(1), amount: fc.integer({ min: 1, max: 30 }) }) },
    { weight: 2, arbitrary: pointsCommand.filter((x): x is Extract<PointsCommand, { kind: 'transfer' }> => x.kind === 'transfer') },
    { weight: 1, arbitrary: fc.record({ kind: fc.constantFrom('voucherCart' as const, 'voucherRedeem' as const) }) },
  );

  it('a merge racing carts, triggers, spends, transfers, rewards and a voucher of both customers loses nothing and counts nothing twice', async () => {
    const campaign = await ok(client().post('/discounts', {
      rule_params: { name: 'Merge voucher', select_customers: 'targeted', rule_effects: [{ type: 'direct_value', value: 1, distribution: 'total' }] },
      coupon_params: { name: 'Merge voucher', max_redemptions: VOUCHER_USES },
    }));
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.nat(60), { minLength: 3, maxLength: 3 }),
        fc.array(mergeCommand, { minLength: 20, maxLength: 50 }),
        fc.nat(50),
        fc.constantFrom('transfer', 'transfer-new'),
        async (initial, commands, at, mode) => {
          // 0 is the old customer, 1 the one it is merged into, 2 a third one. 0 and 1 each redeemed the reward once.
          const ids = await customers(3, initial.map((p, c) => p + (c < 2 ? MERGE_REWARD_POINTS : 0)));
          const [old, into] = ids;
          const reward = await createReward(client(), { name: `Merge ${fresh()}`, points: MERGE_REWARD_POINTS });
          const before: number[] = [];
          for (const id of [old, into]) before.push(Number((await ok(client().post(`/rewards/${reward}/redeem`, { location_id: LOCATION.id, customer_id: id }))).redemption_id));
          const code = `MERGE-${old}`;
          await ok(client().post('/discounts/trigger', { customer_id: old, loyalty_rule_id: campaign.id, external_voucher_code: code }));

          const comments = commands.map(() => `race ${fresh()}`);
          const carts = commands.map(() => fresh());
          const sends = commands.map((cmd, i) => {
            switch (cmd.kind) {
              case 'cart':
                return () => client().post('/carts/realtime', cartBody(2, { id: carts[i], customer_id: ids[cmd.c] }));
              case 'voucherCart':
                return () => client().post('/carts/realtime', cartBody(2, { id: carts[i], customer_id: old, coupons_desired: [code] }));
              case 'voucherRedeem':
                return () => client().post('/vouchers/redeem', { codes: [code], location_id: LOCATION.id });
              case 'trigger':
                return () => client().post('/trigger', { trigger: GIFT, customer_id: ids[cmd.c], loyalty_rule_id: giftCampaign, score_overwrite: VISIT_POINTS });
              case 'reward':
                return () => client().post(`/rewards/${reward}/redeem`, { location_id: LOCATION.id, customer_id: ids[cmd.c] });
              case 'rollback':
                return () => client().post(`/rewards/transactions/${before[cmd.c]}/rollback`, { status_detail: 'returned' });
              case 'redeem':
                return () => client().post('/points/redeem', { customer_id: ids[cmd.c], amount: cmd.amount, comments: comments[i] });
              case 'transfer':
                return () => client().post('/points/transfer', { from_customer_id: ids[cmd.from], to_customer_id: ids[cmd.to], score: cmd.score, allow_partial: cmd.partial, comments: comments[i] });
            }
          });
          const position = at % (commands.length + 1);
          sends.splice(position, 0, () => client().post(`/customers/${mode}`, { old_customer_id: old, new_customer_id: into }));
          const answers = await burst(sends);
          const merge = answers.splice(position, 1)[0];
          expectOneOf(merge, ['200'], `the ${mode}`);
          const deadline = Date.now() + 10_000;
          while ((await ok(client().get(`/customers/${old}`, byId))).status === 'merging') {
            expect(Date.now(), 'still merging after 10 s').toBeLessThan(deadline);
            await new Promise((resolve) => setTimeout(resolve, 20));
          }
          const read = await ok(client().get(`/customers/${old}`, byId));
          expect({ status: read.status, merged_to: read.merged_to }, 'the old customer').toEqual({ status: 'merged', merged_to: into });

          let given = initial.reduce((s, p) => s + p, 0);
          const cartIds: { id: number; named: number }[] = [];
          const redemptions = new Set(before);
          const rolledBack = new Set<number>();
          let voucherUses = 0;
          for (const [i, cmd] of commands.entries()) {
            const res = answers[i];
            const what = `${JSON.stringify(cmd)} (#${i})`;
            // The old customer is refused its points movements once merging (402 customer_inactive); a purchase never is.
            const involvesOld = cmd.kind === 'transfer' ? cmd.from === 0 || cmd.to === 0 : 'c' in cmd && cmd.c === 0;
            const movesPoints = cmd.kind === 'trigger' || cmd.kind === 'reward' || cmd.kind === 'redeem' || cmd.kind === 'transfer';
            const allowed = ['200'];
            if (involvesOld && movesPoints) allowed.push('402 customer_inactive');
            if (cmd.kind === 'transfer' || cmd.kind === 'reward') allowed.push('402 customer_not_enough_score');
            if (cmd.kind === 'voucherRedeem') allowed.push('402 voucher_redeemed');
            expectOneOf(res, allowed, what);
            if (res.status !== 200) continue;
            if (cmd.kind === 'cart' || cmd.kind === 'voucherCart') {
              given += CART_POINTS;
              cartIds.push({ id: carts[i], named: cmd.kind === 'cart' ? ids[cmd.c] : old });
            }
            if (cmd.kind === 'voucherCart' && res.body.effects.some((e: any) => e.coupon_info?.voucher_code === code)) voucherUses++;
            if (cmd.kind === 'voucherRedeem') voucherUses++;
            if (cmd.kind === 'trigger') given += VISIT_POINTS;
            if (cmd.kind === 'redeem') given -= cmd.amount;
            if (cmd.kind === 'reward') given -= MERGE_REWARD_POINTS, redemptions.add(Number(res.body.redemption_id));
            if (cmd.kind === 'rollback') rolledBack.add(before[cmd.c]);
          }
          // A rollback gives the points back once, however many were answered 200.
          given += MERGE_REWARD_POINTS * rolledBack.size;
          const held = await everyPage(client(), '/carts', { customer_id: String(into) });
          const stored = held.map((c) => [Number(c.id), c.associate_id == null ? null : Number(c.associate_id)]);
          expect(stored.sort(), 'every cart of either customer is the receiver\'s, those naming the old one with it as associate')
            .toEqual(cartIds.map((c) => [c.id, c.named === old ? old : null]).sort());
          expect(await everyPage(client(), '/carts', { customer_id: String(old) }), 'the old customer holds no cart').toEqual([]);
          expect(await ledger(client(), old), 'the old customer holds no points transaction').toEqual([]);
          expect((await balance(client(), old)).score, 'the old customer holds no points').toBe(0);
          const listed = await everyPage(client(), '/rewards/transactions', { customer_id: String(into) });
          const statuses = new Map(listed.map((r) => [Number(r.id), r.status]));
          expect([...statuses.keys()].sort(), 'every redemption of either customer is the receiver\'s').toEqual([...redemptions].sort());
          for (const id of before) expect(statuses.get(id), `redemption ${id}`).toBe(rolledBack.has(id) ? 'reverted' : 'available');
          const voucher = await ok(client().get(`/vouchers/${code}`));
          expect({ customer: Number(voucher.customer_id), redemptions: voucher.redemptions }, 'the old customer\'s voucher, the receiver\'s now, used as answered')
            .toEqual({ customer: into, redemptions: voucherUses });
          expect(voucherUses, 'the voucher used at most max_redemptions').toBeLessThanOrEqual(VOUCHER_USES);

          const all: Tx[] = [];
          let total = 0;
          for (const id of [into, ids[2]]) {
            const { txs, score } = await settledLedger(client(), id, 'after the merge');
            all.push(...txs);
            total += score;
          }
          expect(total, 'the customers hold the points given minus those spent').toBe(given);
          for (const [i, cmd] of commands.entries()) {
            if (cmd.kind !== 'redeem' && cmd.kind !== 'transfer') continue;
            const res = answers[i];
            const left = traces(all, comments[i]);
            const what = `${JSON.stringify(cmd)} (#${i}, ${res.status})`;
            if (res.status !== 200) expect(left, `${what}: a refusal leaves no transaction`).toEqual([]);
            else if (cmd.kind === 'redeem') expect(left.map((t) => t.amount), `${what}: one subtraction`).toEqual([-cmd.amount]);
            else expect(left.map((t) => t.amount).sort((a, b) => a - b), `${what}: one transfer out, one in`).toEqual([-res.body.score, res.body.score]);
          }
          // The old customer's transactions are the receiver's, named by associate_id.
          const moved: Tx[] = await everyPage(client(), '/points/transactions', { associate_id: String(old) });
          for (const tx of moved) expect(Number(tx.customer_id), `transaction ${tx.id} moved from the old customer`).toBe(into);
        },
      ),
      { numRuns: RUNS, seed: SEED + 4, endOnFailure: true },
    );
  }, 120_000);
});
