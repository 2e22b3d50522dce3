/**
 * The counters over HTTP, against one real server: random sequences of commands among three customers that
 * consume and give back the limited things of a small set of campaigns, made afresh for each sequence: a 10%
 * discount with a budget of 0.50 a day (two 0.20 carts and a 0.10 one), a once-a-day discount of a cent, a
 * targeted points campaign whose voucher has 2 redemptions, a reward of 10 points with a stock of 3 and one
 * redemption per customer, an instant win of carts (prize stock 3, two participations per customer) and one of
 * a trigger (prize stock 2) whose prize is that reward, the trigger's points campaign (twice per customer) and a
 * custom event's points campaign (once per customer, within a budget of 0.15). Commands: carts (realtime or
 * `POST /carts`, named or anonymous, with the customer's voucher or without, of today or a day old: a till's
 * backlog), returns of a sale's line, cart cancellations (of sales, returns or mirrors, with a mirror id or
 * without), reward redemptions and rollbacks (of prizes too), voucher redemptions and rollbacks (of one code or
 * a list: all or nothing), `POST /discounts/redeem` of the budget's or the once campaign's static code,
 * triggers, custom events (new, or the customer's last one again), and any of them sent again as it was. A
 * model of the contract predicts each answer (200, or the refusal's status and code) and what each 200
 * consumed: the discount, the once campaign, the voucher's campaign, taking part in the instant win and
 * winning its prize in a cart's answer; the points and prize of a trigger's; the points of a custom event's.
 *
 * After every command it reads what the API shows of each counter (the budgets' `budget_spent`, the
 * discount's `budget_available`, each instant win's `available_stock`, each customer's
 * `remaining_participations` of the cart one and `missing_redeem_conditions` of the reward, the reward's
 * `available_stock` and `redemptions_quantity`, each voucher's `redemptions`, `available_redemptions` and
 * `status`) and checks:
 * - never beyond its limit (the discount's budget passes its value only through `POST /discounts/redeem`,
 *   which it does not refuse, docs/campaigns.md; `budget_available` then reads 0);
 * - what is consumed is what the 200s granted minus what the documented undos gave back: a cancellation gives
 *   back the cart's budget, once use, instant-win participation, voucher redemption (none below 0: one given
 *   back already by `POST /vouchers/rollback` is not given back twice) and prize, whose stock comes back and
 *   whose redemption is reverted unless a rollback reverted it already; a reward rollback gives back the
 *   reward's unit and the customer's use, not the instant win's stock; a voucher rollback a redemption;
 *   `POST /discounts/redeem` adds to the budget and to the customer's once uses, refused by neither; a return
 *   gives no budget back (docs/decisions.md, "A return gives no budget back"), uses no once limit or voucher,
 *   and takes no part in the cart instant win (it buys nothing); a back-dated sale consumes its own
 *   day's budget and once limit, and its cancellation gives them back there; a grant cut by a budget grants what
 *   is left; a cart sent again is 409 `duplicate_id` by `/carts/realtime` and 200 by `POST /carts` (its error
 *   deferred), consuming nothing either way;
 * - a refusal changes nothing (no partial write), and a cancellation, rollback or custom event sent again as it
 *   was within 5 minutes is answered as the first (common rule 8), while another cancellation or rollback of
 *   the same record is 409.
 * Once uses and the trigger's limit are read through the answers that depend on them (the next cart's
 * discount, the next trigger's or event's points), which the model predicts.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { balance, createCustomer, triggerCampaign } from '../server/src/points/testing.js';
import { createReward, LOCATION } from '../server/src/rewards/testing.js';
import { cartBody } from '../server/src/testing/carts.js';
import { startServer, type TestResponse, type TestServer } from '../server/src/testing/server.js';

// Fixed, so CI is repeatable; FUZZ_SEED and FUZZ_RUNS explore further by hand (fast-check prints the seed of a failure).
const SEED = Number(process.env.FUZZ_SEED ?? 20261128);
const RUNS = Number(process.env.FUZZ_RUNS ?? 40);
const CUSTOMERS = 3;
const DAY_MS = 86_400_000;
/** The day of an instant in the Company's timezone (UTC, the default): the key of a `num_day` period. */
const dayOf = (at: Date) => at.toISOString().slice(0, 10);
/** The discount's budget and what it takes from each 2.00 cart (10%), in cents: the third cart gets what is left. */
const BUDGET_CENTS = 50;
const CART_DISCOUNT_CENTS = 20;
/** What `POST /discounts/redeem` adds to the budget (not refused by it). */
const REDEEMED_CENTS = 20;
/** The once campaign's discount: a cent, so that the budget's 10% is 0.20 before or after it. */
const ONCE_CENTS = 1;
const VOUCHER_POINTS = 3;
const TRIGGER_POINTS = 10;
const TRIGGER_LIMIT = 2;
const PRIZE_STOCK = 3;
/** The cart instant win's once_limit: participations per customer (ever). */
const PARTICIPATIONS = 2;
/** The stock of the instant win the trigger draws (the same reward as its prize). */
const TRIGGER_PRIZE_STOCK = 2;
/** Points every sale with a customer earns (so that returns take points back). */
const CART_POINTS = 5;
const REWARD_STOCK = 3;
/** What the reward costs bought directly (a prize is given at no points cost). */
const REWARD_POINTS = 10;
const VOUCHER_USES = 2;
/**
 * The custom event's points campaign: 10 points once per customer within a budget of 0.15, its points' money
 * value: at the default point_value (0.01) a point is a cent, so the second grant is cut to 5 points.
 */
