/**
 * Campaign counters: budget spent (cents), `once` uses per customer and
 * instant-win prize stock consumed, each by campaign and period key (the
 * engine's `periodKey`). Read before an evaluation for its context; checked
 * again and changed inside the realtime transaction (`*InTransaction`), so two
 * concurrent carts never overspend. Triggers and games use the same counters.
 *
 * Keys (docs/storage.md), database `counters`:
 * [tenant, 'budget', campaign, period_key] -> cents spent,
 * [tenant, 'uses', campaign, period_key, customer] -> uses,
 * [tenant, 'stock', campaign, prize] -> units consumed.
 */
import type { StoreEnv } from '../store/env.js';
import { tenantPrefix } from '../store/keys.js';
import type { Tenant } from '../tenancy/types.js';

export interface CounterStore {
  budgetSpent(tenant: Tenant, campaignId: string, periodKey: string): number;
  uses(tenant: Tenant, campaignId: string, periodKey: string, customer: string): number;
  stockConsumed(tenant: Tenant, campaignId: string, prizeId: string): number;
  /** Inside `env.transact`: adds (or with a negative amount, returns) budget. */
  addBudgetInTransaction(tenant: Tenant, campaignId: string, periodKey: string, cents: number): void;
  addUsesInTransaction(tenant: Tenant, campaignId: string, periodKey: string, customer: string, uses: number): void;
  addStockConsumedInTransaction(tenant: Tenant, campaignId: string, prizeId: string, units: number): void;
}

export class LmdbCounterStore implements CounterStore {
  /** Opens the counters database (docs/storage.md: open a database before its first write transaction). */
  constructor(private readonly env: StoreEnv) {
    env.db('counters');
  }

  private get db() {
    return this.env.db('counters');
  }

  private read(key: (string | number)[]): number {
    return (this.db.get(key) as number | undefined) ?? 0;
  }

  private add(key: (string | number)[], amount: number): void {
    const next = this.read(key) + amount;
    if (next === 0) this.db.removeSync(key);
    else this.db.putSync(key, next);
  }

  budgetSpent(tenant: Tenant, campaignId: string, periodKey: string): number {
    return this.read([tenantPrefix(tenant), 'budget', campaignId, periodKey]);
  }

  uses(tenant: Tenant, campaignId: string, periodKey: string, customer: string): number {
    return this.read([tenantPrefix(tenant), 'uses', campaignId, periodKey, customer]);
  }

  stockConsumed(tenant: Tenant, campaignId: string, prizeId: string): number {
    return this.read([tenantPrefix(tenant), 'stock', campaignId, prizeId]);
  }

  addBudgetInTransaction(tenant: Tenant, campaignId: string, periodKey: string, cents: number): void {
    this.add([tenantPrefix(tenant), 'budget', campaignId, periodKey], cents);
  }

  addUsesInTransaction(tenant: Tenant, campaignId: string, periodKey: string, customer: string, uses: number): void {
    this.add([tenantPrefix(tenant), 'uses', campaignId, periodKey, customer], uses);
  }

  addStockConsumedInTransaction(tenant: Tenant, campaignId: string, prizeId: string, units: number): void {
    this.add([tenantPrefix(tenant), 'stock', campaignId, prizeId], units);
  }
}
