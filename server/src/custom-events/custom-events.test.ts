import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../testing/server.js';
import { balance, createCustomer, expectLedgerAddsUp, transactions, utcDate } from '../points/testing.js';
import { endingSoon, passed } from '../vouchers/testing.js';

const reviewSchema = {
  type: 'object',
  required: ['stars'],
  properties: { stars: { type: 'integer', minimum: 1, maximum: 5 }, product: { type: 'string' } },
};

describe('custom events over HTTP', () => {
  let server: TestServer;
  let review: number;
  const ids = async (query: Record<string, string>) => (await server.client.get('/custom_events', { query })).body.data.map((e: { id: string }) => e.id);
  beforeAll(async () => {
    server = await startServer();
    for (const id of [30, 31, 32, 33, 34, 35, 36]) await createCustomer(server.client, id, { code: `E${id}` });
    const def = await server.client.post('/custom_event_definitions', { slug: 'review', name: 'Product review', schema: reviewSchema });
    expect(def.status, def.text).toBe(200);
    review = def.body.id;
  });
  afterAll(async () => {
    await server.dispose();
  });

  it('manages definitions: unique slug, a schema that compiles', async () => {
    const list = await server.client.get('/custom_event_definitions');
    expect(list.body.data).toEqual([expect.objectContaining({ id: review, slug: 'review', name: 'Product review', schema: reviewSchema })]);
    // An identical create within 5 minutes answers as the first (common rule 8); a different one with the same slug is a conflict.
    const same = await server.client.post('/custom_event_definitions', { slug: 'review', name: 'Product review', schema: reviewSchema });
    expect(same.body).toEqual({ status: 'success', id: review });
    const again = await server.client.post('/custom_event_definitions', { slug: 'review', schema: {} });
    expect(again.status).toBe(409);
    const bad = await server.client.post('/custom_event_definitions', { slug: 'broken', schema: { type: 'nonsense' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/^schema/);
    expect((await server.client.post('/custom_event_definitions', { slug: 'no schema' })).status).toBe(400);
    // An event's data is an object: a schema of another type would refuse every event of it.
    for (const type of ['array', ['object', 'null']]) {
      const notObject = await server.client.post('/custom_event_definitions', { slug: 'arr', schema: { type } });
      expect(notObject.body).toEqual({ code: 'invalid_request', error: "schema.type: must be object: an event's data is an object" });
    }
    expect((await server.client.get('/custom_event_definitions')).body.data.map((d: { slug: string }) => d.slug)).not.toContain('arr');
  });

  it('validates data against the schema of its slug and stores nothing on error', async () => {
    const wrong = await server.client.post('/custom_events', { customer_id: 30, slug: 'review', data: { stars: 9 } });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({ code: 'invalid_request', error: expect.stringMatching(/^data\.stars/) });
    const missing = await server.client.post('/custom_events', { customer_id: 30, slug: 'review', data: {} });
    expect(missing.body.error).toMatch(/^data\.stars: is required/);
    const unknownSlug = await server.client.post('/custom_events', { customer_id: 30, slug: 'nope', data: {} });
    expect(unknownSlug.status).toBe(404);
    expect(unknownSlug.body.code).toBe('custom_event_definition_not_found');
    const noCustomer = await server.client.post('/custom_events', { slug: 'review', data: { stars: 3 } });
    expect(noCustomer.status).toBe(400);
    const unknownCustomer = await server.client.post('/custom_events', { customer_id: 999, slug: 'review', data: { stars: 3 } });
    expect(unknownCustomer.body.code).toBe('customer_not_found');
    expect((await server.client.get('/custom_events', { query: { customer_id: '30' } })).body.data).toEqual([]);
    // An unknown customer is 404 by id as by code (as GET /points/transactions).
    for (const [field, value] of [['customer_id', '999'], ['customer_code', 'nobody']]) {
      const unknown = await server.client.get('/custom_events', { query: { [field]: value } });
      expect(unknown.status, unknown.text).toBe(404);
      expect(unknown.body).toMatchObject({ code: 'customer_not_found', error: expect.stringMatching(new RegExp(`^${field}`)) });
    }
  });

  it('names the second of customer_id and customer_code when a list is sent both, as the other lists do', async () => {
    const query = { customer_id: '30', customer_code: 'E30' };
    const expected = { code: 'invalid_request', error: 'customer_code: cannot be sent with customer_id' };
    for (const path of ['/custom_events', '/custom_entities', '/discounts/transactions', '/games']) {
      const res = await server.client.get(path, { query });
      expect(res.status, `${path}: ${res.text}`).toBe(400);
      expect(res.body, path).toEqual(expected);
    }
  });

  it('grants the points of the campaigns bound to the definition whose conditions hold on the data', async () => {
    const bound = await server.client.post('/points', {
      rule_params: {
        name: 'Five-star review', custom_entity_definition_id: review,
        rule_conditions: { conditions: { and: [{ field: 'attributes.stars', operator: 'gte', value: 5 }] } },
        rule_effects: [{ type: 'direct_value', value: 25, distribution: 'total' }],
        expiration_period_type: 'relative', availability_duration: 30, availability_duration_unit: 'days',
      },
    });
    expect(bound.status, bound.text).toBe(200);
    const res = await server.client.post('/custom_events', { id: 'ev-1', customer_code: 'E31', slug: 'review', data: { stars: 5, product: 'tea' }, created_at: '2026-01-10T10:00:00Z' });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      id: 'ev-1', customer_id: 31, customer_code: 'E31', slug: 'review', data: { stars: 5, product: 'tea' },
      created_at: '2026-01-10T10:00:00Z', ingested_at: expect.any(String),
      // Earned, and expired in the same commit: none available.
      score: 25, score_available: 0,
      scores: [{ score: 25, loyalty_score_id: bound.body.id, available_from: '2026-01-10', available_to: '2026-02-09' }],
    });
    expect(res.body.customer).toMatchObject({ id: 31, code: 'E31' });
    const [tx] = await transactions(server.client, 31);
    expect(tx).toMatchObject({ type: 'custom_entity', origin_info: { score: 25, slug: 'review' } });
    // The points were dated by the event: they expired on 2026-02-09, which is past.
    expect((await balance(server.client, 31)).score).toBe(0);
    const low = await server.client.post('/custom_events', { customer_id: 32, slug: 'review', data: { stars: 4 } });
    expect(low.body).toMatchObject({ score: 0, scores: [] });
    const now = await server.client.post('/custom_events', { customer_id: 32, slug: 'review', data: { stars: 5 } });
    expect(now.body).toMatchObject({ score: 25, score_available: 25, customer: { id: 32, score: 25, score_available: 25 } });
    // The same event again within 5 minutes is a duplicate: answered as the first, nothing granted twice.
    const repeated = await server.client.post('/custom_events', { customer_id: 32, slug: 'review', data: { stars: 5 } });
    expect(repeated.body.id).toBe(now.body.id);
    expect((await server.client.post('/custom_entities', { customer_id: 32, slug: 'review', data: { stars: 5, product: 'cake' } })).body.score).toBe(25);
    expect((await balance(server.client, 32)).score).toBe(50);
  });

  it('dates the points transaction when the event is ingested, whatever its created_at (as a cart\'s)', async () => {
    // Whole seconds: a second back is before any transaction of this test.
    const since = new Date(Date.now() - 1000).toISOString();
    const events = [];
    for (const created_at of ['2020-01-10T10:00:00Z', '2999-01-10T10:00:00Z']) {
      const res = await server.client.post('/custom_events', { customer_id: 35, slug: 'review', data: { stars: 5 }, created_at });
      expect(res.status, res.text).toBe(200);
      // The points' dates still follow the event, as a cart's follow its creation_date.
      expect(res.body.scores[0].available_from).toBe(created_at.slice(0, 10));
      events.push(res.body);
    }
    // A poll by created_at_gt sees both grants, back-dated and future-dated, each dated at its event's ingested_at.
    const polled = await transactions(server.client, 35, { origin_type: 'custom_entity', created_at_gt: since });
    expect(polled.map((t) => (t as unknown as { created_at: string }).created_at)).toEqual(events.map((e) => e.ingested_at));
  });

  it('counts a campaign\'s once limit in the period of the event\'s created_at (never one after today), as a cart\'s', async () => {
    await createCustomer(server.client, 41, { code: 'E41' });
    const def = await server.client.post('/custom_event_definitions', { slug: 'visit', name: 'Store visit', schema: { type: 'object' } });
    expect(def.status, def.text).toBe(200);
    const daily = await server.client.post('/points', {
      rule_params: { name: 'A visit a day', custom_entity_definition_id: def.body.id, once: 'num_day', rule_effects: [{ type: 'direct_value', value: 3, distribution: 'total' }] },
    });
    expect(daily.status, daily.text).toBe(200);
    // [days from today, points granted]: each past day once, today once; a future-dated event counts today.
    const steps: [number, number][] = [[-1, 3], [-2, 3], [0, 3], [-1, 0], [1, 0]];
    for (const [i, [days, points]] of steps.entries()) {
      const res = await server.client.post('/custom_events', { customer_id: 41, slug: 'visit', data: { step: i }, created_at: `${utcDate(days)}T12:00:00Z` });
      expect(res.status, res.text).toBe(200);
      expect(res.body.score, `event ${days}`).toBe(points);
    }
  });

  it("judges a voucher's dates at the event's created_at, as a cart's at its creation_date; its use, now", async () => {
    await createCustomer(server.client, 42, { code: 'E42' });
    const def = await server.client.post('/custom_event_definitions', { slug: 'sample', name: 'Free sample', schema: { type: 'object' } });
    expect(def.status, def.text).toBe(200);
    const targeted = await server.client.post('/points', {
      rule_params: { name: 'Sample voucher', select_customers: 'targeted', custom_entity_definition_id: def.body.id, rule_effects: [{ type: 'direct_value', value: 9, distribution: 'total' }] },
      coupon_params: { name: 'Sample coupon', available_to: endingSoon(), max_redemptions: 5 },
    });
    expect(targeted.status, targeted.text).toBe(200);
    const issued = await server.client.post('/discounts/trigger', { customer_id: 42, loyalty_rule_id: targeted.body.id, external_voucher_code: 'SAMPLE-1' });
    expect(issued.status, issued.text).toBe(200);
    const end = (await server.client.get('/vouchers/SAMPLE-1')).body.available_to as string;
    const whileValid = new Date().toISOString().slice(0, 19) + 'Z';
    await passed(end);
    // Sent after the voucher expired, the event of when it was valid uses it; an event of now does not.
    const late = await server.client.post('/custom_events', { customer_id: 42, slug: 'sample', data: {}, created_at: whileValid });
    expect(late.status, late.text).toBe(200);
    expect(late.body.score).toBe(9);
    expect((await server.client.get('/vouchers/SAMPLE-1')).body.redemptions).toBe(1);
    const live = await server.client.post('/custom_events', { customer_id: 42, slug: 'sample', data: {} });
    expect(live.body.score).toBe(0);
    expect((await server.client.get('/vouchers/SAMPLE-1')).body.redemptions).toBe(1);
  });

  it("answers score_available as the points of the event available today, as the ledger settles them in the same commit", async () => {
    // The five-star campaign above: 25 points from the event's day for 30 days.
    await createCustomer(server.client, 39, { code: 'E39' });
    // [days from today, score_available expected, the customer's score and score_available after it]
    const steps: [number, number, number, number][] = [
      [-100, 0, 0, 0], // available from 100 days ago for 30 days: expired at once
      [-10, 25, 25, 25], // available since 10 days ago, for 20 more days
      [10, 0, 50, 25], // future-dated: pending until its day
    ];
    for (const [days, available, score, customerAvailable] of steps) {
      const res = await server.client.post('/custom_events', { customer_id: 39, slug: 'review', data: { stars: 5 }, created_at: `${utcDate(days)}T10:00:00Z` });
      expect(res.status, res.text).toBe(200);
      // score is the points the event earned, as a cart's score, whatever they became.
      expect(res.body, `event ${days}`).toMatchObject({ score: 25, score_available: available, customer: { score, score_available: customerAvailable } });
      expect(await balance(server.client, 39), `event ${days}`).toMatchObject({ score, score_available: customerAvailable });
    }
  });

  // They repaid it: 10 of 30 points expired weeks before a debt of today cleared it.
  it('repays no debt with a back-dated event\'s points already expired: they expire whole', async () => {
    await createCustomer(server.client, 43, { code: 'E43' });
    expect((await server.client.post('/points/redeem', { customer_id: 43, amount: 10, comments: 'debt' })).status).toBe(200);
    const res = await server.client.post('/custom_events', { customer_id: 43, slug: 'review', data: { stars: 5 }, created_at: `${utcDate(-100)}T10:00:00Z` });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ score: 25, score_available: 0, customer: { score: -10, score_available: -10 } });
    expect(await balance(server.client, 43)).toMatchObject({ score: -10, score_available: -10 });
    const expired = await transactions(server.client, 43, { origin_type: 'expiration' });
    expect(expired.map((t) => t.amount)).toEqual([-25]);
    await expectLedgerAddsUp(server.client, 43);
    // Points still valid repay it, as before.
    const valid = await server.client.post('/custom_events', { customer_id: 43, slug: 'review', data: { stars: 5 }, created_at: `${utcDate(-10)}T10:00:00Z` });
    expect(valid.body).toMatchObject({ score_available: 25, customer: { score: 15, score_available: 15 } });
  });

  it('takes customer_id with customer_code when both name the same customer', async () => {
    const both = await server.client.post('/custom_events', { customer_id: 30, customer_code: 'E30', slug: 'review', data: { stars: 2 } });
    expect(both.status, both.text).toBe(200);
    expect(both.body).toMatchObject({ customer_id: 30, customer_code: 'E30' });
    const other = await server.client.post('/custom_events', { customer_id: 30, customer_code: 'E31', slug: 'review', data: { stars: 2 } });
    expect(other.status, other.text).toBe(400);
    expect(other.body).toMatchObject({ code: 'invalid_request', error: expect.stringMatching(/^customer_code/) });
    // POST /points/redeem reads its customer the same way (its contract line does not make them exclusive either).
    expect((await server.client.post('/points/redeem', { customer_id: 30, customer_code: 'E30', amount: 1, comments: 'both' })).status).toBe(200);
    expect((await server.client.post('/points/redeem', { customer_id: 30, customer_code: 'E31', amount: 1, comments: 'both' })).status).toBe(400);
  });

  it('refuses a duplicate id, and lists and reads events with their filters and aliases', async () => {
    await server.client.post('/custom_events', { id: 'ev-2', customer_id: 33, slug: 'review', data: { stars: 1 }, created_at: '2026-03-01T00:00:00Z' });
    // A client id that looks like the next generated one: the generated id skips it.
    // (the client's own event takes the next sequence number, so the generated one after it would be +2)
    const next = Number((await server.client.post('/custom_events', { customer_id: 33, slug: 'review', data: { stars: 1 } })).body.id) + 2;
    expect((await server.client.post('/custom_events', { id: String(next), customer_id: 33, slug: 'review', data: { stars: 1 } })).status).toBe(200);
    const generated = await server.client.post('/custom_events', { customer_id: 33, slug: 'review', data: { stars: 1 } });
    expect(generated.body.id).not.toBe(String(next));
    expect((await server.client.get(`/custom_events/${next}`)).body.data).toEqual({ stars: 1 });
    const dup = await server.client.post('/custom_events', { id: 'ev-2', customer_id: 33, slug: 'review', data: { stars: 1 } });
    expect(dup.status).toBe(409);
    expect(dup.body.code).toBe('duplicate_id');
    const one = await server.client.get('/custom_events/ev-2');
    expect(one.body).toEqual({ id: 'ev-2', customer_id: 33, customer_code: 'E33', slug: 'review', data: { stars: 1 }, created_at: '2026-03-01T00:00:00Z', ingested_at: expect.any(String) });
    expect((await server.client.get('/custom_entities/ev-2')).body.id).toBe('ev-2');
    const missing = await server.client.get('/custom_events/none');
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('custom_event_not_found');
    expect((await ids({ customer_code: 'E33' }))[0]).toBe('ev-2');
    expect(await ids({ id: 'ev-1' })).toEqual(['ev-1']);
    expect(await ids({ slug: 'review', customer_id: '31' })).toEqual(['ev-1']);
    expect(await ids({ customer_id: '33', created_at_gt: '2026-03-01', slug: 'review', id: 'ev-2' })).toEqual([]);
    expect(await ids({ customer_id: '33', created_at_gt: '2026-02-28', id: 'ev-2' })).toEqual(['ev-2']);
    expect(await ids({ customer_id: '33', created_at_gt: '2999-01-01' })).toEqual([]);
    const first = await server.client.get('/custom_events', { query: { per_page: '1' } });
    const second = await server.client.get('/custom_entities', { query: { per_page: '1', starting_after: first.body.next_token_starts_after } });
    expect(second.body.data[0].id).not.toBe(first.body.data[0].id);
    expect((await server.client.get('/custom_events', { query: { customer_id: '33', customer_code: 'E33' } })).status).toBe(400);
    expect((await server.client.get('/custom_events', { query: { created_at_gt: 'soon' } })).status).toBe(400);
  });

  it("reads a date-only created_at_gt as the Company's day: events created after its local midnight", async () => {
    await createCustomer(server.client, 38, { code: 'E38' });
    // At Pacific/Kiritimati (UTC+14) 2026-03-01 starts at 2026-02-28T10:00:00Z; at America/Santiago 2026-09-06 starts at
    // 04:00:00Z, when its clocks jump from 24:00 (-04:00) to 01:00 (-03:00).
    const createdAt = {
      before: '2026-02-28T09:59:59Z', midnight: '2026-02-28T10:00:00Z', after: '2026-02-28T10:00:01Z', utc: '2026-03-01T00:00:00Z',
      last: '2026-03-01T09:59:59Z', next: '2026-03-01T10:00:00Z', santiago: '2026-09-06T03:59:59Z', jump: '2026-09-06T04:00:00Z', dst: '2026-09-06T04:00:01Z',
    };
    for (const [name, at] of Object.entries(createdAt)) {
      const res = await server.client.post('/custom_events', { id: `tz-${name}`, customer_id: 38, slug: 'review', data: { stars: 4 }, created_at: at });
      expect(res.status, res.text).toBe(200);
    }
    const after = async (createdAtGt: string) => (await ids({ customer_id: '38', per_page: '100', created_at_gt: createdAtGt })).map((id: string) => id.slice(3));
    try {
      expect((await server.client.patch('/company', { timezone: 'Pacific/Kiritimati' })).status).toBe(200);
      // A record at the local midnight itself is not after it.
      expect(await after('2026-03-01')).toEqual(['after', 'utc', 'last', 'next', 'santiago', 'jump', 'dst']);
      expect(await after('2026-03-02')).toEqual(['santiago', 'jump', 'dst']);
      expect(await after('2026-02-28')).toEqual(Object.keys(createdAt));
      // A datetime is the instant it names, whatever the timezone.
      expect(await after('2026-03-01T00:00:00Z')).toEqual(['last', 'next', 'santiago', 'jump', 'dst']);
      expect(await after('2026-03-01T00:00:00+14:00')).toEqual(await after('2026-03-01'));
      expect((await server.client.patch('/company', { timezone: 'America/Santiago' })).status).toBe(200);
      expect(await after('2026-09-06')).toEqual(['dst']);
      expect(await after('2026-09-05')).toEqual(['santiago', 'jump', 'dst']);
    } finally {
      await server.client.patch('/company', { timezone: 'UTC' });
    }
  });

  it('draws the instant wins whose `when` is the event\'s slug', async () => {
    expect((await server.client.post('/custom_event_definitions', { slug: 'checkin', schema: { type: 'object' } })).status).toBe(200);
    // A prize is won only with an outcome (without one it is the contract's "no prize").
    const coffee = await server.client.post('/rewards', { name: 'Coffee', points: 0, type: 'physical' });
    const win = await server.client.post('/instant_wins', {
      rule_params: { name: 'Check-in draw', select_customers: 'loyalty', when: 'checkin' },
      instant_win: { instant_win_prizes: [{ name: 'Coffee', outcome: { promotion_type: 'reward', promotion_id: coffee.body.id }, weight: 1, stock: 1 }] },
    });
    expect(win.status, win.text).toBe(200);
    const draws = [];
    for (let i = 0; i < 2; i++) draws.push((await server.client.post('/custom_events', { customer_id: 34, slug: 'checkin', data: { visit: i } })).body.effects);
    expect(draws.map((e) => e.map((x: { rule_id: number; prize_name?: string }) => [x.rule_id, x.prize_name ?? null]))).toEqual([[[win.body.id, 'Coffee']], [[win.body.id, null]]]);
    const review = await server.client.post('/custom_events', { customer_id: 34, slug: 'review', data: { stars: 1 } });
    expect(review.body.effects).toEqual([]);
  });

  it('records a points prize it wins as a custom_entity transaction with the score and the slug', async () => {
    expect((await server.client.post('/custom_event_definitions', { slug: 'stamp', schema: { type: 'object' } })).status).toBe(200);
    // Bound to a slug no event sends, so only the prize grants it.
    const points = await server.client.post('/points', { rule_params: { name: 'Stamp prize', when: 'prize-only', rule_effects: [{ type: 'direct_value', value: 40, distribution: 'total' }] } });
    const win = await server.client.post('/instant_wins', {
      rule_params: { name: 'Stamp draw', select_customers: 'loyalty', when: 'stamp' },
      instant_win: { instant_win_prizes: [{ name: 'Forty', outcome: { promotion_type: 'points', promotion_id: points.body.id }, weight: 1, stock: -1 }] },
    });
    expect(win.status, win.text).toBe(200);
    expect((await server.client.post('/custom_events', { customer_id: 34, slug: 'stamp', data: {} })).status).toBe(200);
    const [prize] = (await transactions(server.client, 34, { origin_type: 'custom_entity' })).filter((t) => t.amount === 40);
    expect(prize.origin_info).toEqual({ score: 40, slug: 'stamp' });
  });

  // A backtracking engine would take minutes on these patterns (ReDoS), stalling the whole server: the test's timeout is the guard.
  it('matches patterns and patternProperties in time linear in the data', { timeout: 10_000 }, async () => {
    const evil = '^(a+)+$';
    const def = await server.client.post('/custom_event_definitions', {
      slug: 'evil',
      schema: { type: 'object', properties: { tag: { type: 'string', pattern: evil } }, patternProperties: { [evil]: { type: 'integer' } } },
    });
    expect(def.status, def.text).toBe(200);
    const attack = `${'a'.repeat(40)}!`;
    const byPattern = await server.client.post('/custom_events', { customer_id: 36, slug: 'evil', data: { tag: attack } });
    expect(byPattern.status).toBe(400);
    expect(byPattern.body.error).toBe('data.tag: must match the pattern ^(a+)+$');
    // The property name does not match the pattern, so its value is not checked as an integer.
    const byName = await server.client.post('/custom_events', { customer_id: 36, slug: 'evil', data: { [attack]: 'x', aaa: 1 } });
    expect(byName.status, byName.text).toBe(200);
    const nameMatches = await server.client.post('/custom_events', { customer_id: 36, slug: 'evil', data: { aaa: 'x' } });
    expect(nameMatches.body.error).toBe('data.aaa: must be an integer');
    expect((await server.client.post('/custom_events', { customer_id: 36, slug: 'evil', data: { tag: 'aaaa' } })).status).toBe(200);
  });

  it('refuses patterns the linear engine cannot run and the deprecated url format', async () => {
    for (const schema of [{ type: 'string', pattern: '^(?=a)' }, { type: 'string', pattern: '^(a)\\1$' }, { type: 'string', format: 'url' }]) {
      const res = await server.client.post('/custom_event_definitions', { slug: 'refused', schema });
      expect(res.status, JSON.stringify(schema)).toBe(400);
      expect(res.body.error).toMatch(/^schema: is not a valid JSON Schema/);
    }
    const uri = await server.client.post('/custom_event_definitions', { slug: 'link', schema: { type: 'object', properties: { at: { type: 'string', format: 'uri' } } } });
    expect(uri.status, uri.text).toBe(200);
  });

  it('takes integers beyond 2^53 in data as numbers, keeps every digit, and compares them exactly in conditions', async () => {
    await createCustomer(server.client, 37);
    const def = await server.client.post('/custom_event_definitions', {
      slug: 'purchase',
      schema: { type: 'object', properties: { amount: { type: 'integer', minimum: 0 }, ratio: { type: 'number' }, ref: { type: 'string' } } },
    });
    expect(def.status, def.text).toBe(200);
    const bound = await server.client.post('/points', {
      rule_params: {
        name: 'Big purchase', custom_entity_definition_id: def.body.id,
        rule_conditions: { conditions: { and: [{ field: 'attributes.amount', operator: 'gte', value: 10 }] } },
        rule_effects: [{ type: 'direct_value', value: 7, distribution: 'total' }],
      },
    });
    expect(bound.status, bound.text).toBe(200);
    const big = await server.client.post('/custom_events', { id: 'big-1', customer_id: 37, slug: 'purchase', data: { amount: 12345678901234567890n, ratio: 9223372036854775807n } });
    expect(big.status, big.text).toBe(200);
    expect(big.body.score).toBe(7);
    expect(big.text).toContain('"data":{"amount":12345678901234567890,"ratio":9223372036854775807}');
    const read = await server.client.get('/custom_events/big-1');
    expect(read.body.data).toEqual({ amount: 12345678901234567890n, ratio: 9223372036854775807n });
    // The schema still applies to them: bounds and types.
    const negative = await server.client.post('/custom_events', { customer_id: 37, slug: 'purchase', data: { amount: -12345678901234567890n } });
    expect(negative.body).toEqual({ code: 'invalid_request', error: 'data.amount: must be an integer of at least 0' });
    const notText = await server.client.post('/custom_events', { customer_id: 37, slug: 'purchase', data: { ref: 12345678901234567890n } });
    expect(notText.body).toEqual({ code: 'invalid_request', error: 'data.ref: must be a string' });
  });

  it('refuses the slug after_create_activity, the event of a cart, whose instant wins it would draw', async () => {
    const res = await server.client.post('/custom_event_definitions', { slug: 'after_create_activity', schema: {} });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: 'invalid_request', error: expect.stringMatching(/^slug: after_create_activity is the event of a cart/) });
    expect((await server.client.get('/custom_event_definitions')).body.data.map((d: { slug: string }) => d.slug)).not.toContain('after_create_activity');
  });

  it('refuses, when saved, a schema whose check could not run on an event: $async, a reference it cannot resolve', async () => {
    const required = { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] };
    const cases: [Record<string, unknown>, RegExp][] = [
      // An async check answers a Promise that rejects on invalid data: unhandled, it stopped the server.
      [{ $async: true, ...required }, /^schema: must not be asynchronous/],
      [{ type: 'object', properties: { n: { $async: true, type: 'integer' } } }, /^schema: is not a valid JSON Schema/],
      [{ $ref: 'https://schemas.example.com/event.json' }, /^schema: is not a valid JSON Schema: can't resolve reference/],
      [{ type: 'object', properties: { n: { $ref: '#/$defs/missing' } } }, /^schema: is not a valid JSON Schema: can't resolve reference/],
    ];
    for (const [schema, error] of cases) {
      const res = await server.client.post('/custom_event_definitions', { slug: 'asy', schema });
      expect(res.status, JSON.stringify(schema)).toBe(400);
      expect(res.body).toEqual({ code: 'invalid_request', error: expect.stringMatching(error) });
    }
    const event = await server.client.post('/custom_events', { customer_id: 36, slug: 'asy', data: { n: 'x' } });
    expect(event.status).toBe(404);
    // Two definitions with the same $id: each is compiled without it.
    for (const slug of ['same-id-1', 'same-id-2']) {
      const def = await server.client.post('/custom_event_definitions', { slug, schema: { $id: 'https://schemas.example.com/e.json', ...required } });
      expect(def.status, def.text).toBe(200);
      const wrong = await server.client.post('/custom_events', { customer_id: 36, slug, data: { n: 'x' } });
      expect(wrong.body).toEqual({ code: 'invalid_request', error: 'data.n: must be an integer' });
    }
  });

  it('names campaigns and instant wins in the Accept-Language language, as carts do', async () => {
    expect((await server.client.patch('/company', { languages: ['en', 'es'] })).status).toBe(200);
    const def = await server.client.post('/custom_event_definitions', { slug: 'tasting', schema: { type: 'object' } });
    expect(def.status, def.text).toBe(200);
    const campaign = await server.client.post('/points', {
      rule_params: { name: { en: 'Tasting points', es: 'Puntos de cata' }, custom_entity_definition_id: def.body.id, rule_effects: [{ type: 'direct_value', value: 3, distribution: 'total' }] },
    });
    expect(campaign.status, campaign.text).toBe(200);
    const win = await server.client.post('/instant_wins', {
      rule_params: { name: { en: 'Tasting wheel', es: 'Ruleta de cata' }, when: 'tasting' },
      instant_win: { instant_win_prizes: [{ name: 'Nothing', weight: 1, stock: -1 }] },
    });
    expect(win.status, win.text).toBe(200);
    const names = (body: { effects: { rule_name: string }[] }) => body.effects.map((effect) => effect.rule_name);
    const spanish = await server.client.post('/custom_events', { customer_id: 35, slug: 'tasting', data: { wine: 'red' } }, { headers: { 'Accept-Language': 'es' } });
    expect(spanish.status, spanish.text).toBe(200);
    expect(names(spanish.body)).toEqual(['Puntos de cata', 'Ruleta de cata']);
    expect(names((await server.client.post('/custom_events', { customer_id: 35, slug: 'tasting', data: { wine: 'white' } })).body)).toEqual(['Tasting points', 'Tasting wheel']);
  });
});