const EVENT_POINTS = 10;
const EVENT_CENTS = EVENT_POINTS;
const EVENT_BUDGET_CENTS = 15;

type Command =
  /**
   * A 2.00 sale; `c` null: anonymous (and so without voucher); `create`: sent to POST /carts instead of
   * /carts/realtime; `yesterday`: a till's backlog, dated a day ago.
   */
  | { kind: 'cart'; c: number | null; voucher: boolean; create: boolean; yesterday: boolean }
  /** A return of the one unit of a sale (picked among the run's sales), by the sale's customer. */
  | { kind: 'return'; pick: number }
  /** A cancellation of one of the run's carts (sales, returns or mirrors), with a new mirror id or without. */
  | { kind: 'cancel'; pick: number; mirrorId: boolean }
  | { kind: 'redeem'; c: number }
  /** A rollback of one of the run's reward redemptions, with one of two `status_detail`s. */
  | { kind: 'rollback'; pick: number; detail: 'a' | 'b' }
  /** Voucher redemptions and rollbacks of a list of the customers' codes (all or nothing; a code twice is 400). */
  | { kind: 'voucherRedeem'; cs: number[] }
  | { kind: 'voucherRollback'; cs: number[] }
  /** `POST /discounts/redeem` of a static code: the budget's (adds to it) or the once campaign's (counts a use). */
  | { kind: 'discountRedeem'; c: number; campaign: 'budget' | 'once' }
  | { kind: 'trigger'; c: number }
  /** A custom event of customer c: its last one's data again (duplicate suppression: answered as the first), or new data. */
  | { kind: 'event'; c: number; same: boolean }
  /** The previous command sent again as it was. */
  | { kind: 'repeat' };

const customer = fc.nat(CUSTOMERS - 1);
const pick = fc.nat(20);
/** Mostly one customer's code, sometimes several (seldom one twice). */
const codes = fc.oneof({ weight: 3, arbitrary: customer.map((c) => [c]) }, { weight: 2, arbitrary: fc.array(customer, { minLength: 2, maxLength: 3 }) });
const command: fc.Arbitrary<Command> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('cart' as const), c: fc.option(customer, { freq: 6 }), voucher: fc.boolean(), create: fc.boolean(), yesterday: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('return' as const), pick }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('cancel' as const), pick, mirrorId: fc.boolean() }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('redeem' as const), c: customer }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('rollback' as const), pick, detail: fc.constantFrom('a' as const, 'b' as const) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('voucherRedeem' as const), cs: codes }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('voucherRollback' as const), cs: codes }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('discountRedeem' as const), c: customer, campaign: fc.constantFrom('budget' as const, 'once' as const) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('trigger' as const), c: customer }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('event' as const), c: customer, same: fc.boolean() }) },
  { weight: 2, arbitrary: fc.constant({ kind: 'repeat' as const }) },
);

type Expected = { status: 200 } | { status: number; code: string };
const OK: Expected = { status: 200 };
const refused = (status: number, code: string): Expected => ({ status, code });

/** A cart the run stored, and what it consumed (given back by its cancellation). */
interface Cart {
  id: number;
  customer: number | null;
  kind: 'sale' | 'return' | 'mirror';
  /** The day of the sale, whose budget and once limit it consumed. */
  day: string;
  budget: number;
  once: boolean;
  voucher: boolean;
  /** Whether it took part in the cart instant win, and the prize it won: a redemption of the reward. */
  tookPart: boolean;
  prize?: Redemption;
  /** A return: its ticket, and whether it moved points (read from its answer: returned-points.test.ts checks the amounts). */
  ticket?: Cart;
  movedPoints?: boolean;
  /** Its cancellation: the body that succeeded and the answer (an identical one within 5 minutes is answered again). */
  cancelled?: { body: string; answer: unknown };
}

interface Redemption {
  id: number;
  customer: number;
  /** Reverted by a rollback (its `status_detail` and answer) or by the cancellation of the cart that won it (no detail). */
  reverted?: { detail?: string; answer?: unknown };
}

