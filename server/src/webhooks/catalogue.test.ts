/**
 * The event types beyond carts, points and customer changes (docs/webhooks.md): each raised in the
 * transaction of its change, with the data its matching read answers; a refused change raises nothing.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createCustomer } from '../points/testing.js';
import { createReward, customersWithPoints, LOCATION, redeem } from '../rewards/testing.js';
import { realtimeCart } from '../testing/carts.js';
import { startServer, type TestServer } from '../testing/server.js';
import { freshReceiver, Receiver, sleep, type Received } from './testing.js';

const FAST = { WEBHOOK_POLL_INTERVAL_MS: '50', WEBHOOK_RETRY_SECONDS: '0.2,0.2', WEBHOOK_TIMEOUT_MS: '2000' };
const json = { 'Content-Type': 'application/json' };
/** JSON as a receiver parses it (int64 numbers and all). */
const parsed = (text: string) => JSON.parse(text);

describe('webhook event catalogue over HTTP', () => {
  let server: TestServer;
  let receiver: Receiver;

  const subscribe = async (events: string[]) => {
    const res = await server.client.post('/webhooks', { url: receiver.url, events });
    expect(res.status, res.text).toBe(200);
  };
  /** Waits for `count` events, lets the dispatcher poll a few times more, and checks nothing else came. */
  const exactly = async (count: number): Promise<Received['event'][]> => {
    await receiver.waitFor(count);
    await sleep(400);
    expect(receiver.received.map((r) => r.event.type)).toHaveLength(count);
    return receiver.received.map((r) => r.event);
  };
  const discount = async (name: string, params: Record<string, unknown> = {}, coupon: Record<string, unknown> = { name }) => {
    const res = await server.client.post('/discounts', {
      rule_params: { name, select_customers: 'targeted', rule_effects: [{ type: 'direct_value', value: 5, distribution: 'total' }], ...params },
      coupon_params: coupon,
    });
    expect(res.status, res.text).toBe(200);
    return res.body.id as number;
  };
  /** The voucher as the customer's list shows it. */
  const listedVoucher = async (customerId: number, code: string) => {
    const res = await server.client.get('/vouchers', { query: { customer_id: String(customerId), per_page: '100' } });
    expect(res.status, res.text).toBe(200);
    return parsed(res.text).data.find((v: { code: string }) => v.code === code);
  };

  beforeAll(async () => {
    server = await startServer({ env: FAST });
    expect((await server.client.post('/locations', LOCATION)).status).toBe(200);
  });
  afterAll(async () => {
    await server.dispose();
  });
  beforeEach(async () => {
    receiver = await freshReceiver(server.client);
    return () => receiver.close();
  });

  it('customer.merged and customer.unmerged: both customers and the association; a refused merge or unmerge raises nothing', async () => {
    await createCustomer(server.client, 101, { code: 'M101' });
    await createCustomer(server.client, 102, { code: 'M102' });
    await subscribe(['customer.merged', 'customer.unmerged']);
    expect((await server.client.post('/customers/transfer', { old_customer_id: 101, new_customer_id: 101 })).status).toBeGreaterThanOrEqual(400);
    expect((await server.client.post('/customers/102/unmerge', undefined, { headers: json, query: { with_activites: 'true' } })).status).toBe(409);
    expect((await server.client.post('/customers/transfer', { old_customer_code: 'M101', new_customer_id: 102, relationship_type: 'card' })).status).toBe(200);
    const [link] = parsed((await server.client.get('/customers/102/associates', { headers: json })).text).list;
    expect((await server.client.post('/customers/101/unmerge', undefined, { headers: json, query: { with_activites: 'false' } })).status).toBe(200);
    const events = await exactly(2);
    const [merged, unmerged] = ['customer.merged', 'customer.unmerged'].map((type) => events.find((e) => e.type === type)!);
    expect(merged.data).toEqual({ old_customer_id: 101, old_customer_code: 'M101', new_customer_id: 102, new_customer_code: 'M102', association: link });
    expect(link).toMatchObject({ customer_id: 102, associate_customer_id: 101, relationship_type: 'card', active: true, merge_id: expect.any(Number) });
    expect(unmerged.data).toEqual({
      old_customer_id: 101, old_customer_code: 'M101', new_customer_id: 102, new_customer_code: 'M102', with_activities: false,
      association: { ...link, active: false, updated_at: expect.any(String) },
    });
  });

  it('reward_redemption.created and .reverted as GET /rewards/transactions lists them, voucher.issued by process_actions; a refused redemption raises nothing', async () => {
    await customersWithPoints(server.client, [110, 111], 100);
    const coupon = await discount('Reward coupon');
    const couponId = (await server.client.get(`/discounts/${coupon}`)).body.coupon_info.coupon_id;
    const reward = await createReward(server.client, { points: 60, type: 'coupon', coupon_id: couponId });
    await subscribe(['reward_redemption.created', 'reward_redemption.reverted', 'voucher.issued']);
    expect((await redeem(server.client, reward, 110, { process_actions: true })).status).toBe(200);
    // 40 points left: not enough for a second one.
    expect((await redeem(server.client, reward, 110)).body.code).toBe('customer_not_enough_score');
    const created = await exactly(2);
    const listed = () => server.client.get('/rewards/transactions', { query: { customer_id: '110' } }).then((res) => parsed(res.text).data[0]);
    expect(created.find((e) => e.type === 'reward_redemption.created')!.data).toEqual(await listed());
    const issued = created.find((e) => e.type === 'voucher.issued')!;
    expect(issued.data).toMatchObject({ customer_id: 110, status: 'active', coupon: { id: couponId } });
    expect(issued.data).toEqual(await listedVoucher(110, issued.data.code));

    const redemption = (await listed()).id;
    expect((await server.client.post(`/rewards/transactions/${redemption}/rollback`, { status_detail: 'returned' })).status).toBe(200);
    expect((await server.client.post(`/rewards/transactions/${redemption}/rollback`, { status_detail: 'again' })).status).toBe(409);
    const [, , reverted] = await exactly(3);
    expect(reverted.type).toBe('reward_redemption.reverted');
    expect(reverted.data).toEqual(await listed());
    expect(reverted.data).toMatchObject({ id: redemption, status: 'reverted', status_detail: 'returned' });
  });

  it('voucher.issued by POST /discounts/trigger and voucher.redeemed by /discounts/redeem, /vouchers/redeem and realtime carts; a refused list of vouchers raises nothing', async () => {
    await createCustomer(server.client, 120, { code: 'V120' });
    const campaign = await discount('Hook five', {}, { name: 'Hook five', static_code: 'HOOK' });
    await subscribe(['voucher.issued', 'voucher.redeemed']);
    const trigger = (code: string) => server.client.post('/discounts/trigger', { customer_id: 120, loyalty_rule_id: campaign, external_voucher_code: code });
    for (const code of ['HOOK-1', 'HOOK-2', 'HOOK-3']) expect((await trigger(code)).status).toBe(200);
    expect((await trigger('HOOK-1')).status).toBe(409);
    const issued = await exactly(3);
    expect(issued.map((e) => [e.type, e.data.code]).sort()).toEqual([['voucher.issued', 'HOOK-1'], ['voucher.issued', 'HOOK-2'], ['voucher.issued', 'HOOK-3']]);
    expect(issued.find((e) => e.data.code === 'HOOK-1')!.data).toEqual(await listedVoucher(120, 'HOOK-1'));

    expect((await server.client.post('/discounts/redeem', { voucher_code: 'HOOK-1', customer_id: 120, cart_id: 1, discount: 500 })).status).toBe(200);
    // HOOK-2's redemption is written, then the unknown code refuses the list: the transaction and its event are gone.
    const refused = await server.client.post('/vouchers/redeem', { customer_id: 120, codes: ['HOOK-2', 'NOPE'] });
    expect(refused.status).toBe(404);
    expect((await server.client.post('/vouchers/redeem', { customer_id: 120, codes: ['HOOK-2'] })).status).toBe(200);
    expect((await realtimeCart(server.client, 120, 20, { coupons_desired: ['HOOK'] })).status).toBe(200);
    const redeemed = (await exactly(6)).slice(3);
    expect(redeemed.map((e) => [e.type, e.data.code]).sort()).toEqual([['voucher.redeemed', 'HOOK-1'], ['voucher.redeemed', 'HOOK-2'], ['voucher.redeemed', 'HOOK-3']]);
    for (const { data } of redeemed) {
      expect(data).toMatchObject({ status: 'redeemed', redemptions: 1 });
      expect(data).toEqual(await listedVoucher(120, data.code));
    }
  });

  it('custom_event.created as GET /custom_events/{id} answers it; a refused event raises nothing', async () => {
    await createCustomer(server.client, 130);
    const schema = { type: 'object', required: ['stars'], properties: { stars: { type: 'integer', minimum: 1, maximum: 5 } } };
    expect((await server.client.post('/custom_event_definitions', { slug: 'hook-review', name: 'Review', schema })).status).toBe(200);
    await subscribe(['custom_event.created']);
    expect((await server.client.post('/custom_events', { customer_id: 130, slug: 'hook-review', data: { stars: 9 } })).status).toBe(400);
    const created = await server.client.post('/custom_events', { id: 'review-1', customer_id: 130, slug: 'hook-review', data: { stars: 4 } });
    expect(created.status, created.text).toBe(200);
    expect((await server.client.post('/custom_events', { id: 'review-1', customer_id: 130, slug: 'hook-review', data: { stars: 5 } })).status).toBe(409);
    const [event] = await exactly(1);
    expect(event.type).toBe('custom_event.created');
    expect(event.data).toEqual(parsed((await server.client.get('/custom_events/review-1')).text));
  });

  it('game.played with the play\'s answer and its player; voucher.issued for a discount prize', async () => {
    await createCustomer(server.client, 140, { code: 'G140' });
    const prizeCampaign = await discount('Wheel prize');
    const wheel = async (prize: Record<string, unknown>) => {
      const res = await server.client.post('/games', {
        rule_params: { name: 'Hook wheel', select_customers: 'loyalty' },
        game: { type: 'wheel', config: { slices: 8 }, template: 'spin', game_prizes: [{ name: 'Prize', weight: 1, stock: -1, ...prize }] },
      });
      expect(res.status, res.text).toBe(200);
      return res.body.id as number;
    };
    const points = await wheel({ outcome: 'points', points: 50 });
    const voucher = await wheel({ outcome: 'discount', promotion_id: prizeCampaign });
    await subscribe(['game.played', 'voucher.issued']);
    const played = await server.client.post(`/games/${points}/play`, { customer_id: 140 });
    expect(played.status, played.text).toBe(200);
    const [event] = await exactly(1);
    expect(event).toMatchObject({ type: 'game.played', data: { customer_id: 140, customer_code: 'G140', ...parsed(played.text) } });
    expect(parsed(played.text).effects).toHaveLength(1);

    const won = await server.client.post(`/games/${voucher}/play`, { customer_id: 140 });
    const events = (await exactly(3)).slice(1);
    const issued = events.find((e) => e.type === 'voucher.issued')!;
    expect(JSON.parse(parsed(won.text).effects[0].game_info.outcome)).toMatchObject({ voucher_id: String(issued.data.id) });
    expect(issued.data).toEqual(await listedVoucher(140, issued.data.code));
    expect(events.find((e) => e.type === 'game.played')!.data).toEqual({ customer_id: 140, customer_code: 'G140', ...parsed(won.text) });
  });

  it('instant_win.won with the delivery, the customer and the winning event', async () => {
    await createCustomer(server.client, 150, { code: 'W150' });
    const points = await server.client.post('/points', { rule_params: { name: 'Prize points', rule_effects: [{ type: 'direct_value', value: 25, distribution: 'total' }] } });
    expect(points.status, points.text).toBe(200);
    const created = await server.client.post('/instant_wins', {
      rule_params: { name: 'Hook scratch', select_customers: 'loyalty', when: 'hook-luck' },
      instant_win: { instant_win_prizes: [{ name: 'Points', outcome: { promotion_type: 'points', promotion_id: points.body.id }, weight: 1, stock: -1 }] },
    });
    expect(created.status, created.text).toBe(200);
    await subscribe(['instant_win.won']);
    expect((await server.client.post('/trigger', { trigger: 'hook-luck', customer_id: 150 })).status).toBe(200);
    const [event] = await exactly(1);
    const [credited] = (await server.client.get('/points/transactions', { query: { customer_id: '150', origin_type: 'trigger' } })).body.data;
    expect(event).toMatchObject({ type: 'instant_win.won' });
    expect(event.data).toEqual({
      id: expect.any(Number), campaign_id: created.body.id, prize_id: expect.any(Number), customer_id: 150, customer_code: 'W150',
      type: 'points', promotion_id: points.body.id, status: 'delivered', points_transaction_id: credited.id, loyalty_rule_history_id: null,
      redemption_id: null, created_at: expect.any(String), origin: { type: 'trigger', location_id: null, origin_info: expect.objectContaining({ slug: 'hook-luck' }) },
    });
  });

  it('a targeted instant win: voucher.issued by POST /discounts/trigger, voucher.redeemed and instant_win.won by the POST /trigger that spends it', async () => {
    await createCustomer(server.client, 160, { code: 'W160' });
    const points = await server.client.post('/points', { rule_params: { name: 'Visit points', rule_effects: [{ type: 'direct_value', value: 5, distribution: 'total' }] } });
    const targeted = await server.client.post('/instant_wins', {
      rule_params: { name: 'Hook visit', select_customers: 'targeted', when: 'hook-visit' },
      instant_win: { instant_win_prizes: [{ name: 'Points', outcome: { promotion_type: 'points', promotion_id: points.body.id }, weight: 1, stock: -1 }] },
    });
    expect(targeted.status, targeted.text).toBe(200);
    await subscribe(['voucher.issued', 'voucher.redeemed', 'instant_win.won']);
    const issued = await server.client.post('/discounts/trigger', { customer_id: 160, loyalty_rule_id: targeted.body.id });
    expect(issued.status, issued.text).toBe(200);
    const [first] = await exactly(1);
    expect(first).toMatchObject({ type: 'voucher.issued', data: { id: issued.body.voucher_id, code: issued.body.voucher_code, status: 'active', coupon: null } });
    expect(first.data).toEqual(await listedVoucher(160, issued.body.voucher_code));

    expect((await server.client.post('/trigger', { trigger: 'hook-visit', customer_id: 160 })).status).toBe(200);
    const events = (await exactly(3)).slice(1);
    const redeemed = events.find((e) => e.type === 'voucher.redeemed')!;
    expect(redeemed.data).toEqual(await listedVoucher(160, issued.body.voucher_code));
    expect(redeemed.data).toMatchObject({ status: 'redeemed' });
    expect(events.find((e) => e.type === 'instant_win.won')!.data).toMatchObject({ campaign_id: targeted.body.id, customer_id: 160, status: 'delivered' });
  });
});
