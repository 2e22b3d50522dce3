/**
 * The reward store. `rewards`: [tenant, idKey(id)] -> RewardRecord and
 * [tenant, 'stock', idKey(id)] -> units redeemed and not reverted.
 * `redemptions`: [tenant, 'id', idKey(id)] -> RedemptionRecord, the indexes
 * [tenant, 'all' | ('customer', idKey(customer)) | ('location', idKey(location)), newestFirstKey(id)] -> id,
 * and [tenant, 'uses', idKey(customer), idKey(reward), period] -> redemptions
 * not reverted in that redeem_chances period. Writes run inside the caller's
 * `env.transact`; a redemption made or reverted raises its webhook event.
 */
import { stringifyJson } from '../http/json.js';
import type { StoreEnv } from '../store/env.js';
import { idKey, newestFirstKey, tenantPrefix } from '../store/keys.js';
import { paginate, type Page, type PageRequest } from '../store/paginate.js';
import type { Tenant } from '../tenancy/types.js';
import { raiseEvent } from '../webhooks/outbox.js';
import type { RedemptionRecord, RewardRecord } from './types.js';
import { redemptionView } from './view.js';

const END = Buffer.from([0xff]);

export type RedemptionScope = { customer_id?: string; location_id?: string };

export class RewardStore {
  constructor(private readonly env: StoreEnv) {}

  private get rewards() {
    return this.env.db('rewards');
  }
  private get redemptions() {
    return this.env.db('redemptions');
  }

  get(tenant: Tenant, id: string): RewardRecord | undefined {
    return this.rewards.get([tenantPrefix(tenant), idKey(id)]) as RewardRecord | undefined;
  }

  /** One page of rewards in id order; `keep` filters (and maps) them. */
  pageRewards<T>(tenant: Tenant, request: PageRequest, keep: (reward: RewardRecord) => T | undefined): Page<T> {
    return paginate<RewardRecord, T>(this.rewards, [tenantPrefix(tenant)], request, (reward, key) => (key.length === 2 ? keep(reward) : undefined));
  }

  /** Inside `env.transact`. */
  putInTransaction(tenant: Tenant, reward: RewardRecord): void {
    this.rewards.putSync([tenantPrefix(tenant), idKey(reward.id)], reward);
  }

  /** Units redeemed and not reverted. */
  stockUsed(tenant: Tenant, rewardId: string): number {
    return (this.rewards.get([tenantPrefix(tenant), 'stock', idKey(rewardId)]) as number | undefined) ?? 0;
  }

  /** Redemptions of the reward by the customer in a redeem_chances period, not reverted. */
  uses(tenant: Tenant, customerId: string, rewardId: string, period: string): number {
    return (this.redemptions.get(this.usesKey(tenant, customerId, rewardId, period)) as number | undefined) ?? 0;
  }

  getRedemption(tenant: Tenant, id: string): RedemptionRecord | undefined {
    return this.redemptions.get([tenantPrefix(tenant), 'id', idKey(id)]) as RedemptionRecord | undefined;
  }

  /** Inside `env.transact`: a new redemption, with its stock unit and customer use counted. */
  addRedemptionInTransaction(tenant: Tenant, redemption: RedemptionRecord): void {
    const prefix = tenantPrefix(tenant);
    const order = newestFirstKey(redemption.id);
    this.redemptions.putSync([prefix, 'id', idKey(redemption.id)], redemption);
    this.redemptions.putSync([prefix, 'all', order], redemption.id);
    this.redemptions.putSync([prefix, 'customer', idKey(redemption.customer_id), order], redemption.id);
    if (redemption.location_id !== null) this.redemptions.putSync([prefix, 'location', idKey(redemption.location_id), order], redemption.id);
    this.count(tenant, redemption, 1);
    this.raise(tenant, 'reward_redemption.created', redemption.id);
  }

  /** Inside `env.transact`: the redemption reverted, its stock unit and customer use given back. */
  revertInTransaction(tenant: Tenant, redemption: RedemptionRecord, statusDetail: string): RedemptionRecord {
    const reverted: RedemptionRecord = { ...redemption, status: 'reverted', status_detail: statusDetail };
    this.redemptions.putSync([tenantPrefix(tenant), 'id', idKey(redemption.id)], reverted);
    this.count(tenant, redemption, -1);
    this.raise(tenant, 'reward_redemption.reverted', redemption.id);
    return reverted;
  }