/** The campaigns of one run (each run makes its own and switches them off at its end). */
interface Campaigns {
  budget: number;
  staticCode: string;
  once: number;
  onceCode: string;
  voucher: number;
  trigger: string;
  triggerPoints: number;
  instantWin: number;
  triggerWin: number;
  cartPoints: number;
  event: string;
  eventPoints: number;
  reward: number;
}

/** One sequence of commands on fresh customers and campaigns, and the model it is checked against. */
class Run {
  private readonly customers: number[];
  private readonly codes: string[];
  private campaigns!: Campaigns;
  private readonly carts: Cart[] = [];
  private readonly redemptions: Redemption[] = [];
  private nextCart: number;
  private previous: Command | undefined;
  /** The previous command's cart id and mirror id, so that a repeat sends the same ids. */
  private previousIds: { cart?: number; mirror?: number; cancelled?: Cart } = {};
  /** The discount's budget spent, in cents, by day (its period is `num_day`). */
  private readonly budgetSpent = new Map<string, number>();
  /** Uses of the once campaign by customer and day (`c day`): a cart counts one (given back by its cancellation), `POST /discounts/redeem` one more, not refused. */
  private readonly onceUses = new Map<string, number>();
  private readonly triggers: number[];
  private readonly voucherRedemptions: number[];
  /** Each customer's voucher's issue day (its `created_at`'s, in the Company's timezone). */
  private readonly voucherIssueDays: string[] = [];
  private prizesWon = 0;
  private triggerPrizesWon = 0;
  private readonly participations: number[];
  private readonly eventUses: number[];
  private eventBudgetSpent = 0;
  /** Per customer, its last custom event that was run (not answered again), and the answer. */
  private readonly events: ({ body: Record<string, unknown>; answer: unknown } | undefined)[] = [];

  constructor(
    private readonly server: TestServer,
    private readonly n: number,
  ) {
    this.customers = Array.from({ length: CUSTOMERS }, (_, i) => n * 100 + i);
    this.codes = this.customers.map((id) => `V${id}`);
    this.nextCart = n * 1000;
    this.triggers = this.customers.map(() => 0);
    this.eventUses = this.customers.map(() => 0);
    this.participations = this.customers.map(() => 0);
    this.voucherRedemptions = this.customers.map(() => 0);
  }

  private get client() {
    return this.server.client;
  }

  private async ok(res: Promise<TestResponse>): Promise<any> {
    const r = await res;
    expect(r.status, r.text).toBe(200);
    return r.body;
  }

  private answer(res: TestResponse, expected: Expected, what: string): void {
    expect(res.status, `${what}: ${res.text}`).toBe(expected.status);
    if (expected.status === 200) return;
    expect(Object.keys(res.body ?? {}).sort(), `${what}: ${res.text}`).toEqual(['code', 'error']);
    expect(res.body.code, `${what}: ${res.text}`).toBe((expected as { code: string }).code);
  }

  async setUp(): Promise<void> {
    const { client, n } = this;
    for (const id of this.customers) await createCustomer(client, id);
    const staticCode = `B${n}`;
    const budget = await this.ok(client.post('/discounts', {
      rule_params: { name: `Budget ${n}`, budget_value: BUDGET_CENTS / 100, budget_period: 'num_day', rule_effects: [{ type: 'percentage', value: 10, distribution: 'individual_items' }] },
      coupon_params: { static_code: staticCode },
    }));
    // A discount, so that its static code can be redeemed by POST /discounts/redeem (discount campaigns only).
    const once = await this.ok(client.post('/discounts', {
      rule_params: { name: `Once ${n}`, once: 'num_day', once_limit: 1, rule_effects: [{ type: 'direct_value', value: ONCE_CENTS / 100, distribution: 'total' }] },
      coupon_params: { static_code: `O${n}` },
    }));
    const voucher = await this.ok(client.post('/points', {
      rule_params: { name: `Voucher ${n}`, select_customers: 'targeted', rule_effects: [{ type: 'direct_value', value: VOUCHER_POINTS, distribution: 'total_cart' }] },
      coupon_params: { max_redemptions: VOUCHER_USES },
    }));
    for (const [i, id] of this.customers.entries()) {
      await this.ok(client.post('/discounts/trigger', { customer_id: id, loyalty_rule_id: voucher.id, external_voucher_code: this.codes[i] }));
      this.voucherIssueDays[i] = dayOf(new Date((await this.ok(client.get(`/vouchers/${this.codes[i]}`))).created_at));
    }
    const trigger = `visit${n}`;
    const triggerPoints = await triggerCampaign(client, trigger, TRIGGER_POINTS, { once: 'always', once_limit: TRIGGER_LIMIT });
    const cartPoints = await this.ok(client.post('/points', {
      rule_params: { name: `Points ${n}`, rule_effects: [{ type: 'direct_value', value: CART_POINTS, distribution: 'total_cart' }] },
    }));
    // The instant win's prize is the reward redeemed directly: a win takes a unit of the prize's stock and one of
    // the reward's, and the customer's one redemption of it.
    const reward = await createReward(client, { name: `Mug ${n}`, points: REWARD_POINTS, total_stock: REWARD_STOCK, redeem_times: 1, redeem_chances: 'always' });
    const instantWin = await this.ok(client.post('/instant_wins', {
      rule_params: { name: `Scratch ${n}`, select_customers: 'loyalty', once: 'always', once_limit: PARTICIPATIONS },
      instant_win: { instant_win_prizes: [{ name: `Prize ${n}`, outcome: { promotion_type: 'reward', promotion_id: reward }, weight: 1, stock: PRIZE_STOCK }] },
    }));
    const event = `event${n}`;
    const definition = await this.ok(client.post('/custom_event_definitions', { slug: event, schema: { type: 'object' } }));
    const eventPoints = await this.ok(client.post('/points', {
      rule_params: {
        name: `Event ${n}`, custom_entity_definition_id: definition.id, once: 'always', once_limit: 1, budget_value: EVENT_BUDGET_CENTS / 100,
        rule_effects: [{ type: 'direct_value', value: EVENT_POINTS, distribution: 'total' }],
      },
    }));
    const triggerWin = await this.ok(client.post('/instant_wins', {
      rule_params: { name: `Spin ${n}`, select_customers: 'loyalty', when: trigger },
      instant_win: { instant_win_prizes: [{ name: `Prize ${n}`, outcome: { promotion_type: 'reward', promotion_id: reward }, weight: 1, stock: TRIGGER_PRIZE_STOCK }] },
    }));
    this.campaigns = {
      budget: budget.id, staticCode, once: once.id, onceCode: `O${n}`, voucher: voucher.id, trigger, triggerPoints, instantWin: instantWin.id, triggerWin: triggerWin.id, cartPoints: cartPoints.id,
      event, eventPoints: eventPoints.id, reward,
    };
  }

