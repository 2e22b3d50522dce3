/**
 * Challenge enrolments, progress and cart metrics follow customer merges over
 * HTTP: a transfer joins them into the new customer, an unmerge gives them
 * back (the metrics only with with_activites, like the carts), and a hard
 * delete is not stopped by them and removes them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer, transactions } from '../points/testing.js';
import { realtimeCart } from '../testing/carts.js';
import { startServer, type TestServer } from '../testing/server.js';

const json = { 'Content-Type': 'application/json' };

describe('challenge records and customer merges', () => {
  let server: TestServer;
  const challenge = async () => {
    const structure = [
      { level: 1, name: 'Starter', threshold: 10, points: 5 },
      { level: 2, name: 'Pro', threshold: 50.5, points: 20 },
    ];
    const res = await server.client.post('/challenges', { name: 'Spend', attribute: 'total_spent', structure });
    expect(res.status, res.text).toBe(200);
    return res.body.id as number;
  };
  const enroll = async (id: number, customerId: number) =>
    expect((await server.client.post(`/challenges/${id}/enroll`, { customer_id: customerId })).status).toBe(200);
  const cart = (customerId: number, total: number) => realtimeCart(server.client, customerId, total);
  const progress = async (customerId: number, id: number) => {
    const res = await server.client.get(`/customers/${customerId}/challenges/${id}`);
    expect(res.status, res.text).toBe(200);
    const { enrolled, attribute_value, current_level } = res.body;
    return { enrolled, attribute_value, current_level };
  };
  const transfer = async (from: number, to: number) =>
    expect((await server.client.post('/customers/transfer', { old_customer_id: from, new_customer_id: to })).status).toBe(200);
  const unmerge = async (id: number, withActivities: boolean) =>
    expect((await server.client.post(`/customers/${id}/unmerge`, undefined, { headers: json, query: { with_activites: String(withActivities) } })).status).toBe(200);
  const levelsGranted = async (customerId: number) =>
    (await transactions(server.client, customerId, { origin_type: 'challenge' })).map((t) => t.origin_info.level).sort();

  beforeAll(async () => {
    server = await startServer();
    for (const id of [1, 2, 3, 4, 5, 6, 7, 8]) await createCustomer(server.client, id, { country: 'ES' });
  });
  afterAll(() => server.dispose());

  it('both enrolled: the merged customer measures both customers carts and is rewarded each level once; unmerge gives each its own back', async () => {
    const id = await challenge();
    await enroll(id, 1);
    await enroll(id, 2);
    await cart(1, 30);
    await cart(2, 5);
    expect(await levelsGranted(1)).toEqual([1]);

    await transfer(1, 2);
    expect(await progress(2, id)).toEqual({ enrolled: true, attribute_value: 35, current_level: 1 });
    await cart(2, 20);
    expect(await progress(2, id)).toEqual({ enrolled: true, attribute_value: 55, current_level: 2 });
    // Level 1's points came with customer 1's transactions; level 2 is granted once, level 1 not again.
    expect(await levelsGranted(2)).toEqual([1, 2]);

    await unmerge(1, true);
    expect(await progress(1, id)).toEqual({ enrolled: true, attribute_value: 30, current_level: 1 });
    expect(await progress(2, id)).toEqual({ enrolled: true, attribute_value: 25, current_level: 1 });
    expect((await server.client.get(`/challenges/${id}`)).body.current_enrollments).toBe(2);
  });

  it('only the old customer enrolled: the new one is enrolled while merged and not after; without with_activites the metrics stay with the carts', async () => {
    const id = await challenge();
    await enroll(id, 3);
    await cart(3, 12);

    await transfer(3, 4);
    expect(await progress(4, id)).toEqual({ enrolled: true, attribute_value: 12, current_level: 1 });

    await unmerge(3, false);
    expect(await progress(3, id)).toEqual({ enrolled: true, attribute_value: 0, current_level: 0 });
    expect(await progress(4, id)).toEqual({ enrolled: false, attribute_value: 12, current_level: 1 });
  });

  it('follows a chain of merges and comes back link by link', async () => {
    const id = await challenge();
    await enroll(id, 6);
    await cart(6, 12);
    await cart(8, 1);
    await transfer(6, 7);
    await transfer(7, 8);
    expect(await progress(8, id)).toEqual({ enrolled: true, attribute_value: 13, current_level: 1 });

    await unmerge(7, true);
    expect(await progress(7, id)).toEqual({ enrolled: true, attribute_value: 12, current_level: 1 });
    expect(await progress(8, id)).toEqual({ enrolled: false, attribute_value: 1, current_level: 0 });
    await unmerge(6, true);
    expect(await progress(6, id)).toEqual({ enrolled: true, attribute_value: 12, current_level: 1 });
    expect(await progress(7, id)).toEqual({ enrolled: false, attribute_value: 0, current_level: 0 });
  });

  it('an enrolment alone does not stop a hard delete, which removes it', async () => {
    const id = await challenge();
    await enroll(id, 5);
    const res = await server.client.delete('/customers/5', { query: { hard: 'true' }, headers: json });
    expect(res.body).toEqual({ status: 'success', deleted: 'hard' });
    // Another body than the first create (an identical repeat would get the first answer).
    await createCustomer(server.client, 5, { country: 'ES', name: 'Again' });
    expect(await progress(5, id)).toEqual({ enrolled: false, attribute_value: 0, current_level: 0 });
  });

  it('a cart cancelled after its customer merged comes out of the metrics it was counted in, so an unmerge gives back the right values', async () => {
    expect((await server.client.patch('/company', { cart_cancellation_wait_seconds: 0 })).status).toBe(200);
    for (const customerId of [21, 22]) await createCustomer(server.client, customerId, { country: 'ES' });
    const id = await challenge();
    await enroll(id, 21);
    await enroll(id, 22);
    const made = await cart(21, 30);
    await cart(22, 5);
    await transfer(21, 22);
    expect(await progress(22, id)).toMatchObject({ attribute_value: 35 });
    const cancelled = await server.client.post('/carts/cancellation', { cart_to_cancel_id: made.body.id });
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(await progress(22, id)).toMatchObject({ attribute_value: 5 });
    await unmerge(21, true);
    expect(await progress(21, id)).toMatchObject({ attribute_value: 0 });
    expect(await progress(22, id)).toMatchObject({ attribute_value: 5 });
  });
});

// Enrolments in flight while the merge commits: found active before it, written after.
describe('challenge enrolments racing a merge of their customer', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.dispose());

  it('enrol and reward nothing on the merged customer: the status is read again inside the enrolment\'s transaction', async () => {
    // Reached at the enrolment: a level's points are written with it.
    const structure = [{ level: 1, name: 'Welcome', threshold: 0, points: 7 }];
    const created = await server.client.post('/challenges', { name: 'Join', attribute: 'total_spent', structure });
    expect(created.status, created.text).toBe(200);
    for (let old = 10; old < 20; old += 2) {
      await createCustomer(server.client, old);
      await createCustomer(server.client, old + 1);
      const enrolling = () => Array.from({ length: 5 }, () => server.client.post(`/challenges/${created.body.id}/enroll`, { customer_id: old }));
      const before = enrolling();
      const merge = server.client.post('/customers/transfer', { old_customer_id: old, new_customer_id: old + 1 });
      const sent = [...before, ...enrolling()];
      expect((await merge).status).toBe(200);
      for (const res of await Promise.all(sent)) expect(res.status === 200 ? 'enrolled' : res.body.code, res.text).toMatch(/^(enrolled|customer_inactive)$/);
      expect(await transactions(server.client, old), `customer ${old}`).toEqual([]);
      expect((await server.client.get(`/customers/${old}/challenges/${created.body.id}`)).body.enrolled, `customer ${old}`).toBe(false);
    }
  });
});
