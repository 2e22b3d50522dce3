/**
 * A retailer in several currencies: points are worth money of the Company's
 * currency only (GET /cashbacks has no exchange for a location of another
 * currency), so a cart in another currency spends none of them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { balance, expectLedgerAddsUp, grant, triggerCampaign } from '../points/testing.js';
import { cartBody } from '../testing/carts.js';
import { startServer, type TestServer } from '../testing/server.js';

describe('carts in several currencies', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
    const c = server.client;
    for (const [id, code, country] of [[1, 'MAD', 'ES'], [3, 'LON', 'GB']] as const) {
      expect((await c.post('/locations', { id, code, name: code, country })).status).toBe(200);
    }
    expect((await c.post('/customers', { id: 10, name: 'Ana', registration_location_id: 1 })).status).toBe(200);
    await grant(c, 'welcome', 10, await triggerCampaign(c, 'welcome', 1000));
  });
  afterAll(() => server.dispose());

  it('a cart in another currency spends no points, as GET /cashbacks has no exchange there; in the Company currency it does', async () => {
    const c = server.client;
    const none = await c.get('/cashbacks', { query: { location_id: '3' } });
    expect([none.status, none.body.code]).toEqual([404, 'exchange_not_found']);
    for (const [id, request] of [[1, { cashback_score_desired: 500 }], [2, { cashbacks: [{ line_order: 1, score: 500 }] }]] as const) {
      const abroad = await c.post('/carts/realtime', cartBody(20, { id, customer_id: 10, location_id: 3, currency: 'GBP', ...request }));
      expect(abroad.status, abroad.text).toBe(200);
      expect(abroad.body).toMatchObject({ currency: 'GBP', international: true, total: 20, score_used: 0, score_used_as_money: 0, cashbacks: [] });
      expect(abroad.body.customer[0].score_available).toBe(1000);
    }
    expect((await c.get('/carts/1')).body.cashback_score_desired_unused).toBe(500);
    expect((await balance(c, 10)).score_available).toBe(1000);
    const home = await c.post('/carts/realtime', cartBody(20, { id: 3, customer_id: 10, location_id: 1, cashback_score_desired: 500 }));
    expect(home.body).toMatchObject({ currency: 'EUR', total: 15, score_used: 500, score_used_as_money: 5, cashbacks: [{ line_order: 1, score: 500, discount: 5 }] });
    expect(home.body.international).toBeUndefined();
    expect((await balance(c, 10)).score_available).toBe(500);
    await expectLedgerAddsUp(c, 10);
  });
});
