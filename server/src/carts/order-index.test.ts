/**
 * GET /carts?order_id= reads the `cart_orders` index ("which cart is this web order?"), written with the cart by
 * realtime carts, POST /carts, cancellations and merges; stores written before it are indexed at start
 * (order-index.ts). Over HTTP against the started server; the index itself read from the stopped server's store.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Key, type StoreEnv } from '../store/env.js';
import { migrations } from '../store/migrations.js';
import { everyListedPage } from '../testing/pages.js';
import { startServer, type TestServer } from '../testing/server.js';
import { indexCartOrders, PROGRESS } from './order-index.js';
import { CART_ORDERS, orderIndexKey } from './store.js';
import type { CartRecord } from './types.js';

/** Longer than the 255 characters of an order id that go into its key, and another sharing those. */
const LONG = 'W'.repeat(300);
/** Beyond LMDB's key limit whole (1,978 bytes). */
const HUGE = 'Y'.repeat(3000);
const SAME_START = `${'W'.repeat(255)}-other`;
/** A pair of surrogates across the 255th character: the half kept is dropped from the key. */
const CUT = `${'x'.repeat(254)}😀tail`;
const REFUSED = { status: 400, body: { code: 'invalid_request', error: 'starting_after: is not a token returned by this list' } };

async function withStore<T>(dataDir: string, work: (env: StoreEnv) => T | Promise<T>): Promise<T> {
  const env = openStore(dataDir);
  try {
    return await work(env);
  } finally {
    await env.close();
  }
}

const sorted = (keys: Key[][]) => keys.map((key) => JSON.stringify(key)).sort();

/** The index keys the store holds, and those its carts call for (one per cart with an order id). */
function indexOf(env: StoreEnv): { held: string[]; wanted: string[] } {
  const held = [...env.db(CART_ORDERS).getKeys({})] as Key[][];
  const wanted = [...env.db('carts').getRange({})].flatMap(({ key, value }) => {
    const cart = value as CartRecord;
    return cart.order_id === null ? [] : [orderIndexKey(String((key as Key[])[0]), cart.order_id, cart.id)];
  });
  return { held: sorted(held), wanted: sorted(wanted) };
}

