/**
 * The pool's options, and its batches (pool.ts): simulated carts travel to
 * the workers in batches, every cart of a batch gets its own answer, and a
 * cart that fails fails alone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cartBody } from '../testing/carts.js';
import { startServer, type TestServer } from '../testing/server.js';
import { evenBatchSize, readPoolOptions, writerFor } from './pool.js';

describe('simulated carts sent in batches', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ env: { WORKERS: '2', CART_BATCH_SIZE: '4' } });
    const discount = await server.client.post('/discounts', {
      rule_params: { name: 'Ten off', rule_effects: [{ type: 'percentage', value: 10, distribution: 'individual_items' }] },
    });
    expect(discount.status, discount.text).toBe(200);
  });
  afterAll(() => server.dispose());

  it('answers each cart of a burst with its own evaluation, and each bad cart with its own error', async () => {
    const carts = Array.from({ length: 48 }, (_, i) =>
      i % 6 === 5 ? cartBody(10 + i, { id: 1000 + i, lines: 'none' }) : cartBody(10 + i, { id: 1000 + i }),
    );
    const answers = await Promise.all(carts.map((cart) => server.client.post('/carts/simulate', cart)));
    answers.forEach((res, i) => {
      if (i % 6 === 5) {
        expect(res.status, res.text).toBe(400);
        expect(res.body).toMatchObject({ code: 'invalid_request' });
        expect(res.body.error).toContain('lines');
        return;
      }
      expect(res.status, res.text).toBe(200);
      expect(res.body.id).toBe(1000 + i);
      expect(res.body.original_total).toBe(10 + i);
      expect(res.body.total).toBe(Math.round((10 + i) * 90) / 100); // 10% off
    });
  });
});

describe('realtime carts committed on the writer thread', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ env: { WORKERS: '2' } });
    const points = await server.client.post('/points', {
      rule_params: { name: 'Ten a euro', rule_effects: [{ type: 'ratio', value: 10, distribution: 'individual_items' }] },
    });
    expect(points.status, points.text).toBe(200);
    expect((await server.client.post('/customers', { id: 5, name: 'C5', registration_location_id: 1 })).status).toBe(200);
  });
  afterAll(() => server.dispose());

  it("are seen by the main thread's next read, every time", async () => {
    // Other requests keep the main thread reading (each read may start a snapshot lmdb-js keeps for a while).
    let busy = true;
    const others = Array.from({ length: 4 }, async () => {
      while (busy) await server.client.get('/customers/5/points');
    });
    try {
      for (let round = 1; round <= 150; round++) {
        // Each its own sale: an identical cart without id would answer the first (duplicate suppression).
        const res = await server.client.post('/carts/realtime', cartBody(1, { customer_id: 5, id: 900_000 + round }));
        expect(res.status, res.text).toBe(200);
        const balance = await server.client.get('/customers/5/points');
        expect(balance.body.score, `round ${round}`).toBe(10 * round);
      }
    } finally {
      busy = false;
      await Promise.all(others);
    }
  });
});

describe('the start of the threads (CART_POOL_START)', () => {
  const starting = (server: TestServer) =>
    server.lines.filter((line) => line.includes('"cart threads starting"')).map((line) => {
      const { pool, threads } = JSON.parse(line) as { pool: string; threads: number };
      return `${pool} ${threads}`;
    });

  it('eager: every pool with the server, before it listens', async () => {
    const server = await startServer({ env: { CART_POOL_START: 'eager', WORKERS: '2', REALTIME_WORKERS: '2' } });
    try {
      expect(starting(server)).toEqual(['realtime 1', 'realtime 1', 'simulate 2']);
    } finally {
      await server.dispose();
    }
  });

  it('lazy: each pool with the first cart it takes, once, and that cart is answered', async () => {
    const server = await startServer({ env: { CART_POOL_START: 'lazy', REALTIME_WORKERS: '2', METRICS_PORT: '0' } });
    try {
      expect((await server.client.get('/check')).status).toBe(200);
      // A scrape reports the pools not yet made as idle, and does not make them.
      const scrape = await (await fetch(`http://127.0.0.1:${server.metricsPort}/metrics`)).text();
      expect(scrape).toContain('tally_pool_queue_size{pool="simulate"} 0');
      expect(scrape).toContain('tally_pool_queue_size{pool="realtime"} 0');
      expect(starting(server)).toEqual([]);
      const simulated = await Promise.all([12, 13].map((total) => server.client.post('/carts/simulate', cartBody(total))));
      expect(simulated.map((res) => res.body.total)).toEqual([12, 13]);
      expect(starting(server)).toEqual(['simulate 1']);
      const realtime = await server.client.post('/carts/realtime', cartBody(12, { id: 77 }));
      expect(realtime.status, realtime.text).toBe(200);
      expect((await server.client.get('/carts/77')).body.id).toBe(77);
      // The second writer takes carts only once the first holds REALTIME_WRITER_FILL of them.
      expect(starting(server)).toEqual(['simulate 1', 'realtime 1']);
    } finally {
      await server.dispose();
    }
  });
});

describe('the pool options', () => {
  it('default to 32 tasks a worker, batches of 16 simulated carts and two threads for the carts that write, filled 16 carts each', () => {
    expect(readPoolOptions({ WORKERS: '2' })).toEqual({
      workers: 2, tasksPerWorker: 32, batchSize: 16, writers: 2, writerFill: 16, queueLimits: { simulate: 4000, realtime: 1000 }, start: 'eager',
    });
    expect(readPoolOptions({ WORKERS: '3', CART_TASKS_PER_WORKER: '8', CART_BATCH_SIZE: '4', REALTIME_WORKERS: '1', REALTIME_WRITER_FILL: '4', CART_QUEUE_LIMIT: '50', CART_POOL_START: 'lazy' })).toEqual({
      workers: 3, tasksPerWorker: 8, batchSize: 4, writers: 1, writerFill: 4, queueLimits: { simulate: 50, realtime: 50 }, start: 'lazy',
    });
  });

  it('bound the carts each pool holds to CART_QUEUE_LIMIT, unbounded for 0', () => {
    expect(readPoolOptions({ CART_QUEUE_LIMIT: '0' }).queueLimits).toEqual({ simulate: Infinity, realtime: Infinity });
    for (const bad of ['-1', '2.5', 'many']) expect(() => readPoolOptions({ CART_QUEUE_LIMIT: bad })).toThrow(`CART_QUEUE_LIMIT must be an integer of at least 0, got ${bad}`);
  });

  it('refuse anything but a positive integer (WORKERS may be 0: inline)', () => {
    for (const name of ['CART_TASKS_PER_WORKER', 'CART_BATCH_SIZE', 'REALTIME_WORKERS', 'REALTIME_WRITER_FILL']) {
      for (const bad of ['0', '-1', '2.5', 'many']) expect(() => readPoolOptions({ [name]: bad })).toThrow(`${name} must be an integer of at least 1, got ${bad}`);
    }
    // The range in the words of every other range (docs/decisions.md), in a start-up error's form.
    expect(() => readPoolOptions({ WORKERS: '-1' })).toThrow('WORKERS must be an integer of at least 0, got -1');
    expect(readPoolOptions({ WORKERS: '0' }).workers).toBe(0);
    expect(() => readPoolOptions({ CART_POOL_START: 'later' })).toThrow('CART_POOL_START must be one of eager, lazy, got later');
  });
});

describe('the batches of one turn', () => {
  it('are as few as the cap allows, and evenly sized', () => {
    expect(evenBatchSize(1, 16)).toBe(1);
    expect(evenBatchSize(10, 16)).toBe(10);
    expect(evenBatchSize(16, 16)).toBe(16);
    expect(evenBatchSize(17, 16)).toBe(9);
    expect(evenBatchSize(20, 16)).toBe(10);
    expect(evenBatchSize(40, 16)).toBe(14);
    expect(evenBatchSize(48, 4)).toBe(4);
  });
});

describe('the writer of a realtime cart', () => {
  it('is the first writer holding fewer carts than the fill: one writer takes every cart at a low rate', () => {
    expect(writerFor([0, 0], 16)).toBe(0);
    expect(writerFor([15, 0], 16)).toBe(0);
    expect(writerFor([16, 0], 16)).toBe(1);
    expect(writerFor([16, 15], 16)).toBe(1);
    expect(writerFor([3, 20, 0], 2)).toBe(2);
  });

  it('is the one holding fewest once every writer holds the fill (the first of equals)', () => {
    expect(writerFor([16, 16], 16)).toBe(0);
    expect(writerFor([20, 17], 16)).toBe(1);
    expect(writerFor([30, 18, 18], 16)).toBe(1);
    expect(writerFor([5], 1)).toBe(0);
  });
});
