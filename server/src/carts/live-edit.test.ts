import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cartBody } from '../testing/carts.js';
import { startServer, type TestResponse, type TestServer } from '../testing/server.js';

// A back office editing live while tills stream realtime carts on two writers: a change counts from the next cart,
// and a cart evaluated before a change but committed after it is evaluated again with the campaigns as they are then.
const BURST = 240;
const CUSTOMERS = 3;

describe('campaigns edited while realtime carts stream', () => {
  let server: TestServer;
  let nextCart = 1;

  beforeAll(async () => {
    server = await startServer({ env: { WORKERS: '2', REALTIME_WORKERS: '2' } });
    for (let id = 1; id <= CUSTOMERS; id++) await server.client.post('/customers', { id, name: `C${id}`, registration_location_id: 1 });
  });
  afterAll(async () => {
    await server.dispose();
  });

  async function discount(name: string): Promise<string> {
    const res = await server.client.post('/discounts', {
      rule_params: { name, budget_value: 100000, rule_effects: [{ type: 'percentage', value: 10, distribution: 'individual_items' }] },
    });
    expect(res.status, res.text).toBe(200);
    return String(res.body.id);
  }

  const budgetSpent = async (id: string): Promise<number> => (await server.client.get(`/discounts/${id}`)).body.budget_spent;
  const realtime = () => server.client.post('/carts/realtime', cartBody(2, { id: nextCart, customer_id: (nextCart++ % CUSTOMERS) + 1 }));
  const simulate = (i: number) => server.client.post('/carts/simulate', cartBody(2, { customer_id: (i % CUSTOMERS) + 1 }));
  const from = (res: TestResponse, campaign: string) => res.body.effects.filter((e: { rule_id: number }) => String(e.rule_id) === campaign);

  /**
   * Streams BURST realtime carts, applies `change` once a sixth of them are answered, then reads the campaign's
   * budget_spent and simulates a burst on both workers; returns the answers and both budget readings.
   */
  async function streamAround(campaign: string, change: () => Promise<TestResponse>) {
    let answered = 0;
    let changed!: () => void;
    const due = new Promise<void>((resolve) => (changed = resolve));
    const carts = Array.from({ length: BURST }, () => realtime().then((res) => {
      if (++answered === BURST / 6) changed();
      return res;
    }));
    await due;
    // Reads polled around the change: the first that sees it gives the budget spent when it committed (or just after).
    let editing = true;
    const readings: { changed: boolean; spent: number }[] = [];
    const poll = async () => {
      while (editing) {
        const read = (await server.client.get(`/discounts/${campaign}`)).body;
        readings.push({ changed: !read.active || read.budget_value < 1, spent: read.budget_spent });
      }
    };
    const polling = Promise.all([poll(), poll(), poll(), poll()]);
    const edit = await change();
    editing = false;
    await polling;
    expect(edit.status, edit.text).toBe(200);
    const spentAtChange = Math.min(await budgetSpent(campaign), ...readings.filter((r) => r.changed).map((r) => r.spent));
    const simulated = await Promise.all(Array.from({ length: 20 }, (_, i) => simulate(i)));
    const carted = await Promise.all(carts);
    return { carted, simulated, spentAtChange, spentAfter: await budgetSpent(campaign) };
  }

  it('a campaign switched off mid-stream: no cart committed after the switch takes it, the next simulations on both workers lack it', async () => {
    const campaign = await discount('Ten percent, switched off');
    const { carted, simulated, spentAtChange, spentAfter } = await streamAround(campaign, () => server.client.patch(`/discounts/${campaign}`, { rule_params: { active: false } }));
    expect(carted.map((r) => r.status)).toEqual(Array(BURST).fill(200));
    // Each answer is whole: 0.20 off and its effect, or neither.
    for (const res of carted) expect(res.body.total_discount_applied).toBe(from(res, campaign).length === 1 ? 0.2 : 0);
    const granted = carted.reduce((sum, r) => sum + from(r, campaign).length * 0.2, 0);
    expect(spentAfter).toBeCloseTo(granted, 9);
    expect(spentAfter).toBe(spentAtChange);
    expect(granted).toBeGreaterThan(0);
    for (const res of simulated) expect(from(res, campaign)).toEqual([]);
  });

  it('a budget lowered mid-stream: no cart committed after the change spends beyond it, counters equal the answers', async () => {
    const campaign = await discount('Ten percent, budget cut');
    const { carted, simulated, spentAtChange, spentAfter } = await streamAround(campaign, () => server.client.patch(`/discounts/${campaign}`, { rule_params: { budget_value: 0.01 } }));
    expect(carted.map((r) => r.status)).toEqual(Array(BURST).fill(200));
    const granted = carted.reduce((sum, r) => sum + from(r, campaign).length * 0.2, 0);
    expect(spentAfter).toBeCloseTo(granted, 9);
    expect(spentAfter).toBe(spentAtChange);
    for (const res of simulated) expect(from(res, campaign)).toEqual([]);
    const read = await server.client.get(`/discounts/${campaign}`);
    expect(read.body.budget_available).toBe(0);
  });
});

