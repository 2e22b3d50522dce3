/**
 * The customer app's screens over HTTP: after every action (carts earning and
 * spending, cancellation, return, redeem, transfers, a reward and its rollback,
 * a voucher redeemed in a cart, points pending and expiring soon, a merge) the
 * reads of one customer agree with each other: the summary, the balance, the
 * transactions paged to the end, the export, the expiring points, the carts,
 * vouchers, rewards, challenges and tiers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer, utcDate } from '../points/testing.js';
import { createReward, LOCATION } from '../rewards/testing.js';
import { cartBody } from '../testing/carts.js';
import { everyPage } from '../testing/pages.js';
import { startServer, type Client, type TestServer } from '../testing/server.js';

interface Tx { id: number; type: string; amount: number; pending_amount: number; scores: { score: number; available_from: string | null; available_to: string | null }[] }

/** Every page of a list read, `per_page` small so that the cursor is walked. */
const allPages = (client: Client, path: string, query: Record<string, string>) => everyPage(client, path, query, 3);

async function get(client: Client, path: string, query: Record<string, string> = {}) {
  const res = await client.get(path, { query });
  expect(res.status, `${path} ${res.text}`).toBe(200);
  return res.body;
}

/** Asserts that every read of the customer's points, carts and rewards tells the same story; returns the balance. */
async function expectReadsAgree(client: Client, id: number): Promise<{ score: number; score_available: number }> {
  const summary = await get(client, `/customers/${id}`, { search_param: 'id' });
  const points = await get(client, `/customers/${id}/points`);
  const txs: Tx[] = await allPages(client, '/points/transactions', { customer_id: String(id) });
  const exported = await get(client, `/customers/${id}/export`, { search_param: 'id' });
  const expiring = (await get(client, `/customers/${id}/points_expiring`)).data as { score_available: number; expiration_date: string }[];
  const carts = await allPages(client, '/carts', { customer_id: String(id) });
  const redemptions = await allPages(client, '/rewards/transactions', { customer_id: String(id) });

  const available = txs.reduce((s, t) => s + t.amount, 0);
  const pending = txs.reduce((s, t) => s + t.pending_amount, 0);
  expect({ score: points.score, score_available: points.score_available }, 'balance = Σ transactions').toEqual({ score: available + pending, score_available: available });
  // GET /customers/{value} answers no points figures (docs/decisions.md, "GET /customers/{value} read model").
  expect(summary.score, 'no stale points in the summary').toBeUndefined();
  expect(exported.customer, 'export.customer = summary').toEqual(summary);
  expect(exported.points, 'export.points = balance').toEqual(points);
  expect(exported.points_transactions.data.map((t: Tx) => t.id), 'export transactions = list').toEqual(txs.map((t) => t.id));
  expect(exported.carts.data.map((c: { id: number }) => c.id).sort(), 'export carts = list').toEqual(carts.map((c) => c.id).sort());
  expect(exported.reward_redemptions.data.map((r: { id: number; status: string }) => [r.id, r.status]), 'export redemptions = list').toEqual(redemptions.map((r) => [r.id, r.status]));
  for (const c of carts) expect(c.customer_id, `cart ${c.id} listed for ${id}`).toBe(id);

  // Expiring points are available points, and never more than the grants ending that day hold.
  const expiringTotal = expiring.reduce((s, e) => s + e.score_available, 0);
  expect(expiringTotal, 'expiring ⊆ available').toBeLessThanOrEqual(Math.max(points.score_available, 0));
  for (const e of expiring) {
    const day = e.expiration_date.slice(0, 10);
    const granted = txs.flatMap((t) => t.scores).filter((s) => s.score > 0 && s.available_to?.slice(0, 10) === day).reduce((s, b) => s + b.score, 0);
    expect(e.score_available, `expiring on ${day} ≤ granted ending that day`).toBeLessThanOrEqual(granted);
  }
  return { score: points.score, score_available: points.score_available };
}

