import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../testing/server.js';
import { balance, createCustomer, grant, transactions, triggerCampaign, utcDate } from './testing.js';

describe('POST /points/transfer', () => {
  let server: TestServer;
  let transferable: number;
  let locked: number;
  beforeAll(async () => {
    server = await startServer();
    for (const id of [10, 11, 12, 13, 14, 15, 16]) await createCustomer(server.client, id);
    transferable = await triggerCampaign(server.client, 'gift', 100, { expiration_period_type: 'fixed', expiration_date: utcDate(40) });
    locked = await triggerCampaign(server.client, 'locked', 50, { transferable: false });
  });
  afterAll(async () => {
    await server.dispose();
  });

  it('moves points with their expiry, records both sides and the author', async () => {
    await grant(server.client, 'gift', 10, transferable);
    const res = await server.client.post('/points/transfer', { score: 30, from_customer_id: 10, to_customer_id: 11, comments: 'for you' }, { headers: { 'X-Author-Email': 'Agent@Shop.example' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ from_customer_id: 10, to_customer_id: 11, score: 30, comments: 'for you', requested_scores: 30 });
    expect(await balance(server.client, 10)).toMatchObject({ score: 70, score_available: 70 });
    expect(await balance(server.client, 11)).toMatchObject({ score: 30, score_available: 30 });
    const [received] = await transactions(server.client, 11);
    expect(received).toMatchObject({
      type: 'transfer', amount: 30, author: 'agent@shop.example',
      origin_info: { comments: 'for you', from_customer_id: 10, to_customer_id: 11 },
      scores: [expect.objectContaining({ score: 30, available_to: utcDate(40) })],
    });
    const sent = (await transactions(server.client, 10, { origin_type: 'transfer' }))[0];
    expect(sent).toMatchObject({ amount: -30, author: 'agent@shop.example' });
    // The received points keep their expiry date.
    expect((await server.client.get('/customers/11/points_expiring')).body.data).toEqual([expect.objectContaining({ score_available: 30 })]);
    expect((await server.client.post('/scores/transfer', { score: 1, from_customer_id: 11, to_customer_id: 10 })).status).toBe(200);
  });

  it('never moves the points of a non-transferable campaign', async () => {
    await grant(server.client, 'locked', 12, locked);
    await grant(server.client, 'gift', 12, transferable);
    const tooMuch = await server.client.post('/points/transfer', { score: 120, from_customer_id: 12, to_customer_id: 13 });
    expect(tooMuch.status).toBe(402);
    expect(tooMuch.body.code).toBe('customer_not_enough_score');
    expect(await balance(server.client, 12)).toMatchObject({ score_available: 150 });
    expect(await balance(server.client, 13)).toMatchObject({ score_available: 0 });
    const partial = await server.client.post('/points/transfer', { score: 120, from_customer_id: 12, to_customer_id: 13, allow_partial: true });
    expect(partial.body).toMatchObject({ score: 100, requested_scores: 120 });
    expect(await balance(server.client, 12)).toMatchObject({ score_available: 50 });
    expect(await balance(server.client, 13)).toMatchObject({ score_available: 100 });
    // score is an int64: the largest asks more than anyone holds, an error without allow_partial, all of it with it.
    const largest = '{"score": 9223372036854775807, "from_customer_id": 13, "to_customer_id": 12';
    const refused = await server.client.post('/points/transfer', `${largest}}`);
    expect(refused.status).toBe(402);
    expect(refused.body).toEqual({ code: 'customer_not_enough_score', error: 'score: 9223372036854775807 points asked, 100 transferable' });
    const all = await server.client.post('/points/transfer', `${largest}, "allow_partial": true}`);
    expect(all.status, all.text).toBe(200);
    expect(all.text).toContain('"requested_scores":9223372036854775807');
    expect(all.body).toMatchObject({ score: 100 });
    expect(await balance(server.client, 13)).toMatchObject({ score_available: 0 });
    expect(await balance(server.client, 12)).toMatchObject({ score_available: 150 });
    expect((await server.client.post('/points/transfer', { score: 100, from_customer_id: 12, to_customer_id: 13 })).status).toBe(200);
    const nothingLeft = await server.client.post('/points/transfer', { score: 1, from_customer_id: 12, to_customer_id: 13, allow_partial: true });
    expect(nothingLeft.status).toBe(402);
    expect(nothingLeft.body.code).toBe('customer_not_enough_score');
  });

  it('refuses inactive customers on either side, and writes nothing', async () => {
    await grant(server.client, 'gift', 14, transferable);
    expect((await server.client.patch('/customers/15', { status: 'inactive' })).status).toBe(200);
    const toInactive = await server.client.post('/points/transfer', { score: 10, from_customer_id: 14, to_customer_id: 15 });
    expect(toInactive.status).toBe(402);
    expect(toInactive.body.code).toBe('customer_inactive');
    const fromInactive = await server.client.post('/points/transfer', { score: 10, from_customer_id: 15, to_customer_id: 14 });
    expect(fromInactive.body.code).toBe('customer_inactive');
    expect(await balance(server.client, 14)).toMatchObject({ score_available: 100 });
    expect(await transactions(server.client, 15)).toEqual([]);
  });

  it('refuses customers merged while the transfer waited for its transaction, and writes nothing for them', async () => {
    for (const id of [20, 21, 22, 23, 24, 25]) await createCustomer(server.client, id);
    for (const id of [20, 23]) await grant(server.client, 'gift', id, transferable);
    // To 21, merged into 22, and from 23, merged into 25; the merges commit among the transfers' transactions.
    const sending = () => Array.from({ length: 10 }, () => [
      server.client.post('/points/transfer', { score: 1, from_customer_id: 20, to_customer_id: 21 }),
      server.client.post('/points/transfer', { score: 1, from_customer_id: 23, to_customer_id: 24 }),
    ]).flat();
    const before = sending();
    const merges = [server.client.post('/customers/transfer', { old_customer_id: 21, new_customer_id: 22 }), server.client.post('/customers/transfer', { old_customer_id: 23, new_customer_id: 25 })];
    const sent = [...before, ...sending()];
    for (const merge of await Promise.all(merges)) expect(merge.status, merge.text).toBe(200);
    const answers = await Promise.all(sent);
    for (const res of answers) expect(res.status === 200 ? 'moved' : res.body.code, res.text).toMatch(/^(moved|customer_inactive)$/);
    expect(await transactions(server.client, 21)).toEqual([]);
    expect(await transactions(server.client, 23)).toEqual([]);
    const received = (await balance(server.client, 22)).score + (await balance(server.client, 24)).score;
    expect((await balance(server.client, 20)).score + (await balance(server.client, 25)).score + received).toBe(200);
  });

  it('checks its fields', async () => {
    for (const [body, field, status] of [
      [{ from_customer_id: 14, to_customer_id: 16 }, 'score', 400],
      [{ score: 0, from_customer_id: 14, to_customer_id: 16 }, 'score', 400],
      [{ score: 5, to_customer_id: 16 }, 'from_customer_id', 400],
      [{ score: 5, from_customer_id: 14, to_customer_id: 14 }, 'to_customer_id', 400],
      [{ score: 5, from_customer_id: 14, to_customer_id: 999 }, 'to_customer_id', 404],
    ] as const) {
      const res = await server.client.post('/points/transfer', body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.body.error).toContain(field);
    }
    const beyond = await server.client.post('/points/transfer', '{"score": 9223372036854775808, "from_customer_id": 14, "to_customer_id": 16}');
    expect(beyond.body).toEqual({ code: 'invalid_request', error: 'score: must be an integer between 1 and 9223372036854775807' });
    const badAuthor = await server.client.post('/points/transfer', { score: 5, from_customer_id: 14, to_customer_id: 16 }, { headers: { 'X-Author-Email': 'not an email' } });
    expect(badAuthor.status).toBe(400);
    expect(await balance(server.client, 16)).toMatchObject({ score: 0 });
  });
});