describe('a voucher frozen and a coupon deleted while realtime carts listing them stream', () => {
  let server: TestServer;
  let nextCart = 1;
  let campaign: number;

  beforeAll(async () => {
    server = await startServer({ env: { WORKERS: '2', REALTIME_WORKERS: '2' } });
    await server.client.post('/customers', { id: 1, name: 'C1', registration_location_id: 1 });
    const res = await server.client.post('/discounts', {
      rule_params: { name: 'One off', select_customers: 'targeted', rule_effects: [{ type: 'direct_value', value: 1, distribution: 'total' }] },
      coupon_params: { name: 'One off coupon', max_redemptions: 10000 },
    });
    expect(res.status, res.text).toBe(200);
    campaign = res.body.id;
    for (const code of ['FROZEN1', 'DELETED1']) {
      expect((await server.client.post('/discounts/trigger', { customer_id: 1, loyalty_rule_id: campaign, external_voucher_code: code })).status).toBe(200);
    }
  });
  afterAll(async () => {
    await server.dispose();
  });

  /** Streams realtime carts listing `code`, applies `change` once a sixth are answered; the voucher's redemptions when the change was first seen and at the end. */
  async function streamAround(code: string, change: () => Promise<TestResponse>) {
    let answered = 0;
    let changed!: () => void;
    const due = new Promise<void>((resolve) => (changed = resolve));
    const carts = Array.from({ length: BURST }, () => server.client.post('/carts/realtime', cartBody(10, { id: nextCart++, customer_id: 1, coupons_desired: [code] })).then((res) => {
      if (++answered === BURST / 6) changed();
      return res;
    }));
    await due;
    let editing = true;
    const readings: { status: string; redemptions: number }[] = [];
    const poll = async () => {
      while (editing) readings.push((await server.client.get(`/vouchers/${code}`)).body);
    };
    const polling = Promise.all([poll(), poll(), poll(), poll()]);
    const edit = await change();
    editing = false;
    await polling;
    expect(edit.status, edit.text).toBe(200);
    const answers = await Promise.all(carts);
    const final = (await server.client.get(`/vouchers/${code}`)).body;
    const seen = readings.filter((r) => r.status === final.status).map((r) => r.redemptions);
    const used = answers.filter((r) => r.body.effects.some((e: { coupon_info?: { voucher_code?: string } }) => e.coupon_info?.voucher_code === code)).length;
    return { answers, final, atChange: Math.min(final.redemptions, ...seen), used };
  }

  it('a frozen voucher is used by no cart committed after the freeze; its redemptions equal the answers that used it', async () => {
    const { answers, final, atChange, used } = await streamAround('FROZEN1', () => server.client.post('/vouchers/FROZEN1/freeze', {}));
    expect(answers.map((r) => r.status)).toEqual(Array(BURST).fill(200));
    expect(final.status).toBe('frozen');
    expect(final.redemptions).toBe(used);
    expect(final.redemptions).toBe(atChange);
    expect(used).toBeGreaterThan(0);
  });

  it("a voucher whose coupon is deleted is used by no cart committed after the delete", async () => {
    const coupon = (await server.client.get(`/discounts/${campaign}`)).body.coupon_info.coupon_id;
    const { answers, final, atChange, used } = await streamAround('DELETED1', () => server.client.delete(`/coupons/${coupon}`));
    expect(answers.map((r) => r.status)).toEqual(Array(BURST).fill(200));
    expect(final.status).toBe('deleted');
    expect(final.redemptions).toBe(used);
    expect(final.redemptions).toBe(atChange);
    expect(used).toBeGreaterThan(0);
  });
});

