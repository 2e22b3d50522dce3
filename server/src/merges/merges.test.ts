import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEntries } from '../audit/testing.js';
import { balance, grant, triggerCampaign } from '../points/testing.js';
import { AssociationStore } from '../associations/store.js';
import { openStore } from '../store/env.js';
import { startServer, type TestServer } from '../testing/server.js';

const json = { 'Content-Type': 'application/json' };

describe('POST /customers/transfer and unmerge', () => {
  let server: TestServer;
  const create = (id: number, extra: Record<string, unknown> = {}) =>
    server.client.post('/customers', { id, name: `N${id}`, registration_location_id: 1, ...extra });
  const get = async (id: number) => (await server.client.get(`/customers/${id}`, { query: { search_param: 'id' } })).body;
  const associates = async (id: number, active = 'true') =>
    (await server.client.get(`/customers/${id}/associates`, { headers: json, query: { active } })).body.list;
  const unmerge = (id: number | string, query: Record<string, string>) =>
    server.client.post(`/customers/${id}/unmerge`, undefined, { headers: json, query });

  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.dispose());

  it('merges the old customer into the new one, moving its records', async () => {
    await create(1, { code: 'OLD1', email: 'old@example.com', surname_1: 'Kept', card_id: 9001 });
    await create(2, { card_id: 9002 });
    await create(3);
    await server.client.post('/associations', { customer_id: 1, associate_customer_id: 3, relationship_type: 'child' });

    const res = await server.client.post('/customers/transfer', { old_customer_code: 'OLD1', new_customer_id: 2, relationship_type: 'card', motive: 'lost card' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'success' });

    const old = await get(1);
    expect(old).toMatchObject({ status: 'merged', merged: true, merged_to: 2, surname_1: 'Kept', email: 'old@example.com' });
    // The association linking them carries the merge id; the old customer's relatives moved.
    const links = await associates(2);
    expect(links).toEqual(expect.arrayContaining([
      expect.objectContaining({ associate_customer_id: 1, relationship_type: 'card', active: true, merge_id: expect.any(Number) }),
      expect.objectContaining({ associate_customer_id: 3, relationship_type: 'child' }),
    ]));
    expect(await associates(1)).toEqual([]);
    // Cards moved: the old customer's card now belongs to the new one (a card id is unique, so attaching it again is refused).
    expect((await server.client.post('/customers/2/cards', { id: 9001 })).status).toBe(409);
    // The new customer is found through its associate.
    expect((await server.client.post('/customers/search', { associate_id: 1 })).body.id).toBe(2);
  });

  it('refuses a transfer from a merged customer, into a merged customer, or between one customer', async () => {
    await create(4);
    const fromMerged = await server.client.post('/customers/transfer', { old_customer_id: 1, new_customer_id: 4 });
    expect(fromMerged.status).toBe(409);
    expect(fromMerged.body.error).toMatch(/^old_customer_id: /);
    const intoMerged = await server.client.post('/customers/transfer', { old_customer_id: 4, new_customer_id: 1 });
    expect(intoMerged.status).toBe(409);
    expect(intoMerged.body.error).toMatch(/^new_customer_id: /);
    const same = await server.client.post('/customers/transfer', { old_customer_id: 4, new_customer_id: 4 });
    expect(same.status).toBe(400);
    expect((await get(4)).status).toBe('active');
    // Only unmerge takes a customer out of merged.
    const reactivate = await server.client.patch('/customers/1', { status: 'active' });
    expect(reactivate.status).toBe(400);
    expect(reactivate.body.error).toMatch(/^status: /);
  });

  it('requires exactly one of id and code on each side, and existing customers', async () => {
    const both = await server.client.post('/customers/transfer', { old_customer_id: 4, old_customer_code: 'X', new_customer_id: 2 });
    expect(both.status).toBe(400);
    expect(both.body.error).toBe('old_customer_code: cannot be sent with old_customer_id');
    const none = await server.client.post('/customers/transfer', { old_customer_id: 4 });
    expect(none.status).toBe(400);
    expect(none.body.error).toBe('new_customer_id: is required (or new_customer_code)');
    const unknown = await server.client.post('/customers/transfer', { old_customer_id: 4, new_customer_code: 'nobody' });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: 'customer_not_found', error: expect.stringMatching(/^new_customer_code: /) });
  });

  it('unmerges: the associate is active again, merged_to cleared, the link inactive, moved records back', async () => {
    const noFlag = await unmerge(1, {});
    expect(noFlag.status).toBe(400);
    expect(noFlag.body.error).toMatch(/^with_activites: /);
    // search_param falls back to id when invalid.
    const res = await unmerge(1, { with_activites: 'false', search_param: 'bogus' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'success' });
    const associate = await get(1);
    expect(associate).toMatchObject({ status: 'active', merged: false });
    expect(associate).not.toHaveProperty('merged_to');
    expect(await associates(2)).toEqual([]);
    expect(await associates(2, 'false')).toEqual([expect.objectContaining({ associate_customer_id: 1, active: false, merge_id: expect.any(Number) })]);
    // The relatives went back to the associate.
    expect(await associates(1)).toEqual([expect.objectContaining({ associate_customer_id: 3, relationship_type: 'child' })]);
    expect((await server.client.post('/customers/search', { associate_id: 1 })).status).toBe(404);
  });

  it('unmerges only a customer with merged_to', async () => {
    const res = await unmerge(1, { with_activites: 'true' });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatch(/^associate_id: /);
    const unknown = await unmerge(404, { with_activites: 'true' });
    expect(unknown.status).toBe(404);
    const byCode = await server.client.post('/customers/transfer', { old_customer_id: 1, new_customer_id: 2 });
    expect(byCode.status).toBe(200);
    expect((await unmerge('OLD1', { with_activites: 'true', search_param: 'code' })).status).toBe(200);
  });

  it('suppresses merges and unmerges by the old customer: merge, unmerge by code, the same merge again runs', async () => {
    await create(20, { code: 'M20' });
    await create(21);
    const merge = { old_customer_id: 20, new_customer_id: 21 };
    expect((await server.client.post('/customers/transfer', merge)).status).toBe(200);
    expect((await unmerge('M20', { with_activites: 'true', search_param: 'code' })).status).toBe(200);
    expect((await server.client.post('/customers/transfer', merge)).status).toBe(200);
    expect(await get(20)).toMatchObject({ status: 'merged', merged_to: 21 });
  });

  it('makes the merge association the pair\'s one active association, and an unmerge gives the pair back the one it deactivated', async () => {
    await create(30);
    await create(31);
    expect((await server.client.post('/associations', { customer_id: 31, associate_customer_id: 30, relationship_type: 'family' })).status).toBe(200);
    expect(await associates(31)).toEqual([expect.objectContaining({ associate_customer_id: 30, relationship_type: 'family', active: true })]);
    expect((await server.client.post('/customers/transfer', { old_customer_id: 30, new_customer_id: 31, relationship_type: 'card' })).status).toBe(200);
    expect(await associates(31)).toEqual([expect.objectContaining({ associate_customer_id: 30, relationship_type: 'card', merge_id: expect.any(Number) })]);
    expect(await associates(31, 'false')).toEqual([expect.objectContaining({ associate_customer_id: 30, relationship_type: 'family' })]);
    // Unmerged, the pair is as before the merge: the older association active again, the merge's inactive.
    expect((await unmerge(30, { with_activites: 'false' })).status).toBe(200);
    expect(await associates(31)).toEqual([expect.objectContaining({ associate_customer_id: 30, relationship_type: 'family', active: true })]);
    expect(await associates(31, 'false')).toEqual([expect.objectContaining({ associate_customer_id: 30, relationship_type: 'card', merge_id: expect.any(Number) })]);
    // It is the pair's one active association: a second is refused, and DELETE deactivates it.
    expect((await server.client.post('/associations', { customer_id: 31, associate_customer_id: 30, relationship_type: 'other' })).status).toBe(409);
    const deactivate = await server.client.delete('/associations', { headers: json, query: { customer_id: '31', associate_customer_id: '30' } });
    expect(deactivate.status, deactivate.text).toBe(200);
    expect(await associates(31)).toEqual([]);
  });

  it('moves the associations the old customer is the associate of, and makes its own one with the new customer inactive; an unmerge gives both back', async () => {
    for (const id of [1900, 1901, 1902]) expect((await create(id)).status).toBe(200);
    expect((await server.client.post('/associations', { customer_id: 1900, associate_customer_id: 1901, relationship_type: 'family' })).status).toBe(200);
    expect((await server.client.post('/associations', { customer_id: 1902, associate_customer_id: 1900, relationship_type: 'child' })).status).toBe(200);
    expect((await server.client.post('/customers/transfer', { old_customer_id: 1900, new_customer_id: 1901 })).status).toBe(200);
    // The merged customer owns no active association, and 1902's relative is now 1901.
    expect(await associates(1900)).toEqual([]);
    expect(await associates(1900, 'false')).toEqual([expect.objectContaining({ associate_customer_id: 1901, relationship_type: 'family', active: false })]);
    expect(await associates(1902)).toEqual([expect.objectContaining({ associate_customer_id: 1901, relationship_type: 'child', active: true })]);
    // By associate_id: the merged customer's holder, and no owner for the receiver (it was the merged customer).
    expect((await server.client.post('/customers/search', { associate_id: 1900 })).body.id).toBe(1901);
    expect((await server.client.post('/customers/search', { associate_id: 1901 })).body.id).toBe(1902);
    expect((await unmerge(1900, { with_activites: 'false' })).status).toBe(200);
    expect(await associates(1900)).toEqual([expect.objectContaining({ associate_customer_id: 1901, relationship_type: 'family', active: true })]);
    expect(await associates(1902)).toEqual([expect.objectContaining({ associate_customer_id: 1900, relationship_type: 'child', active: true })]);
    expect((await server.client.post('/customers/search', { associate_id: 1900 })).body.id).toBe(1902);
  });

  it('an association a move made inactive (the receiver had its pair) is active again where an unmerge gives it back', async () => {
    for (const id of [701, 702, 703, 704]) expect((await create(id)).status).toBe(200);
    for (const [owner, associate, type] of [[701, 702, 'y-old'], [701, 703, 'y-new'], [702, 704, 'own-old'], [703, 704, 'own-new']] as const) {
      expect((await server.client.post('/associations', { customer_id: owner, associate_customer_id: associate, relationship_type: type })).status).toBe(200);
    }
    expect((await server.client.post('/customers/transfer', { old_customer_id: 702, new_customer_id: 703 })).status).toBe(200);
    // Both moved onto pairs the receiver holds active: inactive beside them.
    expect((await associates(701, 'false')).map((a: { relationship_type: string }) => a.relationship_type)).toEqual(['y-old']);
    expect((await associates(703, 'false')).map((a: { relationship_type: string }) => a.relationship_type)).toEqual(['own-old']);
    expect((await unmerge(702, { with_activites: 'true' })).status).toBe(200);
    expect(await associates(701)).toEqual(expect.arrayContaining([expect.objectContaining({ associate_customer_id: 702, relationship_type: 'y-old', active: true })]));
    expect(await associates(702)).toEqual([expect.objectContaining({ associate_customer_id: 704, relationship_type: 'own-old', active: true })]);
    expect((await server.client.post('/customers/search', { associate_id: 702 })).body.id).toBe(701);
  });

  it('never answers a merged customer as an associate\'s owner, whatever a store written before holds', async () => {
    for (const id of [711, 712, 713]) expect((await create(id)).status).toBe(200);
    expect((await server.client.post('/customers/transfer', { old_customer_id: 711, new_customer_id: 712 })).status).toBe(200);
    // What a merge of an earlier version left: an association owned by the merged customer, active.
    await server.stop();
    const env = openStore(server.dataDir);
    const associations = new AssociationStore(env);
    const tenant = { companyId: 'default', environment: 'sandbox' as const };
    await env.transact(() => associations.create(tenant, { customer_id: '711', associate_customer_id: '713', relationship_type: 'stale', active: true, main: false, created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z' }));
    await env.close();
    await server.restart();
    expect((await server.client.post('/customers/search', { associate_id: 713 })).status).toBe(404);
    expect((await server.client.post('/associations', { customer_id: 712, associate_customer_id: 713 })).status).toBe(200);
    expect((await server.client.post('/customers/search', { associate_id: 713 })).body.id).toBe(712);
  });

  it('an unmerge reactivates no association deactivated since: one the merge found inactive stays so', async () => {
    await create(32);
    await create(33);
    expect((await server.client.post('/associations', { customer_id: 33, associate_customer_id: 32, relationship_type: 'family' })).status).toBe(200);
    expect((await server.client.delete('/associations', { headers: json, query: { customer_id: '33', associate_customer_id: '32' } })).status).toBe(200);
    expect((await server.client.post('/customers/transfer', { old_customer_id: 32, new_customer_id: 33 })).status).toBe(200);
    expect((await unmerge(32, { with_activites: 'false' })).status).toBe(200);
    expect(await associates(33)).toEqual([]);
  });
});

describe('POST /customers/transfer-new', () => {
  let server: TestServer;
  const get = async (id: number) => (await server.client.get(`/customers/${id}`, { query: { search_param: 'id' } })).body;
  const until = async (check: () => Promise<boolean>) => {
    for (let i = 0; i < 100; i++) {
      if (await check()) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('condition not met in 10 s');
  };

  beforeAll(async () => {
    server = await startServer({ env: { TALLY_MERGE_DELAY_MS: '1500' } });
    for (const id of [1, 2, 3, 4, 5, 6]) {
      await server.client.post('/customers', { id, name: `N${id}`, registration_location_id: 1, card_id: 7000 + id });
    }
  });
  afterAll(() => server.dispose());

  it('makes the old customer merging at once and merged when the asynchronous transfer completes', async () => {
    const res = await server.client.post('/customers/transfer-new', { old_customer_id: 1, new_customer_id: 2 });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'success' });
    expect((await get(1)).status).toBe('merging');
    // While merging it cannot be deleted, nor merged again.
    const del = await server.client.delete('/customers/1', { query: { hard: 'true' }, headers: { 'Content-Type': 'application/json' } });
    expect(del.status).toBe(409);
    expect(del.body.code).toBe('customer_merging');
    const again = await server.client.post('/customers/transfer', { old_customer_id: 1, new_customer_id: 3 });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('customer_merging');

    await until(async () => (await get(1)).status === 'merged');
    expect(await get(1)).toMatchObject({ merged_to: 2 });
    expect((await server.client.post('/customers/2/cards', { id: 7001 })).status).toBe(409);
  });

  it('completes after a restart in the middle, recorded in the audit log as the request', async () => {
    const author = { headers: { 'X-Author-Email': 'ops@example.com' } };
    expect((await server.client.post('/customers/transfer-new', { old_customer_id: 3, new_customer_id: 4, motive: 'moved' }, author)).status).toBe(200);
    expect((await get(3)).status).toBe('merging');
    await server.restart();
    expect((await get(3)).status).toBe('merging');
    await until(async () => (await get(3)).status === 'merged');
    expect((await get(3)).merged_to).toBe(4);
    // The request's entry, and its completion's (docs/audit-log.md), alike but for their time; both name customer 4.
    const [completion, request] = await auditEntries(server.client, { target: 'customer:3' });
    expect(request).toMatchObject({
      operation: 'merges.transfer_new', method: 'POST', path: '/customers/transfer-new', target: 'customer:3',
      actor: { author: 'ops@example.com' }, body: '{"motive":"moved","new_customer_id":"4","old_customer_id":"3"}',
    });
    const { id: _, at: __, ...same } = request;
    expect(completion).toMatchObject(same);
    expect(completion.id).toBeGreaterThan(request.id);
    expect((await auditEntries(server.client, { mentions: '4' })).map((entry) => entry.id)).toEqual([completion.id, request.id]);
  });

  it('gives a main card back as main on unmerge; moved, it is not the new customer\'s main card', async () => {
    for (const [id, card] of [[60, 6000], [61, 6100], [62, undefined]] as const) {
      expect((await server.client.post('/customers', { id, name: `N${id}`, registration_location_id: 1, ...(card ? { card_id: card } : {}) })).status).toBe(200);
    }
    const unmerge = (id: number) => server.client.post(`/customers/${id}/unmerge`, undefined, { headers: { 'Content-Type': 'application/json' }, query: { with_activites: 'true' } });
    const cardsOf = async (id: number) =>
      (await server.client.get(`/customers/${id}/export`, { query: { search_param: 'id' } })).body.cards.map((card: { id: string; main: boolean }) => [card.id, card.main]);
    expect((await server.client.post('/customers/transfer', { old_customer_id: 60, new_customer_id: 61 })).status).toBe(200);
    expect(await cardsOf(61)).toEqual([['6000', false], ['6100', true]]);
    // Moved on again by a merge of 61 into 62, and back through both unmerges.
    expect((await server.client.post('/customers/transfer', { old_customer_id: 61, new_customer_id: 62 })).status).toBe(200);
    expect(await cardsOf(62)).toEqual([['6000', false], ['6100', false]]);
    expect((await unmerge(61)).status).toBe(200);
    expect(await cardsOf(61)).toEqual([['6000', false], ['6100', true]]);
    expect((await unmerge(60)).status).toBe(200);
    expect(await cardsOf(60)).toEqual([['6000', true]]);
    expect(await cardsOf(61)).toEqual([['6100', true]]);
  });

  it('names the field the request named a refused party by: its code when sent by code', async () => {
    for (const id of [40, 41, 42]) await server.client.post('/customers', { id, code: `M${id}`, name: `M${id}`, registration_location_id: 1 });
    expect((await server.client.post('/customers/transfer', { old_customer_code: 'M40', new_customer_code: 'M41' })).status).toBe(200);
    const intoMerged = await server.client.post('/customers/transfer', { old_customer_code: 'M42', new_customer_code: 'M40' });
    expect(intoMerged.body).toEqual({ code: 'conflict', error: 'new_customer_code: customer 40 is merged' });
    const fromMerged = await server.client.post('/customers/transfer', { old_customer_code: 'M40', new_customer_id: 42 });
    expect(fromMerged.body).toEqual({ code: 'conflict', error: 'old_customer_code: customer 40 is already merged' });
    const itself = await server.client.post('/customers/transfer', { old_customer_id: 42, new_customer_code: 'M42' });
    expect(itself.body).toEqual({ code: 'invalid_request', error: 'new_customer_code: must be another customer than the old one' });
  });

  it('runs an identical transfer-new again once the first was given up (the new customer was merged meanwhile)', async () => {
    for (const id of [7, 8, 9]) await server.client.post('/customers', { id, name: `N${id}`, registration_location_id: 1 });
    const merge = { old_customer_id: 7, new_customer_id: 8 };
    expect((await server.client.post('/customers/transfer-new', merge)).status).toBe(200);
    expect((await server.client.post('/customers/transfer', { old_customer_id: 8, new_customer_id: 9 })).status).toBe(200);
    await until(async () => (await get(7)).status === 'active');
    // Not the first answer again (success, nothing done): 8 is merged now.
    const retry = await server.client.post('/customers/transfer-new', merge);
    expect(retry.status).toBe(409);
    expect(retry.body).toMatchObject({ code: 'conflict', error: expect.stringMatching(/^new_customer_id: /) });
    // 8 active again, the same request merges 7 into it.
    expect((await server.client.post('/customers/8/unmerge', undefined, { headers: json, query: { with_activites: 'true' } })).status).toBe(200);
    expect((await server.client.post('/customers/transfer-new', merge)).status).toBe(200);
    await until(async () => (await get(7)).status === 'merged');
    expect((await get(7)).merged_to).toBe(8);
  });

  it('gives an inactive customer back as inactive when its transfer-new is given up (the new customer was merged meanwhile)', async () => {
    for (const id of [10, 11, 12]) await server.client.post('/customers', { id, name: `N${id}`, registration_location_id: 1 });
    expect((await server.client.patch('/customers/10', { status: 'inactive' }, { query: { search_param: 'id' } })).status).toBe(200);
    expect((await server.client.post('/customers/transfer-new', { old_customer_id: 10, new_customer_id: 11 })).status).toBe(200);
    expect((await get(10)).status).toBe('merging');
    expect((await server.client.post('/customers/transfer', { old_customer_id: 11, new_customer_id: 12 })).status).toBe(200);
    await until(async () => (await get(10)).status !== 'merging');
    expect(await get(10)).toMatchObject({ status: 'inactive', merged: false });
  });

  // The transfer-new was answered 200: deleting its new customer before it completes would undo it unseen.
  it('refuses to delete the new customer of a transfer-new in progress (409, nothing written); the merge then completes', async () => {
    for (const id of [13, 14]) await server.client.post('/customers', { id, name: `N${id}`, registration_location_id: 1 });
    expect((await server.client.post('/customers/transfer-new', { old_customer_id: 13, new_customer_id: 14 })).status).toBe(200);
    const before = await get(14);
    for (const hard of ['true', 'false']) {
      const refused = await server.client.delete('/customers/14', { query: { hard }, headers: json });
      expect(refused.status).toBe(409);
      expect(refused.body).toEqual({
        code: 'conflict',
        error: 'value: customer 14 is receiving a merge in progress (transfer-new of 13): delete it once the merge completed and the merged customers are unmerged or deleted',
      });
    }
    expect(await get(14)).toEqual(before);
    await until(async () => (await get(13)).status === 'merged');
    expect((await get(13)).merged_to).toBe(14);
  });

  it('refuses two customers with an active association', async () => {
    await server.client.post('/associations', { customer_id: 6, associate_customer_id: 5 });
    const res = await server.client.post('/customers/transfer-new', { old_customer_id: 5, new_customer_id: 6 });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatch(/^new_customer_id: /);
    expect((await get(5)).status).toBe('active');
  });
});