  /** Switches the run's campaigns off, so that the next run's carts meet only its own. */
  async tearDown(): Promise<void> {
    const { client, campaigns: c } = this;
    for (const id of [c.budget, c.once]) await this.ok(client.patch(`/discounts/${id}`, { rule_params: { active: false } }));
    for (const id of [c.voucher, c.cartPoints, c.eventPoints]) await this.ok(client.patch(`/points/${id}`, { rule_params: { active: false } }));
    for (const id of [c.instantWin, c.triggerWin]) await this.ok(client.patch(`/instant_wins/${id}`, { rule_params: { active: false } }));
  }

  private resolve(cmd: Command): Command {
    return cmd.kind === 'repeat' ? (this.previous ?? cmd) : cmd;
  }

  async step(picked: Command): Promise<Command> {
    const cmd = this.resolve(picked);
    const repeat = picked.kind === 'repeat';
    if (!repeat) this.previousIds = {};
    await this.run(cmd, repeat);
    if (picked.kind !== 'repeat') this.previous = cmd;
    return cmd;
  }

  private cartId(repeat: boolean): number {
    if (repeat && this.previousIds.cart !== undefined) return this.previousIds.cart;
    return (this.previousIds.cart = this.nextCart++);
  }

  private async run(cmd: Command, repeat: boolean): Promise<void> {
    const what = `${JSON.stringify(cmd)}${repeat ? ' (a repeat)' : ''}`;
    switch (cmd.kind) {
      case 'repeat':
        return;
      case 'cart':
        return this.cart(cmd, repeat, what);
      case 'return':
        return this.giveBack(cmd.pick, repeat, what);
      case 'cancel':
        return this.cancel(cmd.pick, cmd.mirrorId, repeat, what);
      case 'redeem':
        return this.redeem(cmd.c, what);
      case 'rollback':
        return this.rollback(cmd.pick, cmd.detail, what);
      case 'voucherRedeem':
        return this.vouchers('redeem', cmd.cs, what);
      case 'voucherRollback':
        return this.vouchers('rollback', cmd.cs, what);
      case 'discountRedeem':
        return this.discountRedeem(cmd.c, cmd.campaign, what);
      case 'trigger':
        return this.trigger(cmd.c, what);
      case 'event':
        return this.event(cmd.c, cmd.same, what);
    }
  }

  private spent(day: string): number {
    return this.budgetSpent.get(day) ?? 0;
  }

  private spend(day: string, cents: number): void {
    this.budgetSpent.set(day, this.spent(day) + cents);
  }

  private uses(c: number, day: string): number {
    return this.onceUses.get(`${c} ${day}`) ?? 0;
  }

  private use(c: number, day: string, uses: number): void {
    this.onceUses.set(`${c} ${day}`, this.uses(c, day) + uses);
  }

  /** Whether the answer won the run's instant-win prize (an instant_win effect without prize data is taking part without winning). */
  private won(body: any, instantWin = this.campaigns.instantWin): boolean {
    return (body.effects as { rule_id: number; prize_name?: string }[]).some((e) => Number(e.rule_id) === instantWin && e.prize_name !== undefined);
  }