describe('the point value changed while realtime carts stream', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startServer({ env: { WORKERS: '2', REALTIME_WORKERS: '2' } });
    await server.client.post('/customers', { id: 1, name: 'C1', registration_location_id: 1 });
    const points = await server.client.post('/points', { rule_params: { name: 'Ten a cart', rule_effects: [{ type: 'direct_value', value: 10, distribution: 'total_cart' }] } });
    expect(points.status, points.text).toBe(200);
  });
  afterAll(async () => {
    await server.dispose();
  });

  it('every answer values its points and the balance at one point value, the old or the new, and the ledger adds up', async () => {
    let answered = 0;
    let changed!: () => void;
    const due = new Promise<void>((resolve) => (changed = resolve));
    const carts = Array.from({ length: 120 }, (_, i) => server.client.post('/carts/realtime', cartBody(5, { id: 1000 + i, customer_id: 1 })).then((res) => {
      if (++answered === 20) changed();
      return res;
    }));
    await due;
    expect((await server.client.patch('/company', { point_value: '0.05' })).status).toBe(200);
    const after = await server.client.post('/carts/simulate', cartBody(5, { customer_id: 1 }));
    expect(after.body.score_as_money).toBe(0.5);
    const answers = await Promise.all(carts);
    const seen = new Set<string>();
    for (const res of answers) {
      expect(res.status, res.text).toBe(200);
      expect(res.body.score).toBe(10);
      const value = res.body.score_as_money / 10;
      expect([0.01, 0.05]).toContain(value);
      const [customer] = res.body.customer;
      expect(customer.score_as_money).toBeCloseTo(customer.score * value, 9);
      seen.add(String(value));
    }
    expect(seen.has('0.01')).toBe(true);
    const balance = await server.client.get('/customers/1/points');
    expect(balance.body.score).toBe(1200);
    expect(balance.body.score_as_money).toBe(60);
    const transactions: number[] = [];
    for (let page: string | undefined; ; ) {
      const res = await server.client.get('/points/transactions', { query: { customer_id: '1', ...(page ? { starting_after: page } : {}) } });
      transactions.push(...res.body.data.map((t: { amount: number }) => t.amount));
      page = res.body.next_token_starts_after;
      if (!page) break;
    }
    expect(transactions.reduce((a, b) => a + b, 0)).toBe(1200);
  });
});

describe('a campaign edited to name a location feature, with names in another language, while realtime carts stream', () => {
  let server: TestServer;
  let campaign: string;
  const OUTLET = { taxonomy_slug: 'kind', id: 1 };

  beforeAll(async () => {
    server = await startServer({ env: { WORKERS: '2', REALTIME_WORKERS: '2' } });
    for (const [path, body] of [
      ['/locations/taxonomies', { slug: 'kind', name: 'Kind of store' }],
      ['/locations/taxonomies/kind/features', { id: 1, name: 'Outlet' }],
      ['/locations', { id: 10, code: 'OUT1', name: 'Outlet Getafe', country: 'ES', features: [OUTLET] }],
      ['/customers', { id: 1, name: 'C1', registration_location_id: 1 }],
    ] as const) {
      expect((await server.client.post(path, body)).status, path).toBe(200);
    }
    expect((await server.client.patch('/company', { languages: ['en', 'es'], default_language: 'en' })).status).toBe(200);
    // No rule names location_feature and no campaign has names in another language: the first program reads neither.
    const res = await server.client.post('/discounts', { rule_params: { name: 'Every store', rule_effects: [{ type: 'direct_value', value: 1, distribution: 'total' }] } });
    expect(res.status, res.text).toBe(200);
    campaign = String(res.body.id);
  });
  afterAll(async () => {
    await server.dispose();
  });

  it("a cart evaluated before the edit and committed after it is evaluated again with the edited program's location features and names", async () => {
    const es = { headers: { 'Accept-Language': 'es' } };
    let nextCart = 5000;
    const realtime = () => server.client.post('/carts/realtime', cartBody(10, { id: nextCart++, customer_id: 1, location_id: 10 }), es);
    // Carts kept in flight on both writers until the edit is answered.
    let editing = true;
    const answers: TestResponse[] = [];
    let streamed!: () => void;
    const due = new Promise<void>((resolve) => (streamed = resolve));
    const stream = async () => {
      while (editing) {
        answers.push(await realtime());
        if (answers.length === 40) streamed();
      }
    };
    const streams = Promise.all(Array.from({ length: 24 }, stream));
    await due;
    const edit = await server.client.patch(`/discounts/${campaign}`, {
      rule_params: { name: { en: 'Outlets', es: 'Tiendas outlet' }, rule_conditions: { conditions: { and: [{ field: 'location_feature', operator: 'in', values: ['kind:1'] }] } } },
    });
    editing = false;
    await streams;
    expect(edit.status, edit.text).toBe(200);
    const after = await realtime();
    // The cart's store is an outlet: every answer has the discount, named as the program it was evaluated with names it
    // (the old program's default name, or the new one's Spanish name; never the new default name, never without the discount).
    const names = [...answers, after].map((res) => {
      expect(res.status, res.text).toBe(200);
      const effects = res.body.effects.filter((e: { rule_id: number }) => String(e.rule_id) === campaign);
      expect(effects, res.text).toHaveLength(1);
      return effects[0].rule_name;
    });
    expect(new Set(names)).toEqual(new Set(['Every store', 'Tiendas outlet']));
    // The stored cart keeps the default names.
    expect((await server.client.get(`/carts/${after.body.id}`)).body.effects[0].rule_name).toBe('Outlets');
  });
});
