import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CustomerOwnedKind } from '../customers/owned-records.js';
import { CustomerStore } from '../customers/store.js';
import type { CustomerRecord } from '../customers/types.js';
import { openStore } from '../store/env.js';
import { DEFAULT_SETTINGS } from '../tenancy/settings.js';
import { completeMerge } from './merge.js';
import { MergeStore } from './store.js';
import { unmerge } from './unmerge.js';

/** Kinds registered by later resources (carts, points ledger) move with merges without the merge code knowing them. */
describe('merging registered customer-owned record kinds', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tally-merge-'));
  const env = openStore(dir);
  const customers = new CustomerStore(env);
  const merges = new MergeStore(env);
  const tenant = { companyId: 'c', environment: 'sandbox' as const };
  const at = (now: string) => ({ tenant, settings: DEFAULT_SETTINGS, now });
  /** record id -> {owner, associate} */
  const records = new Map<string, { owner: string; associate?: string }>();
  const kind = (name: string, activities: boolean): CustomerOwnedKind => ({
    name,
    critical: true,
    activities,
    ids: (_e, _t, customerId) => [...records].filter(([id, r]) => id.startsWith(name) && r.owner === customerId).map(([id]) => id),
    reassign: (_e, _t, ids, from, to) => ids.forEach((id) => records.set(id, { owner: to, associate: activities ? from : undefined })),
    removeAll: () => undefined,
  });
  const kinds = [kind('activities', true), kind('vouchers', false)];
  const customer = (id: string): CustomerRecord => ({
    id, status: 'active', profile: { name: 'N' }, attributes: {}, password_hash: 'h', creation_date: 'd', updated_at: 'd',
  });
  const owners = () => Object.fromEntries([...records].map(([id, r]) => [id, r.owner]));

  afterAll(async () => {
    await env.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const merge = () =>
    env.transact(() => {
      const created = merges.create(tenant, { old_customer_id: '1', new_customer_id: '2', mode: 'transfer', status: 'pending', moved: {}, created_at: 'now' });
      return completeMerge(env, customers, merges, at('2026-03-01T10:00:00Z'), created, kinds);
    });

  it('moves every kind in one transaction, recording the old customer as associate on activities', async () => {
    records.set('activities-1', { owner: '1' });
    records.set('vouchers-1', { owner: '1' });
    records.set('activities-2', { owner: '2' });
    await env.transact(() => {
      customers.put(tenant, customer('1'));
      customers.put(tenant, customer('2'));
    });
    const completed = await merge();
    expect(completed.moved).toEqual({ activities: ['activities-1'], vouchers: ['vouchers-1'] });
    expect(owners()).toEqual({ 'activities-1': '2', 'vouchers-1': '2', 'activities-2': '2' });
    expect(records.get('activities-1')!.associate).toBe('1');
    expect(customers.get(tenant, '1')).toMatchObject({ status: 'merged', merged_to: '2' });
  });

  it('unmerge without with_activites leaves activities with the parent and gives the rest back', async () => {
    await env.transact(() => unmerge(env, customers, merges, at('2026-03-02T10:00:00Z'), customers.get(tenant, '1')!, false, kinds));
    expect(owners()).toEqual({ 'activities-1': '2', 'vouchers-1': '1', 'activities-2': '2' });
    expect(customers.get(tenant, '1')!.status).toBe('active');
    expect(merges.unmergeLog(tenant)).toEqual([expect.objectContaining({ associate_id: '1', parent_id: '2', with_activities: false })]);
  });

  it('unmerge with with_activites returns the moved activities too, never the parent own ones', async () => {
    records.set('activities-1', { owner: '1' });
    await merge();
    await env.transact(() => unmerge(env, customers, merges, at('2026-03-02T10:00:00Z'), customers.get(tenant, '1')!, true, kinds));
    expect(owners()).toEqual({ 'activities-1': '1', 'vouchers-1': '1', 'activities-2': '2' });
  });

  it('a failure inside the merge transaction writes nothing', async () => {
    const failing: CustomerOwnedKind = { ...kind('vouchers', false), reassign: () => { throw new Error('boom'); } };
    await expect(
      env.transact(() => {
        const created = merges.create(tenant, { old_customer_id: '1', new_customer_id: '2', mode: 'transfer', status: 'pending', moved: {}, created_at: 'now' });
        return completeMerge(env, customers, merges, at('2026-03-01T10:00:00Z'), created, [failing]);
      }),
    ).rejects.toThrow('boom');
    expect(customers.get(tenant, '1')!.status).toBe('active');
    expect(customers.get(tenant, '1')).not.toHaveProperty('merged_to');
  });
});