  /** Whether the answer's effects hold a campaign's. */
  private applied(body: any, campaign: number): boolean {
    return (body.effects as { rule_id: number }[]).some((e) => Number(e.rule_id) === campaign);
  }

  private async cart({ c, voucher, create, yesterday }: Command & { kind: 'cart' }, repeat: boolean, what: string): Promise<void> {
    const id = this.cartId(repeat);
    const at = new Date(Date.now() - (yesterday ? DAY_MS : 0));
    const day = dayOf(at);
    const fields: Record<string, unknown> = { id, creation_date: at.toISOString().slice(0, 19) + 'Z' };
    if (c !== null) fields.customer_id = this.customers[c];
    if (c !== null && voucher) fields.coupons_desired = [this.codes[c]];
    const res = await this.client.post(create ? '/carts' : '/carts/realtime', cartBody(2, fields));
    // The same id again is a duplicate, and consumes nothing: refused by realtime, answered 200 by POST /carts (its
    // evaluation, not stored; the error deferred onto the stored cart, docs/carts.md).
    const duplicate = this.carts.some((x) => x.id === id);
    this.answer(res, duplicate && !create ? refused(409, 'duplicate_id') : OK, what);
    if (duplicate) return;
    // The budget and the once limit count on the day of the sale (docs/decisions.md, "Counters and daily metrics
    // count on the day of the sale").
    const left = BUDGET_CENTS - this.spent(day);
    const budget = Math.min(CART_DISCOUNT_CENTS, Math.max(0, left));
    // A once limit needs a customer to count against (docs/decisions.md); so does a loyalty instant win.
    const once = c !== null && this.uses(c, day) < 1;
    // The voucher has no start of its own (its coupon sets none): it is pending for a sale of a day before the one
    // it was issued (docs/decisions.md, "A cart judges its vouchers' dates on the day of the sale"), so a sale of
    // yesterday does not use it (unless the voucher was issued yesterday too: a run across midnight).
    const usesVoucher = c !== null && voucher && day >= this.voucherIssueDays[c] && this.voucherRedemptions[c] < VOUCHER_USES;
    expect(Math.round(res.body.total_discount_applied * 100), `${what}: the discount (budget left on ${day}: ${left})`).toBe(budget + (once ? ONCE_CENTS : 0));
    expect(this.applied(res.body, this.campaigns.once), `${what}: the once campaign`).toBe(once);
    expect(this.applied(res.body, this.campaigns.voucher), `${what}: the voucher's campaign`).toBe(usesVoucher);
    this.spend(day, budget);
    if (once) this.use(c!, day, 1);
    if (usesVoucher) this.voucherRedemptions[c!]++;
    this.carts.push({ id, customer: c, kind: 'sale', day, budget, once, voucher: usesVoucher, ...(await this.draw(c, res.body, what)) });
  }

  private async giveBack(n: number, repeat: boolean, what: string): Promise<void> {
    const sales = this.carts.filter((x) => x.kind === 'sale');
    if (sales.length === 0) return;
    const ticket = sales[n % sales.length];
    const id = this.cartId(repeat);
    const fields: Record<string, unknown> = {
      id,
      lines: [{ order: 1, product_id: 1, total: -2, quantity: -1 }],
      returns: [{ line_order: 1, ticket_id: ticket.id, from_line_order: 1, quantity: 1 }],
    };
    if (ticket.customer !== null) fields.customer_id = this.customers[ticket.customer];
    const res = await this.client.post('/carts/realtime', cartBody(-2, fields));
    const duplicate = this.carts.some((x) => x.id === id);
    this.answer(res, duplicate ? refused(409, 'duplicate_id') : OK, what);
    if (duplicate) return;
    // A return gives no budget back (docs/decisions.md) and takes no discount (a negative line), uses no once
    // limit (it earns no points) and no voucher (none sent); it buys nothing, so it takes no part in the instant
    // win (docs/decisions.md, "A cart that buys nothing takes no part in instant wins").
    expect(Math.round(res.body.total_discount_applied * 100), `${what}: the discount`).toBe(0);
    expect(this.applied(res.body, this.campaigns.once), `${what}: the once campaign`).toBe(false);
    expect(this.applied(res.body, this.campaigns.voucher), `${what}: the voucher's campaign`).toBe(false);
    const drawn = await this.draw(null, res.body, what);
    const movedPoints = res.body.score_returned_from_customer !== 0 || res.body.score_returned_to_customer !== 0;
    this.carts.push({ id, customer: ticket.customer, kind: 'return', day: dayOf(new Date()), budget: 0, once: false, voucher: false, ...drawn, ticket, movedPoints });
  }

