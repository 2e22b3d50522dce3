/**
 * Challenges over HTTP: the back office, the reads, enrolment
 * (max_enrollments, open_to_all) and progress from realtime carts, with the
 * points of each level reached granted through the ledger.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { balance, createCustomer, transactions } from '../points/testing.js';
import { cartBody, realtimeCart } from '../testing/carts.js';
import { startServer, type TestServer } from '../testing/server.js';

const structure = [
  { level: 1, name: 'Starter', threshold: 10, points: 5 },
  { level: 2, name: 'Pro', threshold: 50.5, points: 20 },
];

describe('challenges', () => {
  let server: TestServer;
  const create = async (body: Record<string, unknown>) => {
    const res = await server.client.post('/challenges', { name: 'Spend', attribute: 'total_spent', structure, ...body });
    expect(res.status, res.text).toBe(200);
    return res.body.id as number;
  };
  const enroll = (id: number, customerId: number) => server.client.post(`/challenges/${id}/enroll`, { customer_id: customerId });
  // Each its own sale (an id of its own): an identical cart without id would answer the first (duplicate suppression).
  let sales = 0;
  const cart = (customerId: number, total: number) => realtimeCart(server.client, customerId, total, { id: 700_000 + ++sales });
  const progress = async (customerId: number, id: number) => {
    const res = await server.client.get(`/customers/${customerId}/challenges/${id}`);
    expect(res.status, res.text).toBe(200);
    return res.body;
  };

  beforeAll(async () => {
    server = await startServer();
    await server.client.patch('/company', { languages: ['es', 'en'], default_language: 'es', customer_attribute_schema: { type: 'object', properties: { steps: { type: 'integer' }, nick: { type: 'string' }, visits: { type: 'integer' }, laps: { type: 'number' } } } });
  });
  afterAll(() => server.dispose());

  it('creates a challenge answered {status, id}, read in the contract shape; PATCH and PUT replace the fields sent', async () => {
    const id = await create({ name: { es: 'Gasta', en: 'Spend' }, countries: ['ES'], challenge_type: 'spend', max_enrollments: 100, available_to: '2999-12-31' });
    const read = await server.client.get(`/challenges/${id}`);
    expect(read.body).toEqual({
      id, name: 'Gasta', description: null, status: 'active', attribute: 'total_spent', customer_attribute_id: null, countries: ['ES'],
      available_from: null, available_to: '2999-12-31', display_from: null, display_to: null, challenge_type: 'spend', image_file_name: null,
      open_to_all: false, max_enrollments: 100, current_enrollments: 0, partner: null, attribute_data_period_type: 'challenge_dates',
      attribute_period_from: null, attribute_period_to: null, attribute_relative_value: null, structure,
      created_at: expect.any(String), updated_at: expect.any(String),
    });
    expect((await server.client.get(`/challenges/${id}`, { headers: { 'Accept-Language': 'en' } })).body.name).toBe('Spend');
    expect((await server.client.patch(`/challenges/${id}`, { status: 'inactive' })).body).toEqual({ status: 'success', id });
    await server.client.put(`/challenges/${id}`, { max_enrollments: null });
    expect((await server.client.get(`/challenges/${id}`)).body).toMatchObject({ status: 'inactive', max_enrollments: null, name: 'Gasta' });
  });

  it('suppresses a repeated PATCH by the challenge, not the path text: 007, 7, 007 runs all three', async () => {
    const id = await create({ name: 'Spend', challenge_type: 'spend' });
    expect((await server.client.patch(`/challenges/00${id}`, { max_enrollments: 11 })).status).toBe(200);
    expect((await server.client.patch(`/challenges/${id}`, { max_enrollments: 22 })).status).toBe(200);
    expect((await server.client.patch(`/challenges/00${id}`, { max_enrollments: 11 })).status).toBe(200);
    expect((await server.client.get(`/challenges/${id}`)).body.max_enrollments).toBe(11);
  });

  it('refuses invalid challenges naming the field, and answers 404 challenge_not_found', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ name: 'X', attribute: 'total_spent' }, 'structure'],
      [{ name: 'X', attribute: 'nick', structure }, 'attribute'],
      [{ name: 'X', attribute: 'unknown', structure }, 'attribute'],
      [{ name: 'X', attribute: 'carts', structure: [structure[1], { ...structure[0], level: 2 }] }, 'structure'],
      [{ name: 'X', attribute: 'carts', structure: [structure[0], { ...structure[1], threshold: 1 }] }, 'structure'],
      [{ name: 'X', attribute: 'carts', structure, attribute_data_period_type: 'relative_months' }, 'attribute_relative_value'],
      [{ name: 'X', attribute: 'carts', structure, attribute_data_period_type: 'fixed' }, 'attribute_period_from'],
      [{ name: 'X', attribute: 'carts', structure, available_from: '2030-01-02', available_to: '2030-01-01' }, 'available_to'],
      [{ name: 'X', attribute: 'carts', structure, attribute_data_period_type: 'yesterday' }, 'attribute_data_period_type'],
    ];
    for (const [body, field] of cases) {
      const res = await server.client.post('/challenges', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.startsWith(`${field}:`), res.body.error).toBe(true);
    }
    expect((await server.client.get('/challenges/999')).body.code).toBe('challenge_not_found');
    expect((await server.client.patch('/challenges/999', { status: 'active' })).status).toBe(404);
    expect((await server.client.post('/challenges/999/enroll', { customer_id: 1 })).status).toBe(404);
  });

  it('lists challenges by country and type, paginated', async () => {
    const pt = await create({ countries: ['PT'], challenge_type: 'list' });
    const any = await create({ challenge_type: 'list' });
    const ids = async (query: Record<string, string>) => (await server.client.get('/challenges', { query: { type: 'list', ...query } })).body.data.map((c: { id: number }) => c.id);
    expect(await ids({})).toEqual([pt, any]);
    expect(await ids({ country: 'ES' })).toEqual([any]);
    const page = (await server.client.get('/challenges', { query: { type: 'list', per_page: '1' } })).body;
    expect(page.data.map((c: { id: number }) => c.id)).toEqual([pt]);
    const next = (await server.client.get('/challenges', { query: { type: 'list', per_page: '1', starting_after: page.next_token_starts_after } })).body;
    expect(next.data.map((c: { id: number }) => c.id)).toEqual([any]);
    expect((await server.client.get('/challenges', { query: { country: 'es' } })).status).toBe(400);
  });

  it('enrols a customer once (repeats change nothing), up to max_enrollments (409 conflict after)', async () => {
    await createCustomer(server.client, 1, { country: 'ES' });
    await createCustomer(server.client, 2, { country: 'ES' });
    const id = await create({ max_enrollments: 1 });
    expect((await enroll(id, 1)).body).toEqual({ status: 'success' });
    expect((await enroll(id, 1)).status).toBe(200);
    expect((await server.client.get(`/challenges/${id}`)).body.current_enrollments).toBe(1);
    const full = await enroll(id, 2);
    expect(full.status).toBe(409);
    expect(full.body.code).toBe('conflict');
    expect((await progress(1, id)).enrolled).toBe(true);
    expect((await progress(2, id)).enrolled).toBe(false);
  });

  it('refuses enrolment in a challenge not running for the customer (403) and requests without a valid customer', async () => {
    await createCustomer(server.client, 3, { country: 'ES' });
    for (const body of [{ status: 'inactive' }, { available_to: '2000-01-01' }, { available_from: '2999-01-01' }, { countries: ['PT'] }]) {
      const res = await enroll(await create(body), 3);
      expect(res.status, JSON.stringify(body)).toBe(403);
      expect(res.body.code).toBe('forbidden_request');
    }
    const id = await create({});
    expect((await server.client.post(`/challenges/${id}/enroll`, {})).status).toBe(400);
    expect((await server.client.post(`/challenges/${id}/enroll`, { customer_id: 404 })).body.code).toBe('customer_not_found');
    expect((await server.client.post(`/challenges/${id}/enroll`, { customer_id: 3, customer_code: 'X' })).status).toBe(400);
    await server.client.patch('/customers/3', { status: 'inactive' });
    expect((await enroll(id, 3)).body.code).toBe('customer_inactive');
  });

  it('counts realtime carts into the enrolled customer progress and grants each level reached once through the ledger', async () => {
    await createCustomer(server.client, 10, { country: 'ES' });
    const id = await create({ name: 'Spend 50' });
    await cart(10, 4);
    expect(await progress(10, id)).toMatchObject({ attribute_value: 4, current_level: 0, enrolled: false, last_execution_time: null });
    expect((await balance(server.client, 10)).score).toBe(0);
    await enroll(id, 10);
    await cart(10, 8.25);
    expect(await progress(10, id)).toMatchObject({ attribute_value: 12.25, current_level: 1, current_level_name: 'Starter', enrolled: true, last_execution_time: expect.any(String) });
    expect((await balance(server.client, 10)).score).toBe(5);
    await cart(10, 1);
    expect((await balance(server.client, 10)).score).toBe(5);
    const simulated = await server.client.post('/carts/simulate', cartBody(100, { customer_id: 10 }));
    expect(simulated.status).toBe(200);
    expect(await progress(10, id)).toMatchObject({ attribute_value: 13.25, current_level: 1 });
    await cart(10, 40);
    expect(await progress(10, id)).toMatchObject({ attribute_value: 53.25, current_level: 2 });
    expect((await balance(server.client, 10)).score).toBe(25);
    const granted = (await transactions(server.client, 10)).filter((t) => t.type === 'challenge');
    expect(granted.map((t) => [t.amount, t.origin_info])).toEqual(
      expect.arrayContaining([
        [5, { score: 5, challenge: { id, name: 'Spend 50' }, level: 1 }],
        [20, { score: 20, challenge: { id, name: 'Spend 50' }, level: 2 }],
      ]),
    );
    expect(granted).toHaveLength(2);
  });

  it('counts everyone in an open_to_all challenge; enrolling above a threshold grants the level at once', async () => {
    await createCustomer(server.client, 11, { country: 'ES' });
    const open = await create({ attribute: 'carts', open_to_all: true, structure: [{ level: 1, name: 'One', threshold: 1, points: 7 }] });
    const closed = await create({ attribute: 'carts', structure: [{ level: 1, name: 'One', threshold: 1, points: 3 }] });
    // The cart answers its customer's points with the level points it granted.
    expect((await cart(11, 2)).body.customer[0]).toMatchObject({ score: 7, score_as_money: 0.07, score_available: 7 });
    expect((await balance(server.client, 11)).score).toBe(7);
    expect((await enroll(closed, 11)).status).toBe(200);
    expect((await balance(server.client, 11)).score).toBe(10);
    expect(await progress(11, open)).toMatchObject({ attribute_value: 1, current_level: 1, enrolled: false });
  });

  it('counts carts on every writer into a challenge created or changed between two carts (writers keep challenges in memory until one changes)', async () => {
    await createCustomer(server.client, 30, { country: 'ES' });
    // Eight at once: both writer threads take some.
    const carts = async () => {
      for (const res of await Promise.all(Array.from({ length: 8 }, () => cart(30, 1)))) expect(res.status, res.text).toBe(200);
    };
    await carts();
    // Earlier tests' open challenges have granted their levels by now.
    const before = (await balance(server.client, 30)).score;
    const id = await create({ attribute: 'carts', open_to_all: true, structure: [{ level: 1, name: 'Nine', threshold: 9, points: 7 }] });
    await carts();
    expect(await progress(30, id)).toMatchObject({ attribute_value: 16, current_level: 1 });
    expect((await balance(server.client, 30)).score).toBe(before + 7);
    expect((await server.client.patch(`/challenges/${id}`, { structure: [{ level: 1, name: 'Nine', threshold: 9, points: 7 }, { level: 2, name: 'Twenty', threshold: 20, points: 11 }] })).status).toBe(200);
    await carts();
    expect((await balance(server.client, 30)).score).toBe(before + 18);
    expect((await server.client.patch(`/challenges/${id}`, { status: 'inactive', structure: [{ level: 1, name: 'Nine', threshold: 9, points: 7 }, { level: 2, name: 'Twenty', threshold: 20, points: 11 }, { level: 3, name: 'Thirty', threshold: 30, points: 13 }] })).status).toBe(200);
    await carts();
    expect((await balance(server.client, 30)).score).toBe(before + 18);
  });

  it('measures a custom attribute, and lists a customer challenges: enrolled first, only_enrolled, type, display dates, its country only', async () => {
    await createCustomer(server.client, 12, { country: 'ES', attributes: { steps: 70 } });
    const tag = { challenge_type: 'mine' };
    const steps = await create({ ...tag, attribute: 'steps', structure: [{ level: 1, name: 'Walker', threshold: 60 }] });
    const later = await create({ ...tag, display_from: '2999-01-01' });
    const enrolled = await create({ ...tag });
    await create({ ...tag, countries: ['PT'] });
    await create({ ...tag, available_to: '2000-01-01' });
    await create({ ...tag, status: 'inactive' });
    await enroll(enrolled, 12);
    const list = async (query: Record<string, string>) => {
      const res = await server.client.get('/customers/12/challenges', { query: { type: 'mine', ...query } });
      expect(res.status, res.text).toBe(200);
      return res.body;
    };
    expect((await list({})).data.map((c: { id: number }) => c.id)).toEqual([enrolled, steps, later]);
    expect((await list({ only_enrolled: 'true' })).data.map((c: { id: number }) => c.id)).toEqual([enrolled]);
    expect((await list({ use_display_dates: 'true' })).data.map((c: { id: number }) => c.id)).toEqual([enrolled, steps]);
    const first = await list({ per_page: '2' });
    expect(first.data.map((c: { id: number }) => c.id)).toEqual([enrolled, steps]);
    expect((await list({ per_page: '2', starting_after: first.next_token_starts_after })).data.map((c: { id: number }) => c.id)).toEqual([later]);
    expect((await list({})).data[1]).toMatchObject({ attribute: 'steps', attribute_value: 70, current_level: 1, attribute_id: expect.any(Number), customer_attribute_id: expect.any(Number) });
    expect((await server.client.get('/customers/404/challenges')).body.code).toBe('customer_not_found');
    expect((await server.client.get('/customers/12/challenges', { query: { starting_after: 'nope' } })).status).toBe(400);
  });

  it('measures a custom attribute beyond 2^53 exactly: answered with every digit, its level reached and rewarded (it was read as 0)', async () => {
    await createCustomer(server.client, 62, { country: 'ES', attributes: { steps: 1 } });
    const id = await create({ challenge_type: 'huge', attribute: 'steps', structure: [{ level: 1, name: 'Far', threshold: 9007199254740991, points: 7 }] });
    expect((await enroll(id, 62)).status).toBe(200);
    const before = (await server.client.get('/customers/62/points')).body.score;
    expect((await server.client.patch('/customers/62', { attributes: { steps: 9007199254740993n } })).status).toBe(200);
    expect(await progress(62, id)).toMatchObject({ attribute_value: 9007199254740993n, current_level: 1 });
    expect((await server.client.get('/customers/62/points')).body.score).toBe(before + 7);
  });

  it('answers the customer_attribute_id of a custom attribute from the challenge\'s creation or update, the id customers\' attributes list later', async () => {
    const attributeId = async (id: number) => {
      const res = await server.client.get(`/challenges/${id}`);
      expect(res.status, res.text).toBe(200);
      return res.body.customer_attribute_id as number | null;
    };
    const listed = async (customerId: number, name: string) => (await server.client.get(`/customers/${customerId}/attributes`)).body.data.find((a: { name: string }) => a.name === name)?.id;
    // No customer stores visits yet.
    const visits = await create({ name: 'Visits', attribute: 'visits', structure: [{ level: 1, name: 'V', threshold: 3 }] });
    const id = await attributeId(visits);
    expect(id).toEqual(expect.any(Number));
    await createCustomer(server.client, 61, { country: 'ES', attributes: { visits: 2 } });
    expect(await listed(61, 'visits')).toBe(id);
    expect(await attributeId(visits)).toBe(id);
    // A cart metric has none; changed to a custom attribute, the update defines it.
    const laps = await create({});
    expect(await attributeId(laps)).toBeNull();
    expect((await server.client.patch(`/challenges/${laps}`, { attribute: 'laps' })).status).toBe(200);
    const lapsId = await attributeId(laps);
    expect(lapsId).toEqual(expect.any(Number));
    expect(lapsId).not.toBe(id);
    expect((await server.client.patch('/customers/61', { attributes: { laps: 1.5 } })).status).toBe(200);
    expect(await listed(61, 'laps')).toBe(lapsId);
  });

  it('a customer known by its code: enrols by customer_code, reads its challenges by search_param=code in the Accept-Language language, progress included', async () => {
    await createCustomer(server.client, 19, { country: 'ES', code: 'APP-19' });
    const id = await create({ name: { es: 'Gasta', en: 'Spend' }, challenge_type: 'by-code', structure: [{ level: 1, name: 'Starter', threshold: 10, points: 5 }] });
    expect((await server.client.post(`/challenges/${id}/enroll`, { customer_code: 'APP-19' })).body).toEqual({ status: 'success' });
    await cart(19, 12);
    const listed = await server.client.get('/customers/APP-19/challenges', { query: { search_param: 'code', type: 'by-code' }, headers: { 'Accept-Language': 'en' } });
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.data).toEqual([expect.objectContaining({ id, name: 'Spend', enrolled: true, attribute_value: 12, current_level: 1, current_level_name: 'Starter' })]);
    const one = await server.client.get(`/customers/APP-19/challenges/${id}`, { query: { search_param: 'code' } });
    expect(one.body).toMatchObject({ id, name: 'Gasta', enrolled: true });
    expect((await server.client.get('/customers/APP-19/challenges')).body.code).toBe('invalid_request');
    const granted = (await transactions(server.client, 19)).filter((t) => t.type === 'challenge' && (t.origin_info.challenge as { id: number }).id === id);
    expect(granted.map((t) => t.amount)).toEqual([5]);
  });

  it('stops counting a cancelled cart (POST /carts/cancellation); level points already granted stay', async () => {
    await server.client.patch('/company', { cart_cancellation_wait_seconds: 0 });
    await createCustomer(server.client, 13, { country: 'ES' });
    const id = await create({ open_to_all: true, challenge_type: 'cancel' });
    await realtimeCart(server.client, 13, 30, { id: 1300 });
    expect(await progress(13, id)).toMatchObject({ attribute_value: 30, current_level: 1 });
    const cancelled = await server.client.post('/carts/cancellation', { cart_to_cancel_id: 1300, new_cart_id: 1301 });
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(await progress(13, id)).toMatchObject({ attribute_value: 0, current_level: 0 });
    const granted = (await transactions(server.client, 13)).filter((t) => (t.origin_info.challenge as { id: number } | undefined)?.id === id);
    expect(granted.map((t) => t.amount)).toEqual([5]);
  });

  it('measures over the period type: this week, month, year, the last months and fixed dates', async () => {
    await createCustomer(server.client, 14, { country: 'ES' });
    const today = new Date().toISOString().slice(0, 10);
    const periods: Array<[Record<string, unknown>, number]> = [
      [{ attribute_data_period_type: 'current_week' }, 2],
      [{ attribute_data_period_type: 'current_month' }, 2],
      [{ attribute_data_period_type: 'current_year' }, 2],
      [{ attribute_data_period_type: 'relative_months', attribute_relative_value: 1 }, 2],
      [{ attribute_data_period_type: 'fixed', attribute_period_from: today, attribute_period_to: today }, 2],
      [{ attribute_data_period_type: 'fixed', attribute_period_from: '2000-01-01', attribute_period_to: '2000-12-31' }, 0],
      [{ available_from: '2999-01-01' }, 0],
    ];
    const ids = [];
    for (const [body] of periods) ids.push(await create({ attribute: 'carts', challenge_type: 'periods', ...body }));
    await cart(14, 1);
    await cart(14, 2);
    for (const [i, [body, expected]] of periods.entries()) {
      expect((await progress(14, ids[i])).attribute_value, JSON.stringify(body)).toBe(expected);
    }
  });

  it("answers expires_at as the last second of available_to in the Company's timezone, across DST and at the last date", async () => {
    await createCustomer(server.client, 15, { country: 'ES' });
    expect((await server.client.patch('/company', { timezone: 'America/Santiago' })).status).toBe(200);
    try {
      const expiresAt = async (availableTo: string) => (await progress(15, await create({ challenge_type: 'expiry', available_to: availableTo }))).expires_at;
      // Santiago ends DST at 24:00 of the first Saturday of April (23:00 to 23:59:59 come twice): the day ends at the second 23:59:59.
      expect(await expiresAt('2030-04-06')).toBe('2030-04-07T03:59:59Z');
      expect(await expiresAt('2030-04-05')).toBe('2030-04-06T02:59:59Z');
      // It starts DST at 24:00 of the first Saturday of September (midnight is skipped): the day ends at 23:59:59 (-04:00).
      expect(await expiresAt('2030-09-07')).toBe('2030-09-08T03:59:59Z');
      // The end of 9999-12-31 west of UTC is past the last datetime the contract writes: that last datetime.
      expect(await expiresAt('9999-12-31')).toBe('9999-12-31T23:59:59Z');
      // Before 1000, at Santiago's local mean time (-04:42:45).
      expect(await expiresAt('0999-12-31')).toBe('1000-01-01T04:42:44Z');
    } finally {
      await server.client.patch('/company', { timezone: 'UTC' });
    }
  });
});
