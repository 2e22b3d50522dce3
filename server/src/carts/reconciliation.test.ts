/**
 * A retailer's finance team reconciling every report Tally gives after a mixed
 * workload on one started server: balances against the ledger, carts against
 * their points transactions and the export, discounts against the campaign's
 * budget and the discount transactions, voucher, reward, instant-win and game
 * stock against what was won, cancellations as exact mirrors, and the
 * Prometheus request counters against the requests sent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { matchRoute } from '../http/router.js';
import { createCustomer, expectLedgerAddsUp, transactions } from '../points/testing.js';
import { LOCATION } from '../rewards/testing.js';
import { clientOf, startServer, type Client, type TestResponse, type TestServer } from '../testing/server.js';

const CUSTOMERS = [301, 302, 303, 304];
const now = () => new Date().toISOString().slice(0, 19) + 'Z';
const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 19) + 'Z';
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

describe('reconciling every report after a mixed workload', () => {
  let server: TestServer;
  let client: Client;
  /** Answers sent by operation and status, as tally_http_requests_total counts them. */
  const sent = new Map<string, number>();
  let nextCart = 30_000;
  const ids: Record<string, number> = {};

  const ok = async (res: Promise<TestResponse>) => {
    const answer = await res;
    expect(answer.status, answer.text).toBe(200);
    return answer.body;
  };
  /** A cart of one line per total given (product 100 + i, quantity 1). */
  const cart = (customer: number, totals: number[], extra: Record<string, unknown> = {}) => ({
    id: nextCart++,
    creation_date: now(),
    customer_id: customer,
    total: sum(totals),
    lines: totals.map((total, i) => ({ order: i + 1, product_id: 100 + i, total, quantity: 1 })),
    ...extra,
  });
  const discountCents = (body: { effects: { type: string; value: number; rule_id: number }[] }, campaign?: number) =>
    sum(body.effects.filter((e) => e.type === 'discount' && (campaign === undefined || e.rule_id === campaign)).map((e) => e.value));
  const allCarts = async (customer: number) => (await ok(client.get('/carts', { query: { customer_id: String(customer), per_page: '100' } }))).data;

  beforeAll(async () => {
    server = await startServer({ env: { WORKERS: '1', REALTIME_WORKERS: '1', METRICS_PORT: '0' } });
    const raw = server.client;
    const count = (method: string, path: string) => (res: TestResponse) => {
      const route = matchRoute(method, path);
      const key = `${route.kind === 'found' ? route.operation : 'unknown'} ${res.status}`;
      sent.set(key, (sent.get(key) ?? 0) + 1);
      return res;
    };
    client = clientOf((method, path, options) => raw.request(method, path, options).then(count(method, path)));
    await ok(client.patch('/company', { cart_cancellation_wait_seconds: 0 }));
    await ok(client.post('/locations', LOCATION));
    for (const id of CUSTOMERS) await createCustomer(client, id, { code: `R${id}`, country: 'ES' });
    ids.perUnit = (await ok(client.post('/points', {
      rule_params: {
        name: 'One a unit', rule_effects: [{ type: 'ratio', value: 1, distribution: 'individual_items' }],
        expiration_period_type: 'relative', availability_duration: 30, availability_duration_unit: 'days',
      },
    }))).id;
    ids.mass = (await ok(client.post('/discounts', { rule_params: { name: 'Mass 10%', rule_effects: [{ type: 'percentage', value: 10, distribution: 'individual_items' }] } }))).id;
    ids.fiveOff = (await ok(client.post('/discounts', {
      rule_params: { name: 'Five off', select_customers: 'targeted', budget_value: 12, rule_effects: [{ type: 'direct_value', value: 5, distribution: 'total' }] },
      coupon_params: { name: 'Five off coupon', static_code: 'FIVE', max_redemptions: 5 },
    }))).id;
    ids.welcome = (await ok(client.post('/points', { rule_params: { name: 'Welcome', when: 'welcome', rule_effects: [{ type: 'direct_value', value: 50, distribution: 'total' }] } }))).id;
    ids.delayed = (await ok(client.post('/points', {
      rule_params: { name: 'Tomorrow', when: 'delayed', activation_period_type: 'relative', activation_delay: 1, activation_delay_unit: 'days', rule_effects: [{ type: 'direct_value', value: 20, distribution: 'total' }] },
    }))).id;
    const review = (await ok(client.post('/custom_event_definitions', { slug: 'review', name: 'Review', schema: { type: 'object', properties: { stars: { type: 'integer' } } } }))).id;
    ids.review = (await ok(client.post('/points', { rule_params: { name: 'Review', custom_entity_definition_id: review, rule_effects: [{ type: 'direct_value', value: 25, distribution: 'total' }] } }))).id;
    ids.mug = (await ok(client.post('/rewards', { name: 'Mug', points: 100, type: 'physical', total_stock: 5 }))).id;
    ids.prizePoints = (await ok(client.post('/points', { rule_params: { name: 'Prize', when: 'prize-only', rule_effects: [{ type: 'direct_value', value: 7, distribution: 'total' }] } }))).id;
    ids.scratch = (await ok(client.post('/instant_wins', {
      rule_params: { name: 'Scratch', select_customers: 'loyalty', rule_conditions: { conditions: { and: [{ field: 'total', operator: 'gte', value: 100 }] } } },
      instant_win: { instant_win_prizes: [{ name: 'Seven', outcome: { promotion_type: 'points', promotion_id: ids.prizePoints }, weight: 1, stock: 2 }] },
    }))).id;
    ids.wheel = (await ok(client.post('/games', { rule_params: { name: 'Wheel' }, game: { type: 'wheel', game_prizes: [{ name: 'Five points', outcome: 'points', points: 5, weight: 1, stock: 2 }] } }))).id;
  });
  afterAll(async () => {
    await server.dispose();
  });

  it('every report agrees with every other', async () => {
    const [a, b, c, d] = CUSTOMERS;
    // The discounts each campaign gave, in cents, as the carts' effects and POST /discounts/redeem tell them.
    let fiveOffCents = 0;
    // Every cart answer, cancellations' included: what GET /carts must give back.
    const answered: { id: number; effects: { type: string; value: number; rule_id: number }[] }[] = [];
    let redeemedCents = 0;
    const issue = (customer: number, code: string) => ok(client.post('/discounts/trigger', { customer_id: customer, loyalty_rule_id: ids.fiveOff, external_voucher_code: code }));
    await issue(a, 'FIVE-A1');
    await issue(a, 'FIVE-A2');
    await issue(b, 'FIVE-B1');

    // Realtime carts: discounts, points, vouchers, an instant win over 100.
    const a1 = await ok(client.post('/carts/realtime', cart(a, [60, 60], { coupons_desired: ['FIVE-A1'] })));
    fiveOffCents += discountCents(a1, ids.fiveOff);
    answered.push(a1);
    expect(discountCents(a1, ids.fiveOff)).toBe(500);
    const b1 = await ok(client.post('/carts/realtime', cart(b, [150], { coupons_desired: 'all' })));
    expect(discountCents(b1, ids.fiveOff)).toBe(500);
    fiveOffCents += 500;
    answered.push(b1);
    const c1 = await ok(client.post('/carts/realtime', cart(c, [30])));
    answered.push(c1);
    // An external till redeems 2.00 of the campaign: 12.00 of budget spent.
    const external = await ok(client.post('/discounts/redeem', { voucher_code: 'FIVE-A2', customer_id: a, cart_id: 99_001, discount: 200 }));
    expect(external).toMatchObject({ rule_id: ids.fiveOff, effect_type: 'external_redeem', value: 200 });
    fiveOffCents += 200;
    redeemedCents += 200;
    // The budget is spent: the next voucher gives nothing.
    await issue(c, 'FIVE-C1');
    const c2 = await ok(client.post('/carts/realtime', cart(c, [40], { coupons_desired: ['FIVE-C1'] })));
    expect(discountCents(c2, ids.fiveOff)).toBe(0);
    answered.push(c2);

    // Points: triggers (one pending), a custom event, a plain POST /carts, a back-dated cart whose points have expired.
    for (const customer of CUSTOMERS) await ok(client.post('/trigger', { trigger: 'welcome', customer_id: customer, loyalty_rule_id: ids.welcome }));
    await ok(client.post('/trigger', { trigger: 'delayed', customer_id: d, loyalty_rule_id: ids.delayed }));
    await ok(client.post('/custom_events', { customer_id: b, slug: 'review', data: { stars: 5 } }));
    const plain = await ok(client.post('/carts', cart(d, [20, 10])));
    answered.push(plain);
    const old = await ok(client.post('/carts/realtime', cart(d, [70], { creation_date: daysAgo(60) })));
    answered.push(old);

    // Spends: a cashback in a cart, POST /points/redeem, redeem_cart, a transfer, a reward and its rollback.
    const spend = await ok(client.post('/carts/realtime', cart(a, [20], { cashback_score_desired: 10, apply_points: false })));
    expect(spend.score_used).toBe(10);
    answered.push(spend);
    await ok(client.post('/points/redeem', { customer_id: b, amount: 30, comments: 'goodwill' }));
    await ok(client.post('/points/redeem_cart', { activity_id: b1.id, customer_id: b, amount: 15, location_id: LOCATION.id }));
    await ok(client.post('/points/transfer', { score: 40, from_customer_id: a, to_customer_id: c }));
    const kept = await ok(client.post(`/rewards/${ids.mug}/redeem`, { location_id: LOCATION.id, customer_id: b }));
    await ok(client.post('/trigger', { trigger: 'welcome', customer_id: c, loyalty_rule_id: ids.welcome }));
    const undone = await ok(client.post(`/rewards/${ids.mug}/redeem`, { location_id: LOCATION.id, customer_id: c }));
    await ok(client.post(`/rewards/transactions/${undone.redemption_id}/rollback`, { status_detail: 'changed their mind' }));
    expect(kept.score_used).toBe(100);

    // The instant win (carts of 100 or more, stock 2) was won by a1 and b1: a cart of 100 now takes part without winning.
    const won = (body: { effects: { type: string; prize_rule_id?: number }[] }) => body.effects.some((e) => e.type === 'instant_win' && e.prize_rule_id !== undefined);
    expect([won(a1), won(b1)]).toEqual([true, true]);
    const lost = await ok(client.post('/carts/realtime', cart(a, [100])));
    expect(won(lost)).toBe(false);
    answered.push(lost);
    // Cancellations: b1 (a voucher, an instant-win prize, points spent by redeem_cart) gives its unit back, won again, then cancelled too.
    const b1Back = await ok(client.post('/carts/cancellation', { cart_to_cancel_id: b1.id }));
    fiveOffCents -= 500;
    answered.push(b1Back);
    expect(b1Back.total).toBe(-b1.total);
    // The 15 points spent on b1 with redeem_cart come back with it (b1 spent none itself).
    expect(b1Back.score_returned_to_customer).toBe(15);
    expect(discountCents(b1Back)).toBe(-discountCents(b1));
    const winner = await ok(client.post('/carts/realtime', cart(a, [100])));
    expect(won(winner)).toBe(true);
    const winBack = await ok(client.post('/carts/cancellation', { cart_to_cancel_id: winner.id }));
    answered.push(winner, winBack);
    expect(winBack.score).toBe(-winner.score);
    expect(discountCents(winBack)).toBe(-discountCents(winner));

    // Games: stock 2, three plays.
    const plays = [];
    for (let i = 0; i < 3; i++) plays.push((await ok(client.post(`/games/${ids.wheel}/play`, { customer_id: c }))).effects[0].game_info.status);
    expect(plays).toEqual(['won', 'won', 'stock_exhausted']);

    // A merge and its unmerge with activities.
    await ok(client.post('/customers/transfer', { old_customer_id: d, new_customer_id: c }));
    answered.push(await ok(client.post('/carts/realtime', cart(c, [10]))));
    await ok(client.post(`/customers/${d}/unmerge`, undefined, { headers: { 'Content-Type': 'application/json' }, query: { with_activites: 'true' } }));

    // --- Reconciliation ---
    // 1. Each balance is the sum of its transactions; pending and expired add up.
    for (const id of CUSTOMERS) await expectLedgerAddsUp(client, id);
    const dPoints = await ok(client.get(`/customers/${d}/points`));
    const dTxs = await transactions(client, d);
    expect(dPoints.score - dPoints.score_available).toBe(20);
    expect(sum(dTxs.filter((t) => t.type === 'expiration').map((t) => t.amount + t.pending_amount))).toBe(-old.score);

    // 2. Each customer's carts: their points equal the activity transactions' amounts (b1's redeem_cart spend and its
    // give-back cancel out); GET /carts and the export agree.
    for (const id of CUSTOMERS) {
      const carts = await allCarts(id);
      const activity = (await transactions(client, id, { origin_type: 'activity' }));
      const cartPoints = sum(carts.map((x: { score: number; score_used: number; id: number }) => x.score - x.score_used));
      const prizePoints = sum(activity.filter((t) => t.scores.some((s) => s.loyalty_score_id === ids.prizePoints)).map((t) => t.amount + t.pending_amount));
      expect(sum(activity.map((t) => t.amount + t.pending_amount)) - prizePoints, `customer ${id}`).toBe(cartPoints);
      const exported = await ok(client.get(`/customers/${id}/export`, { query: { search_param: 'id' } }));
      expect(exported.carts.data.map((x: { id: number }) => x.id).sort()).toEqual(carts.map((x: { id: number }) => x.id).sort());
      expect(sum(exported.carts.data.map((x: { total: number }) => x.total))).toBeCloseTo(sum(carts.map((x: { total: number }) => x.total)), 6);
      expect(exported.points).toEqual(await ok(client.get(`/customers/${id}/points`)));
    }

    // 3. Cancellations mirror: a negative cart in GET /carts, the original marked.
    const bCarts = await allCarts(b);
    expect(bCarts.find((x: { id: number }) => x.id === b1Back.id)).toMatchObject({ total: -b1.total, cancels_cart_id: b1.id });
    expect(bCarts.find((x: { id: number }) => x.id === b1.id)).toMatchObject({ cancelled_by_cart_id: b1Back.id });

    // 4. Discounts: the campaign's budget consumption is what the carts and the redeem gave (12 - 5 returned = 7: one more 5 fits).
    expect(fiveOffCents).toBe(700);
    await issue(d, 'FIVE-D1');
    const d2 = await ok(client.post('/carts/realtime', cart(d, [50], { coupons_desired: ['FIVE-D1'] })));
    expect(discountCents(d2, ids.fiveOff)).toBe(500);
    await issue(d, 'FIVE-D2');
    const d3 = await ok(client.post('/carts/realtime', cart(d, [50], { coupons_desired: ['FIVE-D2'] })));
    expect(discountCents(d3, ids.fiveOff)).toBe(0);
    answered.push(d2, d3);
    // The stored carts give the discounts their answers gave; with the external redeem they spent the whole budget (12.00).
    const stored = (await Promise.all(CUSTOMERS.map(allCarts))).flat();
    expect(stored.map((x: { id: number }) => String(x.id)).sort()).toEqual(answered.map((x) => String(x.id)).sort());
    expect(sum(stored.map((x: { effects: { type: string; value: number; rule_id: number }[] }) => discountCents(x)))).toBe(sum(answered.map((x) => discountCents(x))));
    expect(sum(stored.map((x: { effects: { type: string; value: number; rule_id: number }[] }) => discountCents(x, ids.fiveOff))) + redeemedCents).toBe(1200);
    // GET /discounts/transactions lists the redemptions of POST /discounts/redeem.
    const discountTxs = (await ok(client.get('/discounts/transactions', { query: { per_page: '100' } }))).data;
    expect(sum(discountTxs.map((t: { amount: number }) => Math.round(t.amount * 100)))).toBe(redeemedCents);

    // 5. Vouchers: redemptions are the uses in carts and redeems (b1's given back by its cancellation).
    const uses: Record<string, number> = { 'FIVE-A1': 1, 'FIVE-A2': 1, 'FIVE-B1': 0, 'FIVE-C1': 0, 'FIVE-D1': 1, 'FIVE-D2': 0 };
    for (const [code, used] of Object.entries(uses)) expect((await ok(client.get(`/vouchers/${code}`))).redemptions, code).toBe(used);

    // 6. Stock: reward 5 - 2 redeemed + 1 rolled back; the instant win 2 - 3 won + 2 given back by the cancellations; the game 2 - 2.
    expect((await ok(client.get(`/rewards/${ids.mug}`))).available_stock).toBe(4);
    const redemptions = (await ok(client.get('/rewards/transactions', { query: { per_page: '100' } }))).data;
    expect(redemptions.map((r: { status: string }) => r.status).sort()).toEqual(['available', 'reverted']);
    const scratch = await ok(client.get(`/instant_wins/${ids.scratch}`));
    expect(scratch.instant_win.instant_win_prizes[0].available_stock).toBe(1);
    const wheel = await ok(client.get(`/games/${ids.wheel}`));
    expect(wheel.game.game_prizes[0].available_stock).toBe(0);

    // 7. The whole points economy: granted minus spent minus expired equals the balances.
    let balances = 0;
    for (const id of CUSTOMERS) balances += (await ok(client.get(`/customers/${id}/points`))).score;
    const all = (await Promise.all(CUSTOMERS.map((id) => transactions(client, id)))).flat();
    expect(balances).toBe(sum(all.map((t) => t.amount + t.pending_amount)));

    // 8. The metrics count the requests answered, by operation and status.
    const scraped = await (await fetch(`http://127.0.0.1:${server.metricsPort}/metrics`)).text();
    for (const [key, count] of sent) {
      const [operation, status] = key.split(' ');
      const line = scraped.split('\n').find((l) => l.startsWith(`tally_http_requests_total{`) && l.includes(`operation="${operation}"`) && l.includes(`status="${status}"`));
      expect(line, key).toBeDefined();
      expect(Number(line!.split(' ').pop()), key).toBe(count);
    }
  });
});
