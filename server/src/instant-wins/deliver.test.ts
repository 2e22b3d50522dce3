/**
 * deliverPrizes is called by the cart, trigger and custom-event writers inside
 * their own transaction; this suite runs it the same way, on a real LMDB
 * environment, and reads the results through the stores' public reads.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LmdbCampaignStore } from '../campaigns/store.js';
import { GameStore } from '../games/store.js';
import { readBalance } from '../points/ledger.js';
import { openStore, type StoreEnv } from '../store/env.js';
import { DEFAULT_SETTINGS } from '../tenancy/settings.js';
import type { Tenant } from '../tenancy/types.js';
import { deliverPrizes, type PrizeWin } from './deliver.js';
import { InstantWinStore } from './store.js';
import type { InstantWinPrizeRecord } from './types.js';

const tenant: Tenant = { companyId: 'acme', environment: 'sandbox' };
const now = new Date('2026-11-20T10:00:00Z');
const win: PrizeWin = {
  tenant, settings: { ...DEFAULT_SETTINGS, timezone: 'Europe/Madrid' }, now, customer: { id: '42', code: 'C42' },
  origin: { type: 'activity', origin_info: { activity: { id: 7 } }, location_id: '3' },
};
const prize = (id: string, outcome: InstantWinPrizeRecord['outcome']): InstantWinPrizeRecord => ({
  id, name: `Prize ${id}`, description: null, outcome, weight: '0.25', stock: -1, stock_management_strategy: 'remove_prize',
});

describe('deliverPrizes', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tally-deliver-'));
  let env: StoreEnv;

  beforeAll(async () => {
    env = openStore(dir);
    await env.transact(() => {
      new LmdbCampaignStore(env).putInTransaction(tenant, {
        id: '10', type: 'points', texts: {}, created_at: now.toISOString(), updated_at: now.toISOString(),
        rule_params: { name: 'Hundred', rule_effects: [{ type: 'direct_value', value: 100 }] },
      });
      // Stored before effect values were bounded (2147483647 points).
      new LmdbCampaignStore(env).putInTransaction(tenant, {
        id: '11', type: 'points', texts: {}, created_at: now.toISOString(), updated_at: now.toISOString(),
        rule_params: { name: 'Trillion', rule_effects: [{ type: 'direct_value', value: 1e12 }] },
      });
      new GameStore(env).putInTransaction(tenant, {
        id: '20', rule_params: { name: 'Wheel', select_customers: 'targeted' }, texts: {}, static_code: null,
        game: { id: '1', type: 'wheel', config: null, template: null, prizes: [] }, created_at: now.toISOString(), updated_at: now.toISOString(),
      });
      new InstantWinStore(env).putInTransaction(tenant, {
        id: '30', rule_params: { name: 'Scratch', select_customers: 'loyalty' }, texts: {}, static_code: null,
        prizes: [
          prize('1', { promotion_type: 'points', promotion_id: '10' }),
          prize('2', { promotion_type: 'game', promotion_id: '20' }),
          prize('3', { promotion_type: 'reward', promotion_id: '40' }),
          prize('4', null),
          prize('5', { promotion_type: 'points', promotion_id: '11' }),
        ],
        created_at: now.toISOString(), updated_at: now.toISOString(),
      });
    });
  });
  afterAll(async () => {
    await env.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const draw = (prizeId: string | null) => ({ campaign_id: '30', seed: 's', drawn: 1, prize_id: prizeId });

  it('credits a points prize through the ledger, as a transaction of the winning event', async () => {
    const [delivery] = await env.transact(() => deliverPrizes(env, win, [draw('1')]));
    expect(delivery).toMatchObject({ campaign_id: '30', prize_id: '1', customer_id: '42', type: 'points', promotion_id: '10', status: 'delivered', points_transaction_id: expect.any(String) });
    expect(readBalance(env, tenant, '42', { now, timezone: 'Europe/Madrid' })).toMatchObject({ score: 100, score_available: 100 });
    expect(new InstantWinStore(env).getDelivery(tenant, delivery.id)).toEqual(delivery);
  });

  it('credits at most 2147483647 points for a prize whose campaign was stored with more', async () => {
    const [delivery] = await env.transact(() => deliverPrizes(env, { ...win, customer: { id: '43', code: 'C43' } }, [draw('5')]));
    expect(delivery).toMatchObject({ type: 'points', promotion_id: '11', status: 'delivered' });
    expect(readBalance(env, tenant, '43', { now, timezone: 'Europe/Madrid' })).toMatchObject({ score: 2147483647, score_available: 2147483647 });
  });

  it('delivers a game prize as one play of the targeted game', async () => {
    const [delivery] = await env.transact(() => deliverPrizes(env, win, [draw('2')]));
    expect(delivery).toMatchObject({ type: 'game', status: 'delivered', loyalty_rule_history_id: expect.any(String) });
    expect(new GameStore(env).openAssignments(tenant, '42', '20').map((a) => a.id)).toEqual([delivery.loyalty_rule_history_id]);
  });

  it('leaves a prize of a reward that does not exist pending, and delivers nothing for a draw without prize or a prize without outcome', async () => {
    const deliveries = await env.transact(() => deliverPrizes(env, win, [draw('3'), draw(null), draw('4')]));
    expect(deliveries).toEqual([expect.objectContaining({ type: 'reward', promotion_id: '40', status: 'pending', redemption_id: null })]);
    expect(readBalance(env, tenant, '42', { now, timezone: 'Europe/Madrid' }).score).toBe(100);
  });
});