describe('GET /carts?order_id= through the order index', () => {
  let server: TestServer;
  const ids = async (query: Record<string, string>) => {
    const res = await server.client.get('/carts', { query: { per_page: '100', ...query } });
    expect(res.status, res.text).toBe(200);
    return res.body.data.map((cart: { id: number }) => cart.id);
  };
  const cart = (path: string, body: Record<string, unknown>) =>
    server.client.post(path, { total: 1, lines: [{ order: 1, total: 1, quantity: 1 }], creation_date: '2026-01-10T10:00:00Z', ...body });

  beforeAll(async () => {
    server = await startServer();
    expect((await server.client.patch('/company', { cart_cancellation_wait_seconds: 0 })).status).toBe(200);
    for (const [id, code] of [[1, 'ONE'], [2, 'TWO'], [3, 'THREE']] as const) {
      expect((await server.client.post('/customers', { id, code, name: code, registration_location_id: 1 })).status).toBe(200);
    }
    const carts: [string, Record<string, unknown>][] = [
      ['/carts/realtime', { id: 201, customer_id: 1, location_id: 5, order_id: 'WEB-1' }],
      ['/carts/realtime', { id: 202, customer_id: 2, order_id: 'WEB-1' }],
      ['/carts/realtime', { id: 203, order_id: 'WEB-2' }],
      ['/carts/realtime', { id: 204, customer_id: 1 }],
      ['/carts/realtime', { id: 205, customer_id: 1, order_id: LONG }],
      ['/carts/realtime', { id: 206, order_id: SAME_START }],
      ['/carts/realtime', { id: 207, order_id: CUT }],
      ['/carts', { id: 208, customer_id: 1, order_id: 'WEB-1' }],
      ['/carts/realtime', { id: 210, customer_id: 3, order_id: 'WEB-3' }],
      ['/carts/realtime', { id: 211, order_id: HUGE }],
    ];
    for (const [path, body] of carts) {
      const res = await cart(path, body);
      expect(res.status, res.text).toBe(200);
    }
  });
  afterAll(() => server.dispose());

  it("finds an order's carts in id order, the other filters applied to them", async () => {
    expect(await ids({ order_id: 'WEB-1' })).toEqual([201, 202, 208]);
    expect(await ids({ order_id: 'WEB-1', customer_id: '1' })).toEqual([201, 208]);
    expect(await ids({ order_id: 'WEB-1', customer_code: 'TWO' })).toEqual([202]);
    expect(await ids({ order_id: 'WEB-1', customer_code: 'NOBODY' })).toEqual([]);
    expect(await ids({ order_id: 'WEB-1', location_id: '5' })).toEqual([201]);
    expect(await ids({ order_id: 'WEB-1', code: 'NONE' })).toEqual([]);
    expect(await ids({ order_id: 'WEB-2' })).toEqual([203]);
    expect(await ids({ order_id: 'NONE' })).toEqual([]);
    // Keyed by their first 255 characters, told apart by the whole id.
    expect(await ids({ order_id: LONG })).toEqual([205]);
    expect(await ids({ order_id: SAME_START })).toEqual([206]);
    expect(await ids({ order_id: 'W'.repeat(255) })).toEqual([]);
    expect(await ids({ order_id: CUT })).toEqual([207]);
    expect(await ids({ order_id: HUGE })).toEqual([211]);
    expect(await ids({ order_id: `${'x'.repeat(254)}😀` })).toEqual([]);
  });

  it("pages an order's carts; its tokens go on only in that order's list", async () => {
    const pages = await everyListedPage(server.client, '/carts', { order_id: 'WEB-1', per_page: '1' });
    expect(pages.map((page) => page.data.map((c) => c.id))).toEqual([[201], [202], [208]]);
    const token = pages[0].next_token_starts_after!;
    const unfiltered = (await server.client.get('/carts', { query: { per_page: '1' } })).body.next_token_starts_after;
    const ofCustomer = (await server.client.get('/carts', { query: { customer_id: '1', per_page: '1' } })).body.next_token_starts_after;
    for (const query of [
      { starting_after: token },
      { order_id: 'WEB-2', starting_after: token },
      { customer_id: '1', starting_after: token },
      { order_id: 'WEB-1', starting_after: unfiltered },
      { order_id: 'WEB-1', starting_after: ofCustomer },
    ] as Record<string, string>[]) {
      const res = await server.client.get('/carts', { query });
      expect({ status: res.status, body: res.body }, JSON.stringify(query)).toEqual(REFUSED);
    }
  });

  it("follows its carts: a cancellation's mirror carries the order, a merge's move keeps one entry", async () => {
    const mirror = await server.client.post('/carts/cancellation', { cart_to_cancel_id: 203, new_cart_id: 209 });
    expect(mirror.status, mirror.text).toBe(200);
    expect(await ids({ order_id: 'WEB-2' })).toEqual([203, 209]);
    expect((await server.client.post('/customers/transfer', { old_customer_id: 3, new_customer_id: 2 })).status).toBe(200);
    expect(await ids({ order_id: 'WEB-3' })).toEqual([210]);
    expect(await ids({ order_id: 'WEB-3', customer_id: '2' })).toEqual([210]);
    expect(await ids({ order_id: 'WEB-3', customer_id: '3' })).toEqual([]);
  });

  describe('a store written before the index', () => {
    /** Every order's carts as GET /carts lists them through the index. */
    const listed = async () => Object.fromEntries(await Promise.all(['WEB-1', 'WEB-2', 'WEB-3', LONG, SAME_START, CUT, HUGE].map(async (order) => [order, await ids({ order_id: order })])));
    let before: Record<string, number[]>;
    /** The store as written before `cart_orders`: no index, no migration recorded. */
    const withoutIndex = () => withStore(server.dataDir, (env) => env.transact(() => {
      env.db(CART_ORDERS).dropSync();
      migrations(env).removeSync(PROGRESS);
    }));

    beforeAll(async () => {
      before = await listed();
      await server.stop();
      // What the live code wrote, carts and mirrors alike, and nothing else.
      const { held, wanted } = await withStore(server.dataDir, indexOf);
      expect(held).toHaveLength(10);
      expect(held).toEqual(wanted);
    });

    it('is indexed at start, once: the lookups read as before', async () => {
      await withoutIndex();
      await server.restart();
      const built = server.lines.filter((line) => line.startsWith('{')).map((line) => JSON.parse(line)).find((line) => line.msg === 'carts indexed by order id');
      expect(built).toMatchObject({ carts: 10 });
      expect(await listed()).toEqual(before);
      await server.stop();
      const { held, wanted } = await withStore(server.dataDir, indexOf);
      expect(held).toEqual(wanted);
      await server.restart();
      expect(server.lines.some((line) => line.includes('indexed by order id'))).toBe(false);
      await server.stop();
    });

    it('is indexed in batches, a failed one resumed where it stopped, a key put twice changing nothing', async () => {
      await withoutIndex();
      await withStore(server.dataDir, async (env) => {
        const carts = [...env.db('carts').getRange({})].map(({ value }) => value as CartRecord);
        const firstBatch = carts.slice(0, 3).filter((c) => c.order_id !== null).length;
        // The second batch's transaction fails, as a crash would stop it.
        let batches = 0;
        const failing: StoreEnv = { ...env, transact: (work) => (++batches === 2 ? Promise.reject(new Error('crash')) : env.transact(work)) };
        await expect(indexCartOrders(failing, 3)).rejects.toThrow('crash');
        expect(indexOf(env).held).toHaveLength(firstBatch);
        expect(await indexCartOrders(env, 3)).toBe(10 - firstBatch);
        expect(await indexCartOrders(env, 3)).toBe(0);
        const { held, wanted } = indexOf(env);
        expect(held).toEqual(wanted);
      });
      await server.restart();
      expect(await listed()).toEqual(before);
    });
  });
});