  private async cancel(n: number, mirrorId: boolean, repeat: boolean, what: string): Promise<void> {
    if (this.carts.length === 0) return;
    // A repeat cancels the same cart again (the pick would now fall elsewhere: the mirror joined the list).
    const cart = repeat && this.previousIds.cancelled ? this.previousIds.cancelled : this.carts[n % this.carts.length];
    this.previousIds.cancelled = cart;
    const body: Record<string, unknown> = { cart_to_cancel_id: cart.id };
    let mirror: number | undefined;
    if (mirrorId) {
      mirror = repeat && this.previousIds.mirror !== undefined ? this.previousIds.mirror : this.nextCart++;
      this.previousIds.mirror = mirror;
      body.new_cart_id = mirror;
    }
    const text = JSON.stringify(body);
    const res = await this.client.post('/carts/cancellation', body);
    if (cart.cancelled?.body === text) {
      // Common rule 8: an identical cancellation within 5 minutes is answered as the first, nothing done.
      this.answer(res, OK, what);
      expect(res.body, `${what}: the first answer again`).toEqual(cart.cancelled.answer);
      return;
    }
    // The cart to cancel is judged before the mirror's id.
    const expected = cart.kind === 'mirror' ? refused(400, 'invalid_request')
      : cart.cancelled ? refused(409, 'conflict')
      // A return that moved points, of a ticket cancelled since, would give back what the ticket's cancellation settled.
      : cart.kind === 'return' && cart.movedPoints && cart.ticket!.cancelled ? refused(409, 'conflict')
      : mirror !== undefined && this.carts.some((x) => x.id === mirror) ? refused(409, 'duplicate_id')
      : OK;
    this.answer(res, expected, what);
    if (res.status !== 200) return;
    cart.cancelled = { body: text, answer: res.body };
    // Given back on the day it was taken (docs/carts.md, Cancellation).
    this.spend(cart.day, -cart.budget);
    if (cart.once) this.use(cart.customer!, cart.day, -1);
    // A redemption given back already by POST /vouchers/rollback is not given back twice: never below 0.
    if (cart.voucher) this.voucherRedemptions[cart.customer!] = Math.max(0, this.voucherRedemptions[cart.customer!] - 1);
    if (cart.tookPart) this.participations[cart.customer!]--;
    if (cart.prize) {
      // The prize's stock comes back; its redemption is reverted unless a rollback reverted it already.
      this.prizesWon--;
      cart.prize.reverted ??= {};
    }
    this.carts.push({ id: Number(res.body.id ?? mirror), customer: cart.customer, kind: 'mirror', day: dayOf(new Date()), budget: 0, once: false, voucher: false, tookPart: false });
  }

  /**
   * The cart instant win in a cart's answer (c null: no part, an anonymous cart or one buying nothing): customer c takes part up to its once_limit (a participation given
   * back by the cart's cancellation), whether it wins or not; it wins while the prize can be given (`wins`).
   */
  private async draw(c: number | null, body: any, what: string): Promise<{ tookPart: boolean; prize?: Redemption }> {
    const tookPart = c !== null && this.participations[c] < PARTICIPATIONS;
    const prize = tookPart && this.wins(c);
    expect(this.applied(body, this.campaigns.instantWin), `${what}: the instant win taken part in`).toBe(tookPart);
    expect(this.won(body), `${what}: the instant win's prize`).toBe(prize);
    if (!tookPart) return { tookPart };
    this.participations[c!]++;
    if (!prize) return { tookPart };
    this.prizesWon++;
    return { tookPart, prize: await this.delivered(c!, what) };
  }

  /**
   * Whether a cart of customer c wins the instant win's prize: a customer, prize stock left, and the reward can be
   * handed over (stock left, and c holds none: redeem_times 1), else the draw is "no prize" (docs/games.md).
   */
  private wins(c: number | null, stockLeft = this.prizesWon < PRIZE_STOCK): boolean {
    const held = this.redemptions.filter((r) => !r.reverted);
    return c !== null && stockLeft && held.length < REWARD_STOCK && !held.some((r) => r.customer === c);
  }

  /** The redemption delivering a prize customer c won: the customer's newest. */
  private async delivered(c: number, what: string): Promise<Redemption> {
    const list = await this.ok(this.client.get('/rewards/transactions', { query: { customer_id: String(this.customers[c]), per_page: '1' } }));
    const id = Number(list.data[0]?.id);
    expect(this.redemptions.some((r) => r.id === id), `${what}: the prize's redemption ${id} is new`).toBe(false);
    const redemption = { id, customer: c };
    this.redemptions.push(redemption);
    return redemption;
  }