describe('the customer app: reads agree after every action', () => {
  let server: TestServer;
  let nextCart = 9000;
  const cart = async (customer: number, total: number, fields: Record<string, unknown> = {}) => {
    const id = nextCart++;
    const res = await server.client.post('/carts/realtime', cartBody(total, { id, customer_id: customer, location_id: LOCATION.id, ...fields }));
    expect(res.status, res.text).toBe(200);
    await expectSummaryIsBalance(res.body.customer[0], customer);
    return res.body;
  };
  /** A return of one unit of line 1 of `ticket`, worth `unitTotal`. */
  const returnCart = (customer: number, ticket: number, unitTotal: number) =>
    cart(customer, -unitTotal, { lines: [{ order: 1, product_id: 1, total: -unitTotal, quantity: -1 }], returns: [{ ticket_id: ticket, line_order: 1, quantity: 1 }] });

  /** A cart's customer summary is the balance the points read answers right after it. */
  const expectSummaryIsBalance = async (summary: { score: number; score_available: number }, customer: number) => {
    const points = await get(server.client, `/customers/${customer}/points`);
    expect({ score: summary.score, score_available: summary.score_available }, 'cart summary = balance').toEqual({ score: points.score, score_available: points.score_available });
  };

  beforeAll(async () => {
    server = await startServer();
    expect((await server.client.patch('/company', { cart_cancellation_wait_seconds: 0, timezone: 'UTC' })).status).toBe(200);
    expect((await server.client.post('/locations', LOCATION)).status).toBe(200);
    // A point per unit spent, never expiring; another that expires in 10 days; another pending for 3 days.
    for (const [name, extra] of [
      ['Base', {}],
      ['Soon', { expiration_period_type: 'fixed', expiration_date: utcDate(10) }],
      ['Later', { activation_period_type: 'fixed', activation_date: utcDate(3) }],
    ] as const) {
      const res = await server.client.post('/points', { rule_params: { name, rule_effects: [{ type: 'ratio', value: 1, distribution: 'individual_items' }], ...extra } });
      expect(res.status, res.text).toBe(200);
    }
  });
  afterAll(() => server.dispose());

  it('points: cart, return, cancellation, redeem, transfers, reward and rollback, merge', async () => {
    await createCustomer(server.client, 1, { country: 'ES', code: 'APP1' });
    await createCustomer(server.client, 2, { country: 'ES', code: 'APP2' });
    await createCustomer(server.client, 3, { country: 'ES', code: 'APP3' });

    const first = await cart(1, 40);
    expect(first.score).toBe(120);
    expect(await expectReadsAgree(server.client, 1)).toEqual({ score: 120, score_available: 80 });

    const second = await cart(1, 20, { lines: [{ order: 1, product_id: 1, total: 20, quantity: 2 }] });
    await expectReadsAgree(server.client, 1);

    // A return of one unit of the second cart.
    await returnCart(1, second.id, 10);
    await expectReadsAgree(server.client, 1);

    // The first cart cancelled.
    const cancel = await server.client.post('/carts/cancellation', { cart_to_cancel_id: first.id, new_cart_id: nextCart++ });
    expect(cancel.status, cancel.text).toBe(200);
    await expectReadsAgree(server.client, 1);

    expect((await server.client.post('/points/redeem', { customer_id: 1, amount: 5, comments: 'app' })).status).toBe(200);
    await expectReadsAgree(server.client, 1);

    // Transfers out and in.
    await cart(2, 50);
    expect((await server.client.post('/points/transfer', { score: 4, from_customer_id: 1, to_customer_id: 2 })).status).toBe(200);
    expect((await server.client.post('/points/transfer', { score: 30, from_customer_id: 2, to_customer_id: 1 })).status).toBe(200);
    await expectReadsAgree(server.client, 1);
    await expectReadsAgree(server.client, 2);

    // A reward redeemed and rolled back.
    const reward = await createReward(server.client, { points: 25, total_stock: 5, countries: ['ES'] });
    const redeemed = await server.client.post(`/rewards/${reward}/redeem`, { location_id: LOCATION.id, customer_id: 1 });
    expect(redeemed.status, redeemed.text).toBe(200);
    await expectReadsAgree(server.client, 1);
    const rolled = await server.client.post(`/rewards/transactions/${redeemed.body.redemption_id}/rollback`, { status_detail: 'changed mind' });
    expect(rolled.status, rolled.text).toBe(200);
    await expectReadsAgree(server.client, 1);

    // Customer 3 merged into 1: the balances add up and 3's reads are empty.
    await cart(3, 15);
    const before = await expectReadsAgree(server.client, 1);
    const three = await expectReadsAgree(server.client, 3);
    expect((await server.client.post('/customers/transfer', { old_customer_id: 3, new_customer_id: 1 })).status).toBe(200);
    const after = await expectReadsAgree(server.client, 1);
    expect(after).toEqual({ score: before.score + three.score, score_available: before.score_available + three.score_available });
    expect(await expectReadsAgree(server.client, 3)).toEqual({ score: 0, score_available: 0 });
  });

  it('vouchers, rewards, challenges and tiers: a voucher redeemed in a cart and the cart cancelled, a reward bought out of stock', async () => {
    await createCustomer(server.client, 20, { country: 'ES', code: 'APP20' });
    const targeted = await server.client.post('/discounts', {
      rule_params: { name: 'Five off', select_customers: 'targeted', rule_effects: [{ type: 'direct_value', value: 5, distribution: 'total' }] },
      coupon_params: { name: 'Five off coupon' },
    });
    expect(targeted.status, targeted.text).toBe(200);
    const challenge = await server.client.post('/challenges', {
      name: 'Spend', attribute: 'total_spent', open_to_all: true, status: 'active', available_to: '2999-12-31',
      structure: [{ level: 1, name: 'Starter', threshold: 10, points: 0 }, { level: 2, name: 'Pro', threshold: 500, points: 0 }],
    });
    expect(challenge.status, challenge.text).toBe(200);
    const program = await server.client.post('/tier_programs', { name: 'Spend', attribute: 'total_spent', validity_days: 30, structure: [{ level: 1, name: 'Base', threshold: 0 }, { level: 2, name: 'Gold', threshold: 1000 }] });
    expect(program.status, program.text).toBe(200);
    const reward = await createReward(server.client, { points: 30, total_stock: 1, countries: ['ES'] });

    const issued = await server.client.post('/discounts/trigger', { customer_id: 20, loyalty_rule_id: targeted.body.id, external_voucher_code: 'APPV1' });
    expect(issued.status, issued.text).toBe(200);

    /** Every read of the voucher tells the same status; the campaign list offers it only while it is usable. */
    const voucherReads = async () => {
      const list = (await allPages(server.client, '/vouchers', { customer_id: '20' })).find((v) => v.code === 'APPV1');
      const one = await get(server.client, '/vouchers/APPV1');
      const exported = (await get(server.client, '/customers/20/export', { search_param: 'id' })).vouchers.data.find((v: { code: string }) => v.code === 'APPV1');
      expect(one, 'voucher read = list item').toEqual(list);
      expect(exported, 'export item = list item').toEqual(list);
      const offered = (await allPages(server.client, '/discounts', { customer_id: '20' })).find((c) => c.id === targeted.body.id);
      if (list.status === 'active') expect(offered?.coupon_info?.voucher_info, 'an active voucher is offered').toMatchObject({ voucher_code: 'APPV1', status: 'active', available_redemptions: list.available_redemptions });
      else if (offered !== undefined) expect(offered.coupon_info.voucher_info.status, 'an offered voucher reads as the voucher').toBe(list.status);
      const validate = await server.client.get('/vouchers/APPV1', { query: { validate: 'true', location_id: String(LOCATION.id) } });
      expect(validate.status === 200, `validate agrees with status ${list.status}: ${validate.text}`).toBe(list.status === 'active');
      return list as { status: string; available_redemptions: number };
    };
    /** Challenge and tier progress are the spend of the carts listed; can_redeem is what a redemption would do. */
    const progressReads = async () => {
      const carts = await allPages(server.client, '/carts', { customer_id: '20' });
      // Metrics count the total each cart charged, as its read answers it (after this evaluation's discounts).
      const spent = carts.reduce((sum, c) => sum + c.total, 0);
      const challenges = await allPages(server.client, '/customers/20/challenges', {});
      expect(challenges.find((c) => c.id === challenge.body.id)?.attribute_value ?? 0, 'challenge progress = Σ carts').toBe(spent);
      const tiers = (await get(server.client, '/customers/20/tiers')).data;
      const tier = tiers.find((t: { id: number }) => t.id === program.body.id);
      expect(tier.attribute_value, 'tier attribute = Σ carts').toBe(spent);
      const exported = await get(server.client, '/customers/20/export', { search_param: 'id' });
      expect(exported.tiers, 'export tiers = tiers read').toEqual(tiers);
      const points = await get(server.client, '/customers/20/points');
      const listed = (await allPages(server.client, '/rewards', { customer_id: '20' })).find((r) => r.id === reward);
      const single = await get(server.client, `/rewards/${reward}`, { customer_id: '20' });
      expect(listed, 'reward in the list = reward read').toEqual(single);
      expect(single.can_redeem, `can_redeem with ${points.score_available} points, stock ${single.available_stock}`).toBe(points.score_available >= 30 && single.available_stock > 0);
      const restricted = (await allPages(server.client, '/rewards', { customer_id: '20', restricted_by: 'points,stock' })).some((r) => r.id === reward);
      expect(restricted, 'restricted_by drops what can_redeem refuses').toBe(single.can_redeem);
    };

    expect((await voucherReads()).status).toBe('active');
    await progressReads();

    // The voucher redeemed in a cart that earns 3 × 45 points.
    const used = await cart(20, 45, { coupons_desired: ['APPV1'] });
    expect(used.vouchers.map((v: { voucher_code: string }) => v.voucher_code)).toEqual(['APPV1']);
    expect((await voucherReads()).status).toBe('redeemed');
    await progressReads();
    await expectReadsAgree(server.client, 20);

    // Another cart, then the reward bought: the stock is gone.
    await cart(20, 12);
    const redeemed = await server.client.post(`/rewards/${reward}/redeem`, { location_id: LOCATION.id, customer_id: 20 });
    expect(redeemed.status, redeemed.text).toBe(200);
    await progressReads();
    await expectReadsAgree(server.client, 20);

    // The voucher's cart cancelled: the voucher is usable again, its spend and points leave every read.
    const cancel = await server.client.post('/carts/cancellation', { cart_to_cancel_id: used.id, new_cart_id: nextCart++ });
    expect(cancel.status, cancel.text).toBe(200);
    expect((await voucherReads()).status).toBe('active');
    await progressReads();
    await expectReadsAgree(server.client, 20);

    // The reward rolled back: its stock is back.
    const rolled = await server.client.post(`/rewards/transactions/${redeemed.body.redemption_id}/rollback`, { status_detail: 'returned' });
    expect(rolled.status, rolled.text).toBe(200);
    await progressReads();
    await expectReadsAgree(server.client, 20);
  });

  it('games, instant wins and a merge: prizes, participations, vouchers and progress follow the merged customer', async () => {
    await createCustomer(server.client, 30, { country: 'ES', code: 'APP30' });
    await createCustomer(server.client, 31, { country: 'ES', code: 'APP31' });
    const promo = await server.client.post('/discounts', {
      rule_params: { name: 'Prize 2 off', select_customers: 'targeted', rule_effects: [{ type: 'direct_value', value: 2, distribution: 'total' }] },
      coupon_params: { name: 'Prize coupon' },
    });
    expect(promo.status, promo.text).toBe(200);
    const game = await server.client.post('/games', {
      rule_params: { name: 'Wheel', select_customers: 'loyalty', once: 'always', once_limit: 3 },
      game: { type: 'wheel', config: { slices: 2 }, template: 'spin', game_prizes: [{ name: 'Two off', outcome: 'discount', promotion_id: promo.body.id, weight: 1, stock: -1 }] },
    });
    expect(game.status, game.text).toBe(200);
    const points = await server.client.post('/points', { rule_params: { name: 'Ten', rule_effects: [{ type: 'direct_value', value: 10, distribution: 'total' }], when: 'iw_prize' } });
    expect(points.status, points.text).toBe(200);
    const win = await server.client.post('/instant_wins', {
      rule_params: { name: 'Scratch', once: 'always', once_limit: 2 },
      instant_win: { instant_win_prizes: [{ name: 'Ten points', outcome: { promotion_type: 'points', promotion_id: points.body.id }, weight: 1, stock: -1 }] },
    });
    expect(win.status, win.text).toBe(200);

    /** The plays, participations, vouchers and points of `id` as every read shows them. */
    const reads = async (id: number) => {
      const vouchers = await allPages(server.client, '/vouchers', { customer_id: String(id) });
      const exported = await get(server.client, `/customers/${id}/export`, { search_param: 'id' });
      expect(exported.vouchers.data, 'export vouchers = list').toEqual(vouchers);
      const instant = (await allPages(server.client, '/instant_wins', { customer_id: String(id) })).find((w) => w.id === win.body.id);
      const single = await get(server.client, `/instant_wins/${win.body.id}`, { customer_id: String(id) });
      expect(single.remaining_participations, 'instant win read = list').toBe(instant.remaining_participations);
      const balance = await expectReadsAgree(server.client, id);
      return { vouchers: vouchers.map((v) => [v.code, v.status]), remaining: instant.remaining_participations, balance };
    };

    const play = async (id: number) => {
      const res = await server.client.post(`/games/${game.body.id}/play`, { customer_id: id });
      expect(res.status, res.text).toBe(200);
      return res.body.effects as { game_info: { status: string; outcome: string } }[];
    };
    expect((await play(31))[0].game_info.status).toBe('won');
    await cart(31, 10);
    const old = await reads(31);
    expect(old.vouchers).toHaveLength(1);
    expect(old.remaining).toBe(1);
    expect(old.balance.score).toBe(10 + 30);

    expect((await play(30))[0].game_info.status).toBe('won');
    await cart(30, 10);
    await cart(30, 10);
    const mine = await reads(30);
    expect(mine.remaining).toBe(0);

    expect((await server.client.post('/customers/transfer', { old_customer_id: 31, new_customer_id: 30 })).status).toBe(200);
    const merged = await reads(30);
    expect(merged.vouchers.sort(), 'the old customer\'s vouchers are the new one\'s').toEqual([...mine.vouchers, ...old.vouchers].sort());
    expect(merged.balance).toEqual({ score: mine.balance.score + old.balance.score, score_available: mine.balance.score_available + old.balance.score_available });
    expect(merged.remaining).toBe(0);
    const gone = await reads(31);
    expect(gone.vouchers).toEqual([]);
    expect(gone.balance).toEqual({ score: 0, score_available: 0 });

    // The old customer's voucher is usable by the new one in a cart, and read as redeemed everywhere.
    const [code] = old.vouchers[0];
    const used = await cart(30, 20, { coupons_desired: [code] });
    expect(used.vouchers.map((v: { voucher_code: string }) => v.voucher_code)).toEqual([code]);
    expect((await reads(30)).vouchers.find(([c]) => c === code)).toEqual([code, 'redeemed']);
  });

  it('points spent in a cart and on it, given back by a return of the whole line, the ticket then cancelled: each answer\'s summary is the balance', async () => {
    await createCustomer(server.client, 70, { country: 'ES', code: 'APP70' });
    await cart(70, 30);
    const ticket = await cart(70, 20, { cashback_score_desired: 15 });
    expect(ticket.score_used).toBe(15);
    const spent = await server.client.post('/points/redeem_cart', { activity_id: ticket.id, customer_id: 70, amount: 5 });
    expect(spent.status, spent.text).toBe(200);
    await expectSummaryIsBalance(spent.body.customer, 70);
    await expectReadsAgree(server.client, 70);
    const ret = await returnCart(70, ticket.id, 20);
    expect(ret.score_returned_to_customer).toBe(20);
    await expectReadsAgree(server.client, 70);
    const cancel = await server.client.post('/carts/cancellation', { cart_to_cancel_id: ticket.id, new_cart_id: nextCart++ });
    expect(cancel.status, cancel.text).toBe(200);
    await expectSummaryIsBalance(cancel.body.customer[0], 70);
    await expectReadsAgree(server.client, 70);
  });
});
