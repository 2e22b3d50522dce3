import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../store/env.js';
import { createReward, customersWithPoints, LOCATION, redeem } from '../rewards/testing.js';
import { cartBody } from '../testing/carts.js';
import { startServer, type TestServer } from '../testing/server.js';
import { deleteCustomer } from './delete.js';
import type { CustomerOwnedKind } from './owned-records.js';
import { CustomerStore } from './store.js';
import type { CustomerRecord } from './types.js';

const json = { 'Content-Type': 'application/json' };

describe('DELETE /customers/{value}', () => {
  let server: TestServer;
  const create = (body: Record<string, unknown>) => server.client.post('/customers', { name: 'N', registration_location_id: 1, ...body });
  const del = (value: string, query: Record<string, string>) => server.client.delete(`/customers/${value}`, { query, headers: json });
  const get = (id: number) => server.client.get(`/customers/${id}`, { query: { search_param: 'id' } });

  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.dispose());

  it('hard-deletes a customer without critical relations; its id and email can be used again', async () => {
    await create({ id: 1, email: 'one@example.com', code: 'D1' });
    await server.client.post('/customers/1/cards', { id: 501 });
    const res = await del('D1', { hard: 'true', search_param: 'code' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'success', deleted: 'hard' });
    expect((await get(1)).status).toBe(404);
    expect((await create({ id: 1, email: 'one@example.com' })).status).toBe(200);
    // Its card went with it.
    expect((await server.client.post('/customers/1/cards', { id: 501 })).status).toBe(200);
  });

  it('soft-deletes: the customer is emptied, not found, and its id is never reused', async () => {
    await create({ id: 2, email: 'two@example.com', surname_1: 'Gone' });
    const res = await del('2', { hard: 'false' });
    expect(res.status).toBe(200);
    expect(res.body.deleted).toBe('soft');
    expect((await get(2)).status).toBe(404);
    const again = await create({ id: 2 });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('duplicate_id');
    // Its identifiers are released.
    expect((await create({ id: 3, email: 'two@example.com' })).status).toBe(200);
  });

  // The code is released and may name another person next: the records kept went on naming the deleted one by it.
  it('a soft delete leaves no record it keeps naming the customer by its released code (carts, points, redemptions)', async () => {
    expect((await server.client.post('/locations', LOCATION)).status).toBe(200);
    await customersWithPoints(server.client, [60], 200, { code: 'K60' });
    expect((await redeem(server.client, await createReward(server.client, { points: 50 }), 60)).status).toBe(200);
    expect((await server.client.post('/carts/realtime', cartBody(10, { id: 6001, customer_code: 'K60' }))).status).toBe(200);
    expect((await server.client.get('/carts/6001')).body).toMatchObject({ customer_code: 'K60', customer: { id: 60, code: 'K60' } });
    expect((await del('60', { hard: 'true' })).body.deleted).toBe('soft');
    expect((await create({ id: 61, code: 'K60' })).status).toBe(200);
    const cart = (await server.client.get('/carts/6001')).body;
    expect(cart).toMatchObject({ customer_id: 60, customer_code: null, customer: { id: 60, code: null } });
    const kept = await server.client.get('/customers/60/export', { query: { search_param: 'id' } });
    expect(kept.status, kept.text).toBe(200);
    expect(kept.body.points_transactions.data.length).toBeGreaterThan(0);
    expect(kept.body.reward_redemptions.data.length).toBe(1);
    expect(kept.body.carts.data.map((c: { id: number }) => c.id)).toEqual([6001]);
    expect(kept.text).not.toContain('K60');
  });

  it('requires hard and the JSON Content-Type', async () => {
    await create({ id: 4 });
    const noHard = await del('4', {});
    expect(noHard.status).toBe(400);
    expect(noHard.body.error).toMatch(/^hard: /);
    const noType = await server.client.delete('/customers/4', { query: { hard: 'true' } });
    expect(noType.status).toBe(400);
    expect((await get(4)).status).toBe(200);
  });

  it('answers 404 when deleting a missing id, and the first answer to an identical repeat', async () => {
    const missing = await del('77', { hard: 'true' });
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('customer_not_found');
    await create({ id: 5 });
    const first = await del('5', { hard: 'true' });
    const repeat = await del('5', { hard: 'true' });
    expect(first.status).toBe(200);
    expect(repeat.status).toBe(200);
    expect(repeat.text).toBe(first.text);
  });

  it('suppresses by the customer, not the path: a repeat by the code the delete released, a PATCH after a delete by code', async () => {
    await create({ id: 8, code: 'c8' });
    const first = await del('c8', { hard: 'false', search_param: 'code' });
    const repeat = await del('c8', { hard: 'false', search_param: 'code' });
    expect(first.status).toBe(200);
    expect(repeat.status).toBe(200);
    expect(repeat.text).toBe(first.text);
    // A (PATCH by id), B (DELETE by code), A: the PATCH runs again and finds no customer.
    await create({ id: 9, code: 'c9' });
    expect((await server.client.patch('/customers/9', { city: 'X' }, { query: { search_param: 'id' } })).status).toBe(200);
    expect((await del('c9', { hard: 'false', search_param: 'code' })).status).toBe(200);
    expect((await server.client.patch('/customers/9', { city: 'X' }, { query: { search_param: 'id' } })).status).toBe(404);
  });

  it('creates a deleted customer again with an identical create: the delete ended the create\'s window (A, B, A)', async () => {
    const byId = { id: 10, email: 'ten@example.com' };
    expect((await create(byId)).status).toBe(200);
    expect((await del('10', { hard: 'true' })).body.deleted).toBe('hard');
    expect((await create(byId)).status).toBe(200);
    expect((await get(10)).status).toBe(200);
    // Created by code alone (a server id): an identical repeat answers as the first, a delete by code ends the window.
    const byCode = { code: 'c11' };
    const first = await create(byCode);
    expect(first.status).toBe(200);
    expect((await create(byCode)).text).toBe(first.text);
    expect((await del('c11', { hard: 'true', search_param: 'code' })).status).toBe(200);
    const again = await create(byCode);
    expect(again.status).toBe(200);
    expect(again.body.id).not.toBe(first.body.id);
    expect((await server.client.get('/customers/c11', { query: { search_param: 'code' } })).body.id).toBe(again.body.id);
    // A change between two identical creates: the second runs, and the id is taken.
    expect((await server.client.patch('/customers/10', { city: 'X' }, { query: { search_param: 'id' } })).status).toBe(200);
    const taken = await create(byId);
    expect(taken.status).toBe(409);
    expect(taken.body.code).toBe('duplicate_id');
  });

  it('ends the windows of what the customer\'s delete removed: identical card, association, event and game delivery creates run again', async () => {
    const visit = await server.client.post('/custom_event_definitions', { slug: 'visit', schema: { type: 'object' } });
    expect(visit.status).toBe(200);
    const game = await server.client.post('/games', {
      rule_params: { name: 'Wheel', select_customers: 'targeted' },
      game: { type: 'wheel', config: { slices: 8 }, template: 'spin', game_prizes: [{ name: 'P', outcome: 'points', points: 5, weight: 1, stock: -1 }] },
    });
    expect(game.status).toBe(200);
    const card = { id: 601 };
    const association = { customer_id: 20, associate_customer_id: 21 };
    const events = [{ customer_id: 20, slug: 'visit', data: {} }, { id: 'e20', customer_id: 20, slug: 'visit', data: {} }, { customer_code: 'K20', slug: 'visit', data: {} }];
    const assign = () => server.client.post(`/games/${game.body.id}/assignments`, { customer_id: 20 });
    const firsts = async () => {
      expect((await server.client.post('/customers/20/cards', card)).status).toBe(200);
      const made = await server.client.post('/associations', association);
      expect(made.status).toBe(200);
      for (const event of events) expect((await server.client.post('/custom_events', event)).status).toBe(200);
      const assigned = await assign();
      expect(assigned.status).toBe(200);
      return { association: made.body.id, assignment: assigned.body.id };
    };
    await create({ id: 20, code: 'K20' });
    await create({ id: 21 });
    const first = await firsts();
    // The same card through another customer's path is another request: the card is taken.
    const taken = await server.client.post('/customers/21/cards', card);
    expect(taken.status).toBe(409);
    expect(taken.body.code).toBe('duplicate_id');

    expect((await del('20', { hard: 'true' })).body.deleted).toBe('hard');
    // Not the first answer: the customer is gone.
    expect((await server.client.post('/customers/20/cards', card)).status).toBe(404);
    // Made again, each identical create runs and makes its record again.
    await create({ id: 20, code: 'K20' });
    const again = await firsts();
    expect(again.association).not.toBe(first.association);
    expect(again.assignment).not.toBe(first.assignment);
    const exported = (await server.client.get('/customers/20/export', { query: { search_param: 'id' } })).body;
    expect(exported.cards.map((c: { id: string }) => c.id)).toEqual(['601']);
    expect(exported.custom_events.data).toHaveLength(3);
    expect(exported.associations).toEqual([expect.objectContaining({ id: again.association, associate_customer_id: 21, active: true })]);
    expect(exported.game_deliveries).toEqual([expect.objectContaining({ id: String(again.assignment) })]);
  });

  it('answers an identical association change or event after the customer\'s soft delete with 404, not the first answer', async () => {
    await create({ id: 22 });
    await create({ id: 23 });
    const deactivate = () => server.client.delete('/associations', { query: { customer_id: '22', associate_customer_id: '23' }, headers: json });
    const event = { customer_id: 23, slug: 'visit', data: { n: 1 } };
    expect((await server.client.post('/associations', { customer_id: 22, associate_customer_id: 23 })).status).toBe(200);
    expect((await deactivate()).status).toBe(200);
    expect((await server.client.post('/custom_events', event)).status).toBe(200);
    expect((await del('23', { hard: 'false' })).body.deleted).toBe('soft');
    const repeated = await deactivate();
    expect(repeated.status).toBe(404);
    expect(repeated.body).toMatchObject({ code: 'customer_not_found', error: expect.stringMatching(/^associate_customer_id: /) });
    expect((await server.client.post('/custom_events', event)).body.code).toBe('customer_not_found');
  });

  it('refuses to delete a customer being merged with 409', async () => {
    await server.stop();
    const env = openStore(server.dataDir);
    // A transfer-new whose asynchronous completion has not run yet leaves the old customer merging.
    await env.transact(() =>
      new CustomerStore(env).put({ companyId: 'default', environment: 'sandbox' }, {
        id: '6', status: 'merging', profile: { name: 'N' }, attributes: {}, password_hash: '', creation_date: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z',
      }),
    );
    await env.close();
    await server.restart();
    const res = await del('6', { hard: 'false' });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('customer_merging');
    expect((await get(6)).body.status).toBe('merging');
  });
});

