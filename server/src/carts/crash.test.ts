import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../testing/server.js';

const CUSTOMERS = [1, 2, 3, 4];

describe('kill -9 during a stream of realtime carts', () => {
  let server: TestServer;
  /** Carts that got a 200 before the crash, with the points their response showed. */
  const acknowledged = new Map<number, number>();

  beforeAll(async () => {
    // The production default of the file's headroom (the harness turns it off): the store's file as servers keep it.
    server = await startServer({ env: { WORKERS: '2', STORE_FILE_HEADROOM_MB: '64' } });
    for (const id of CUSTOMERS) await server.client.post('/customers', { id, name: `C${id}`, registration_location_id: 1 });
    await server.client.post('/points', { rule_params: { name: 'Ten per unit', rule_effects: [{ type: 'ratio', value: 10, distribution: 'individual_items' }] } });
    let next = 1;
    let crashed = false;
    const stream = async () => {
      while (!crashed) {
        const id = next++;
        const total = 1 + (id % 7) + 0.99;
        const body = { id, customer_id: CUSTOMERS[id % CUSTOMERS.length], creation_date: '2026-11-20T10:00:00Z', total, lines: [{ order: 1, product_id: 1, total, quantity: 1 }] };
        try {
          const res = await server.client.post('/carts/realtime', body);
          // Any 200 was sent before the process died: it must be durable.
          if (res.status === 200) acknowledged.set(id, res.body.score);
        } catch {
          // the connection died with the server
        }
      }
    };
    const streams = Array.from({ length: 16 }, stream);
    while (acknowledged.size < 300) await new Promise((resolve) => setTimeout(resolve, 5));
    // Stop the streams first: once the server is gone their requests fail at once, a loop that would starve the event loop.
    crashed = true;
    await server.crash();
    await Promise.all(streams);
    await server.restart();
  }, 120_000);
  afterAll(async () => {
    await server.dispose();
  });

  it('every cart that got a 200 is stored with its points', async () => {
    expect(acknowledged.size).toBeGreaterThanOrEqual(300);
    for (const [id, score] of acknowledged) {
      const res = await server.client.get(`/carts/${id}`);
      expect(res.status, `cart ${id}`).toBe(200);
      expect(res.body.score).toBe(score);
    }
  });

  it('each balance equals the points of the stored carts and the sum of the ledger transactions', async () => {
    for (const customer of CUSTOMERS) {
      let earned = 0;
      let token: string | undefined;
      do {
        const page = await server.client.get('/carts', { query: { customer_id: String(customer), per_page: '100', ...(token ? { starting_after: token } : {}) } });
        earned += page.body.data.reduce((sum: number, cart: { score: number }) => sum + cart.score, 0);
        token = page.body.next_token_starts_after;
      } while (token);
      let ledger = 0;
      token = undefined;
      do {
        const page = await server.client.get('/points/transactions', { query: { customer_id: String(customer), per_page: '100', ...(token ? { starting_after: token } : {}) } });
        ledger += page.body.data.reduce((sum: number, tx: { amount: number; pending_amount: number }) => sum + tx.amount + tx.pending_amount, 0);
        token = page.body.next_token_starts_after;
      } while (token);
      const balance = (await server.client.get(`/customers/${customer}/points`)).body.score;
      expect(balance, `customer ${customer}`).toBe(earned);
      expect(ledger, `customer ${customer}`).toBe(balance);
    }
  });
});