  private async redeem(c: number, what: string): Promise<void> {
    // The points are the ledger's (not modelled here: customer-merges and returned-points check them), read before.
    const { score_available: points } = await balance(this.client, this.customers[c]);
    const res = await this.client.post(`/rewards/${this.campaigns.reward}/redeem`, { location_id: LOCATION.id, customer_id: this.customers[c] });
    const held = this.redemptions.filter((r) => !r.reverted);
    // In the documented order: redeem_times reached, or out of stock, 409 conflict; then too few points, 402.
    const expected = held.some((r) => r.customer === c) || held.length >= REWARD_STOCK ? refused(409, 'conflict')
      : points < REWARD_POINTS ? refused(402, 'customer_not_enough_score')
      : OK;
    this.answer(res, expected, what);
    if (res.status === 200) this.redemptions.push({ id: Number(res.body.redemption_id), customer: c });
  }

  private async rollback(n: number, detail: string, what: string): Promise<void> {
    if (this.redemptions.length === 0) return;
    const redemption = this.redemptions[n % this.redemptions.length];
    const res = await this.client.post(`/rewards/transactions/${redemption.id}/rollback`, { status_detail: detail });
    if (redemption.reverted?.detail === detail) {
      this.answer(res, OK, what);
      expect(res.body, `${what}: the first answer again`).toEqual(redemption.reverted.answer);
      return;
    }
    this.answer(res, redemption.reverted ? refused(409, 'conflict') : OK, what);
    if (res.status === 200) redemption.reverted = { detail, answer: res.body };
  }

  /**
   * One redemption of each voucher listed, or one given back; all or nothing (docs/coupons-vouchers.md): the
   * first voucher that cannot is the refusal (used up: 402 `voucher_redeemed`; none to give back: 400), and the
   * others are left as they were. One customer's code is sent with the customer; several without (the code is
   * the credential).
   */
  private async vouchers(operation: 'redeem' | 'rollback', cs: number[], what: string): Promise<void> {
    const body: Record<string, unknown> = { codes: cs.map((c) => this.codes[c]) };
    if (cs.length === 1) body.customer_id = this.customers[cs[0]];
    if (operation === 'redeem') body.location_id = LOCATION.id;
    const res = await this.client.post(`/vouchers/${operation}`, body);
    const step = operation === 'redeem' ? 1 : -1;
    const blocked = (c: number) => (operation === 'redeem' ? this.voucherRedemptions[c] >= VOUCHER_USES : this.voucherRedemptions[c] === 0);
    const expected = new Set(cs).size < cs.length ? refused(400, 'invalid_request')
      : cs.some(blocked) ? (operation === 'redeem' ? refused(402, 'voucher_redeemed') : refused(400, 'invalid_request'))
      : OK;
    this.answer(res, expected, what);
    if (res.status !== 200) return;
    for (const c of cs) this.voucherRedemptions[c] += step;
  }

  private async discountRedeem(c: number, campaign: 'budget' | 'once', what: string): Promise<void> {
    const res = await this.client.post('/discounts/redeem', {
      static_code: campaign === 'budget' ? this.campaigns.staticCode : this.campaigns.onceCode, customer_id: this.customers[c], cart_id: this.nextCart++, discount: REDEEMED_CENTS,
    });
    // Refused by neither the budget nor the once limit: the discount was already given (docs/decisions.md).
    this.answer(res, OK, what);
    // Counted today, the redemption's day.
    if (campaign === 'budget') this.spend(dayOf(new Date()), REDEEMED_CENTS);
    else this.use(c, dayOf(new Date()), 1);
  }

  private async trigger(c: number, what: string): Promise<void> {
    const res = await this.client.post('/trigger', { trigger: this.campaigns.trigger, customer_id: this.customers[c] });
    this.answer(res, OK, what);
    const grants = this.triggers[c] < TRIGGER_LIMIT;
    expect(this.applied(res.body, this.campaigns.triggerPoints), `${what}: the trigger's points (${this.triggers[c]} granted before)`).toBe(grants);
    if (grants) this.triggers[c]++;
    // Its instant win draws the reward too; nothing gives a trigger's prize back but the reward's rollback.
    const prize = this.wins(c, this.triggerPrizesWon < TRIGGER_PRIZE_STOCK);
    expect(this.won(res.body, this.campaigns.triggerWin), `${what}: the trigger's instant-win prize`).toBe(prize);
    if (!prize) return;
    this.triggerPrizesWon++;
    await this.delivered(c, what);
  }

  private async event(c: number, same: boolean, what: string): Promise<void> {
    const last = this.events[c];
    const body = same && last ? last.body : { slug: this.campaigns.event, customer_id: this.customers[c], data: { n: this.nextCart++ } };
    const res = await this.client.post('/custom_events', body);
    this.answer(res, OK, what);
    if (last && JSON.stringify(body) === JSON.stringify(last.body)) {
      // Common rule 8: the same event of the customer within 5 minutes is answered as the first, nothing granted again.
      expect(res.body, `${what}: the first answer again`).toEqual(last.answer);
      return;
    }
    this.events[c] = { body, answer: res.body };
    // Once per customer, within the campaign's budget: its points' money value, the last grant cut to what is left
    // (as a cart's budget is filled), none once it is spent (docs/decisions.md).
    const cents = this.eventUses[c] < 1 ? Math.min(EVENT_CENTS, EVENT_BUDGET_CENTS - this.eventBudgetSpent) : 0;
    const granted = (res.body.effects as { rule_id: number; value: number }[]).filter((e) => Number(e.rule_id) === this.campaigns.eventPoints).map((e) => e.value);
    expect(granted, `${what}: the event's points (budget spent ${this.eventBudgetSpent})`).toEqual(cents > 0 ? [cents] : []);
    if (cents === 0) return;
    this.eventUses[c]++;
    this.eventBudgetSpent += cents;
  }

