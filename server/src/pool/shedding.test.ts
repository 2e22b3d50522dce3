/**
 * Load shedding (pool.ts, CART_QUEUE_LIMIT): a pool holding its limit of
 * carts answers the next one at once, 503 server_error with Retry-After, and
 * does nothing for it. With a limit of one cart per pool, a burst of
 * concurrent carts always finds a pool holding one: some are shed, the rest
 * evaluated as usual.
 */
import { vi, afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cartBody } from '../testing/carts.js';
import { startServer, type TestResponse, type TestServer } from '../testing/server.js';

const CUSTOMER = 5;

/** Sends every cart at once; bursts again (at most five times) until one is shed, so the test never hangs on timing. */
async function burst(send: (round: number) => Promise<TestResponse>[]): Promise<TestResponse[]> {
  const all: TestResponse[] = [];
  for (let round = 0; round < 5; round++) {
    all.push(...(await Promise.all(send(round))));
    if (all.some((res) => res.status === 503)) break;
  }
  return all;
}

function expectShedOrAnswered(answers: TestResponse[]): void {
  for (const res of answers) {
    expect([200, 503], res.text).toContain(res.status);
    if (res.status !== 503) continue;
    expect(res.headers.get('retry-after')).toBe('1');
    expect(res.body).toEqual({ error: expect.any(String), code: 'server_error' });
  }
  expect(answers.filter((res) => res.status === 503).length).toBeGreaterThan(0);
  expect(answers.filter((res) => res.status === 200).length).toBeGreaterThan(0);
}

describe('a cart pool holding CART_QUEUE_LIMIT carts', () => {
  let server: TestServer;
  const shed = { simulate: 0, realtime: 0 };
  const balance = async () => (await server.client.get(`/customers/${CUSTOMER}/points`)).body.score as number;

  beforeAll(async () => {
    server = await startServer({ env: { WORKERS: '1', CART_QUEUE_LIMIT: '1' } });
    const discount = await server.client.post('/discounts', {
      rule_params: { name: 'Ten off', rule_effects: [{ type: 'percentage', value: 10, distribution: 'individual_items' }] },
    });
    expect(discount.status, discount.text).toBe(200);
    const points = await server.client.post('/points', {
      rule_params: { name: 'Ten a euro', rule_effects: [{ type: 'ratio', value: 10, distribution: 'individual_items' }] },
    });
    expect(points.status, points.text).toBe(200);
    expect((await server.client.post('/customers', { id: CUSTOMER, name: 'C5', registration_location_id: 1 })).status).toBe(200);
  });
  afterAll(() => server.dispose());

  it('sheds simulated carts with 503 and Retry-After, answers the others, and serves normally after the burst', async () => {
    const lines = Array.from({ length: 10 }, (_, i) => ({ order: i + 1, product_id: i + 1, total: 10, quantity: 1 }));
    const cart = cartBody(100, { lines });
    const answers = await burst(() => Array.from({ length: 200 }, () => server.client.post('/carts/simulate', cart)));
    expectShedOrAnswered(answers);
    for (const res of answers) if (res.status === 200) expect(res.body.total).toBe(90);
    shed.simulate = answers.filter((res) => res.status === 503).length;

    for (let i = 0; i < 20; i++) {
      const res = await server.client.post('/carts/simulate', cart);
      expect(res.status, res.text).toBe(200);
      expect(res.body.total).toBe(90);
    }
  });

  it('stores no shed realtime cart, grants it nothing, and keeps its id and Idempotency-Key for the retry', async () => {
    const sent: { id: number; body: Record<string, unknown>; key: string }[] = [];
    const answers = await burst((round) =>
      Array.from({ length: 60 }, (_, i) => {
        const id = 1000 + round * 100 + i;
        const body = cartBody(10 + i, { id, customer_id: CUSTOMER });
        sent.push({ id, body, key: `shed-${id}` });
        return server.client.post('/carts/realtime', body, { headers: { 'Idempotency-Key': `shed-${id}` } });
      }),
    );
    expectShedOrAnswered(answers);
    shed.realtime = answers.filter((res) => res.status === 503).length;

    // Ten points a euro of the total after the 10% discount.
    const points = (carts: typeof sent) => carts.reduce((sum, cart) => sum + 9 * (cart.body.total as number), 0);
    const stored = sent.filter((_, i) => answers[i].status === 200);
    const dropped = sent.filter((_, i) => answers[i].status === 503);
    expect(await balance()).toBe(points(stored));
    for (const cart of stored) expect((await server.client.get(`/carts/${cart.id}`)).status).toBe(200);
    for (const cart of dropped) {
      expect((await server.client.get(`/carts/${cart.id}`)).status).toBe(404);
      const retry = await server.client.post('/carts/realtime', cart.body, { headers: { 'Idempotency-Key': cart.key } });
      expect(retry.status, retry.text).toBe(200);
      expect(retry.headers.get('idempotent-replayed')).toBeNull();
      const replay = await server.client.post('/carts/realtime', cart.body, { headers: { 'Idempotency-Key': cart.key } });
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(replay.text).toBe(retry.text);
      expect((await server.client.get(`/carts/${cart.id}`)).status).toBe(200);
    }
    expect(await balance()).toBe(points(sent));
  });

  it('logs the carts shed, counted, not one line per cart', async () => {
    const reports = () =>
      server.lines.filter((line) => line.includes('"cart pool full')).map((line) => JSON.parse(line).shed as { simulate: number; realtime: number });
    await vi.waitFor(
      () => {
        const logged = reports().reduce((sum, report) => ({ simulate: sum.simulate + report.simulate, realtime: sum.realtime + report.realtime }), { simulate: 0, realtime: 0 });
        expect(logged).toEqual(shed);
      },
      { timeout: 5000, interval: 100 },
    );
    // One line a second at most: a burst of hundreds of shed carts is a few lines.
    expect(reports().length).toBeLessThan(shed.simulate + shed.realtime);
  });
});
