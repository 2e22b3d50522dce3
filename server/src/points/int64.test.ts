import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../testing/server.js';
import { triggerCampaign } from './testing.js';

const MAX = 9223372036854775807n;
const NEXT = 9223372036854775806n;

describe('int64 ids above 2^53 through the ledger, triggers and custom events', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
    for (const id of [MAX, NEXT]) {
      const res = await server.client.post('/customers', { id: String(id), name: 'Big', registration_location_id: 1 });
      expect(res.status, res.text).toBe(200);
    }
  });
  afterAll(async () => {
    await server.dispose();
  });

  it('keeps customer, location and campaign ids exact', async () => {
    const campaign = await triggerCampaign(server.client, 'big', 70);
    expect((await server.client.post('/locations', { id: '9007199254740993', name: 'Big shop', country: 'ES' })).status).toBe(200);
    const granted = await server.client.post('/trigger', { trigger: 'big', customer_id: String(MAX), loyalty_rule_id: campaign, location_id: '9007199254740993' });
    expect(granted.status, granted.text).toBe(200);
    expect(granted.body.customer.id).toBe(MAX);
    const moved = await server.client.post('/points/transfer', { score: 20, from_customer_id: String(MAX), to_customer_id: String(NEXT) });
    expect(moved.body).toMatchObject({ from_customer_id: MAX, to_customer_id: NEXT, score: 20 });
    expect((await server.client.get(`/customers/${NEXT}/points`)).body.score).toBe(20);
    const [tx] = (await server.client.get('/points/transactions', { query: { customer_id: String(MAX) } })).body.data;
    expect(tx).toMatchObject({ customer_id: MAX, location_id: 9007199254740993n });
    const [received] = (await server.client.get('/points/transactions', { query: { customer_id: String(NEXT) } })).body.data;
    expect(received.origin_info).toMatchObject({ from_customer_id: MAX, to_customer_id: NEXT });
    await server.client.post('/custom_event_definitions', { slug: 'big-event', schema: { type: 'object' } });
    const event = await server.client.post('/custom_events', { customer_id: String(NEXT), slug: 'big-event', data: { n: 1 } });
    expect(event.body).toMatchObject({ customer_id: NEXT, customer: { id: NEXT } });
  });
});