  /** The counters, read from the server. */
  async check(after: string): Promise<void> {
    const { client, campaigns: c } = this;
    const events = await this.ok(client.get(`/points/${c.eventPoints}`));
    expect(Math.round(events.budget_spent * 100), `after ${after}: the event campaign's budget_spent`).toBe(this.eventBudgetSpent);
    const budget = await this.ok(client.get(`/discounts/${c.budget}`));
    // Today's period: what the next cart of today is checked against.
    const today = this.spent(dayOf(new Date()));
    expect(Math.round(budget.budget_spent * 100), `after ${after}: budget_spent`).toBe(today);
    expect(Math.round(budget.budget_available * 100), `after ${after}: budget_available`).toBe(Math.max(0, BUDGET_CENTS - today));
    const win = await this.ok(client.get(`/instant_wins/${c.instantWin}`));
    expect(win.instant_win.instant_win_prizes[0].available_stock, `after ${after}: the prize's available_stock`).toBe(PRIZE_STOCK - this.prizesWon);
    const spin = await this.ok(client.get(`/instant_wins/${c.triggerWin}`));
    expect(spin.instant_win.instant_win_prizes[0].available_stock, `after ${after}: the trigger's prize's available_stock`).toBe(TRIGGER_PRIZE_STOCK - this.triggerPrizesWon);
    const held = this.redemptions.filter((r) => !r.reverted);
    const reward = await this.ok(client.get(`/rewards/${c.reward}`));
    expect([reward.available_stock, reward.redemptions_quantity], `after ${after}: the reward's available_stock and redemptions_quantity`)
      .toEqual([REWARD_STOCK - held.length, held.length]);
    for (const [i, id] of this.customers.entries()) {
      const mine = await this.ok(client.get(`/rewards/${c.reward}`, { query: { customer_id: String(id) } }));
      const reasons = (mine.missing_redeem_conditions as [string, string][]).map(([reason]) => reason).sort();
      const { score_available: points } = await balance(client, id);
      const expected = [
        ...(held.some((r) => r.customer === i) ? ['redeem_times'] : []),
        ...(held.length >= REWARD_STOCK ? ['stock'] : []),
        ...(points < REWARD_POINTS ? ['points'] : []),
      ].sort();
      expect(reasons, `after ${after}: customer ${id}'s missing_redeem_conditions`).toEqual(expected);
      const scratch = await this.ok(client.get(`/instant_wins/${c.instantWin}`, { query: { customer_id: String(id) } }));
      expect(scratch.remaining_participations, `after ${after}: customer ${id}'s remaining_participations`).toBe(PARTICIPATIONS - this.participations[i]);
      const voucher = await this.ok(client.get(`/vouchers/${this.codes[i]}`));
      const used = this.voucherRedemptions[i];
      expect({ redemptions: voucher.redemptions, available: voucher.available_redemptions, status: voucher.status }, `after ${after}: voucher ${this.codes[i]}`)
        .toEqual({ redemptions: used, available: VOUCHER_USES - used, status: used >= VOUCHER_USES ? 'redeemed' : 'active' });
    }
  }
}

describe('counters', () => {
  let server: TestServer;
  let runs = 0;

  beforeAll(async () => {
    server = await startServer({ env: { POINTS_SETTLEMENT_INTERVAL_MS: '0' } });
    expect((await server.client.post('/locations', LOCATION)).status).toBe(200);
    // Carts are cancelled right after they are made (the contract's 5 minutes is a Company setting, 0 allowed).
    expect((await server.client.patch('/company', { cart_cancellation_wait_seconds: 0 })).status).toBe(200);
  });
  afterAll(() => server?.dispose());

  it('answer as the contract says, and consume and give back each counter exactly, never beyond its limit', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(command, { minLength: 5, maxLength: 25 }), async (commands) => {
        runs++;
        const run = new Run(server, runs);
        await run.setUp();
        for (const [n, picked] of commands.entries()) {
          const cmd = await run.step(picked);
          await run.check(`command ${n + 1}, ${JSON.stringify(cmd)}`);
        }
        await run.tearDown();
      }),
      // No shrinking: each attempt replays a sequence over HTTP; the counterexample is short enough to read.
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
  }, 240_000);
});