/**
 * A voucher issued after the event (docs/decisions.md, "A custom event judges its vouchers' dates at its created_at",
 * and "A cart judges its vouchers' dates on the day of the sale": a voucher without a start of its own starts on its
 * issue day): pending for an event of a local day, in the Company's timezone, before the day it was issued; used by an
 * event of its issue day, earlier or later than the issue, and of a later day.
 */
describe('custom events dated before their voucher was issued', () => {
  let server: TestServer;
  let campaign: number;
  /** When the voucher was issued, and the local midnight (Tokyo) of its issue, in ms. */
  let issued: number;
  let midnight: number;
  const customer = 60;
  // Nine hours ahead of UTC, without summer time: its local days are not UTC's.
  const OFFSET_MS = 9 * 3_600_000;
  const at = (ms: number) => new Date(ms).toISOString().slice(0, 19) + 'Z';
  const ok = async (res: Promise<{ status: number; text: string; body: any }>) => {
    const answer = await res;
    expect(answer.status, answer.text).toBe(200);
    return answer.body;
  };
  const event = (createdAt: number) => ok(server.client.post('/custom_events', { customer_id: customer, slug: 'visit', data: {}, created_at: at(createdAt) }));
  const redemptions = async () => (await ok(server.client.get('/vouchers/VISIT-1'))).redemptions;

  beforeAll(async () => {
    server = await startServer();
    await ok(server.client.patch('/company', { timezone: 'Asia/Tokyo' }));
    await createCustomer(server.client, customer, { code: `E${customer}` });
    const def = await ok(server.client.post('/custom_event_definitions', { slug: 'visit', name: 'Store visit', schema: { type: 'object' } }));
    campaign = (await ok(server.client.post('/points', {
      rule_params: { name: 'Visit voucher', select_customers: 'targeted', custom_entity_definition_id: def.id, rule_effects: [{ type: 'direct_value', value: 9, distribution: 'total' }] },
      coupon_params: { name: 'Visit coupon', max_redemptions: 5 },
    }))).id;
    await ok(server.client.post('/discounts/trigger', { customer_id: customer, loyalty_rule_id: campaign, external_voucher_code: 'VISIT-1' }));
    const { created_at: created, available_from: from } = await ok(server.client.get('/vouchers/VISIT-1'));
    expect(from).toBeNull();
    issued = Date.parse(created);
    const local = new Date(issued + OFFSET_MS);
    midnight = Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate()) - OFFSET_MS;
  });
  afterAll(async () => {
    await server?.dispose();
  });

  it('an event of the local day before the issue does not use the voucher: no points, no effects, nothing used', async () => {
    // The last second of the day before in Tokyo: in UTC, the same day as the issue for half of it.
    const answer = await event(midnight - 1000);
    expect(answer).toMatchObject({ score: 0, score_available: 0, scores: [], effects: [], customer: { id: customer, score: 0 } });
    expect(await redemptions()).toBe(0);
    expect(await balance(server.client, customer)).toMatchObject({ score: 0 });
  });

  it('an event earlier on the issue day uses the voucher, and so does an event of a later day', async () => {
    const earlier = await event(Math.max(midnight, issued - 3_600_000));
    expect(earlier).toMatchObject({ score: 9, effects: [expect.objectContaining({ rule_id: campaign })] });
    expect(await redemptions()).toBe(1);
    expect(await balance(server.client, customer)).toMatchObject({ score: 9 });
    const later = await event(Date.now() + 86_400_000);
    expect(later).toMatchObject({ score: 9, effects: [expect.objectContaining({ rule_id: campaign })] });
    expect(await redemptions()).toBe(2);
  });
});