describe('deleting a customer others are merged into', () => {
  let server: TestServer;
  const create = (id: number, extra: Record<string, unknown> = {}) =>
    server.client.post('/customers', { id, name: `N${id}`, registration_location_id: 1, ...extra });
  const get = (id: number) => server.client.get(`/customers/${id}`, { query: { search_param: 'id' } });
  const del = (id: number, hard: string) => server.client.delete(`/customers/${id}`, { query: { hard }, headers: json });
  const transfer = (old: number, into: number) => server.client.post('/customers/transfer', { old_customer_id: old, new_customer_id: into });
  const cards = async (id: number) => (await server.client.get(`/customers/${id}/export`, { query: { search_param: 'id' } })).body.cards.map((card: { id: string }) => card.id);
  let campaign: number;

  beforeAll(async () => {
    server = await startServer();
    campaign = await triggerCampaign(server.client, 'visit', 40);
  });
  afterAll(() => server.dispose());

  it('refuses the receiver\'s soft and hard delete with 409 naming the merged customers; unmerged, it is deleted and they keep their points and cards', async () => {
    await create(1, { card_id: 9001 });
    await create(2);
    await create(3);
    await grant(server.client, 'visit', 1, campaign);
    expect((await transfer(1, 2)).status).toBe(200);
    expect((await transfer(3, 2)).status).toBe(200);
    expect((await balance(server.client, 2)).score).toBe(40);

    for (const hard of ['true', 'false']) {
      const refused = await del(2, hard);
      expect(refused.status).toBe(409);
      expect(refused.body).toEqual({ code: 'conflict', error: 'value: customer 2 has merged customers (1, 3): unmerge or delete them first' });
    }
    // Nothing changed: the receiver holds the merged customers' records, which still point at it.
    expect((await get(2)).status).toBe(200);
    expect((await get(1)).body).toMatchObject({ status: 'merged', merged_to: 2 });
    expect(await cards(2)).toEqual(['9001']);
    expect((await balance(server.client, 2)).score).toBe(40);

    // Unmerged, customer 1 has its points and card back; deleting the merged customer 3 is allowed.
    expect((await server.client.post('/customers/1/unmerge', undefined, { headers: json, query: { with_activites: 'true' } })).status).toBe(200);
    expect((await del(3, 'true')).body).toEqual({ status: 'success', deleted: 'hard' });
    expect((await del(2, 'true')).body).toEqual({ status: 'success', deleted: 'hard' });
    expect((await get(2)).status).toBe(404);
    expect((await get(1)).body).toMatchObject({ status: 'active', merged: false });
    expect((await balance(server.client, 1)).score).toBe(40);
    expect(await cards(1)).toEqual(['9001']);
  });

  it('unmerges the start of a chain (A into B, B into C): A gets back from C what its merge moved, B stays merged', async () => {
    await create(20, { card_id: 9020 });
    await create(21);
    await create(22);
    await grant(server.client, 'visit', 20, campaign);
    expect((await transfer(20, 21)).status).toBe(200);
    expect((await transfer(21, 22)).status).toBe(200);
    expect((await balance(server.client, 22)).score).toBe(40);
    expect(await cards(22)).toEqual(['9020']);

    const res = await server.client.post('/customers/20/unmerge', undefined, { headers: json, query: { with_activites: 'true' } });
    expect(res.status).toBe(200);
    expect((await get(20)).body).toMatchObject({ status: 'active', merged: false });
    expect((await balance(server.client, 20)).score).toBe(40);
    expect((await balance(server.client, 22)).score).toBe(0);
    expect(await cards(20)).toEqual(['9020']);
    expect(await cards(22)).toEqual([]);
    expect((await get(21)).body).toMatchObject({ status: 'merged', merged_to: 22 });
    // The merge association, which had moved on to 22 with 21's records, is inactive.
    const links = (await server.client.get('/customers/22/associates', { headers: json, query: { active: 'false' } })).body.list;
    expect(links).toEqual(expect.arrayContaining([expect.objectContaining({ associate_customer_id: 20, active: false, merge_id: expect.any(Number) })]));
  });

  it('refuses the delete of a customer merged on whose own merged customers point at it, and of the end of the chain', async () => {
    await create(10);
    await create(11);
    await create(12);
    expect((await transfer(10, 11)).status).toBe(200);
    expect((await transfer(11, 12)).status).toBe(200);
    // 10's merge association moved on to 12 with 11's records; 10 still names 11.
    expect((await del(11, 'false')).body.error).toBe('value: customer 11 has merged customers (10): unmerge or delete them first');
    expect((await del(12, 'true')).body.error).toBe('value: customer 12 has merged customers (11): unmerge or delete them first');
    // Deleted from the start of the chain, each goes in turn.
    expect((await del(10, 'true')).status).toBe(200);
    expect((await del(11, 'true')).status).toBe(200);
    expect((await del(12, 'false')).body).toEqual({ status: 'success', deleted: 'soft' });
  });
});