  /** The webhook event of a redemption, as GET /rewards/transactions lists it once the transaction's work is done. */
  private raise(tenant: Tenant, type: 'reward_redemption.created' | 'reward_redemption.reverted', id: string): void {
    raiseEvent(this.env, tenant, type, () => stringifyJson(redemptionView(this.getRedemption(tenant, id)!)), () => [this.getRedemption(tenant, id)?.customer_id]);
  }

  /** Redemptions, newest first, of one customer (else one location, else all). */
  page<T>(tenant: Tenant, scope: RedemptionScope, request: PageRequest, keep: (redemption: RedemptionRecord) => T | undefined): Page<T> {
    const prefix = tenantPrefix(tenant);
    const index =
      scope.customer_id !== undefined ? [prefix, 'customer', idKey(scope.customer_id)]
      : scope.location_id !== undefined ? [prefix, 'location', idKey(scope.location_id)]
      : [prefix, 'all'];
    return paginate<string, T>(this.redemptions, index, request, (id) => keep(this.getRedemption(tenant, id)!));
  }

  /** Ids of the customer's redemptions, newest first. */
  idsOfCustomer(tenant: Tenant, customerId: string): string[] {
    const prefix = [tenantPrefix(tenant), 'customer', idKey(customerId)];
    return [...this.redemptions.getRange({ start: prefix, end: [...prefix, END] })].map(({ value }) => value as string);
  }

  /** Inside `env.transact`: the redemption belongs to `to`, known by `toCode` (a merge, with its use counted there; a soft delete, `to` itself without code). */
  reassignInTransaction(tenant: Tenant, redemption: RedemptionRecord, to: string, toCode: string | null): void {
    const prefix = tenantPrefix(tenant);
    const order = newestFirstKey(redemption.id);
    if (redemption.status === 'available') this.countUse(tenant, redemption, -1);
    this.redemptions.removeSync([prefix, 'customer', idKey(redemption.customer_id), order]);
    const moved = { ...redemption, customer_id: to, customer_code: toCode };
    this.redemptions.putSync([prefix, 'id', idKey(redemption.id)], moved);
    this.redemptions.putSync([prefix, 'customer', idKey(to), order], redemption.id);
    if (redemption.status === 'available') this.countUse(tenant, moved, 1);
  }

  /** Inside `env.transact`: forgets the redemption (a customer hard delete); its stock unit stays used. */
  removeInTransaction(tenant: Tenant, redemption: RedemptionRecord): void {
    const prefix = tenantPrefix(tenant);
    const order = newestFirstKey(redemption.id);
    if (redemption.status === 'available') this.countUse(tenant, redemption, -1);
    this.redemptions.removeSync([prefix, 'id', idKey(redemption.id)]);
    this.redemptions.removeSync([prefix, 'all', order]);
    this.redemptions.removeSync([prefix, 'customer', idKey(redemption.customer_id), order]);
    if (redemption.location_id !== null) this.redemptions.removeSync([prefix, 'location', idKey(redemption.location_id), order]);
  }

  private usesKey(tenant: Tenant, customerId: string, rewardId: string, period: string) {
    return [tenantPrefix(tenant), 'uses', idKey(customerId), idKey(rewardId), period];
  }

  private count(tenant: Tenant, redemption: RedemptionRecord, delta: number): void {
    const stockKey = [tenantPrefix(tenant), 'stock', idKey(redemption.reward_id)];
    this.rewards.putSync(stockKey, this.stockUsed(tenant, redemption.reward_id) + delta);
    this.countUse(tenant, redemption, delta);
  }

  private countUse(tenant: Tenant, redemption: RedemptionRecord, delta: number): void {
    const usesKey = this.usesKey(tenant, redemption.customer_id, redemption.reward_id, redemption.period_key);
    this.redemptions.putSync(usesKey, this.uses(tenant, redemption.customer_id, redemption.reward_id, redemption.period_key) + delta);
  }
}
