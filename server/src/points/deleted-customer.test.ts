/**
 * Points movements racing a delete of their customer: the customer is found when the request arrives, and read
 * again inside the write transaction (requireUnmerged), so one whose delete committed in between gets nothing.
 * Many requests are in flight around each delete: those found before it and written after are the race.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../testing/server.js';
import { balance, createCustomer, triggerCampaign } from './testing.js';

const json = { 'Content-Type': 'application/json' };

describe('points movements racing a delete of their customer', () => {
  let server: TestServer;
  const around = async (id: number, hard: string, request: () => Promise<unknown>) => {
    const send = () => Array.from({ length: 10 }, request);
    const before = send();
    const deleted = server.client.delete(`/customers/${id}`, { headers: json, query: { hard } });
    const sent = [...before, ...send()];
    await Promise.all(sent);
    const res = await deleted;
    expect(res.status, res.text).toBe(200);
    return res.body.deleted as 'hard' | 'soft';
  };
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.dispose());

  it('credit no trigger points to a hard-deleted customer (a customer created again with its id starts at 0)', async () => {
    const campaign = await triggerCampaign(server.client, 'visit', 10);
    for (let id = 100; id < 110; id++) {
      await createCustomer(server.client, id);
      const done = await around(id, 'true', () => server.client.post('/trigger', { trigger: 'visit', customer_id: id, loyalty_rule_id: campaign }));
      // Soft: a trigger committed first, and its points (critical) kept the record. Hard: nothing was granted before it.
      if (done === 'soft') continue;
      await createCustomer(server.client, id);
      expect((await balance(server.client, id)).score, `customer ${id}`).toBe(0);
    }
  });

  it('record no custom event for a soft-deleted customer (the delete removes those it had)', async () => {
    expect((await server.client.post('/custom_event_definitions', { slug: 'check-in', schema: { type: 'object' } })).status).toBe(200);
    for (let id = 200; id < 210; id++) {
      await createCustomer(server.client, id);
      await around(id, 'false', () => server.client.post('/custom_events', { customer_id: id, slug: 'check-in', data: {} }));
      const exported = await server.client.get(`/customers/${id}/export`, { query: { search_param: 'id' } });
      expect(exported.body.custom_events.data, `customer ${id}`).toEqual([]);
    }
  });

  it('refuse a customer named by code by the code sent, whether its delete came before the lookup or before the write', async () => {
    expect((await server.client.post('/custom_event_definitions', { slug: 'visit', schema: { type: 'object' } })).status).toBe(200);
    for (let id = 300; id < 310; id++) {
      await createCustomer(server.client, id, { code: `C${id}` });
      const answers: { status: number; body: unknown }[] = [];
      await around(id, 'false', async () => {
        answers.push(await server.client.post('/custom_events', { customer_code: `C${id}`, slug: 'visit', data: {} }));
      });
      // The one id it resolved to is not what the client sent (it said `customer_code: no customer 300`).
      for (const { body } of answers.filter((answer) => answer.status !== 200)) {
        expect(body, `customer ${id}`).toEqual({ code: 'customer_not_found', error: `customer_code: no customer C${id}` });
      }
    }
  });
});