describe('the critical-relation rule', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tally-delete-'));
  const env = openStore(dir);
  const store = new CustomerStore(env);
  const tenant = { companyId: 'c', environment: 'sandbox' as const };
  const owned = new Map<string, string[]>();
  const kind = (name: string, critical: boolean): CustomerOwnedKind => ({
    name,
    critical,
    activities: false,
    ids: (_env, _tenant, customerId) => (owned.get(`${name}:${customerId}`) ?? []),
    reassign: () => undefined,
    removeAll: (_env, _tenant, customerId) => void owned.delete(`${name}:${customerId}`),
  });
  const kinds = [kind('vouchers', true), kind('cards', false)];
  const customer = (id: string): CustomerRecord => ({
    id, status: 'active', profile: { name: 'N' }, attributes: {}, password_hash: 'h', creation_date: 'd', updated_at: 'd',
  });

  afterAll(async () => {
    await env.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('performs the soft delete instead of a hard one when a critical relation exists', async () => {
    owned.set('vouchers:1', ['v1']);
    owned.set('cards:1', ['c1']);
    const mode = await env.transact(() => {
      store.put(tenant, customer('1'));
      return deleteCustomer(env, store, tenant, store.get(tenant, '1')!, true, 'now', kinds);
    });
    expect(mode).toBe('soft');
    expect(store.get(tenant, '1')).toMatchObject({ id: '1', deleted_at: 'now', profile: {} });
    // Non-critical relations are removed, critical ones kept.
    expect(owned.has('cards:1')).toBe(false);
    expect(owned.get('vouchers:1')).toEqual(['v1']);
  });

  it('hard-deletes when only non-critical relations exist, removing them', async () => {
    owned.set('cards:2', ['c2']);
    const mode = await env.transact(() => {
      store.put(tenant, customer('2'));
      return deleteCustomer(env, store, tenant, store.get(tenant, '2')!, true, 'now', kinds);
    });
    expect(mode).toBe('hard');
    expect(store.get(tenant, '2')).toBeUndefined();
    expect(owned.has('cards:2')).toBe(false);
  });
});
