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
 * [tenant, 'stock', campaign, prize] -> units consumed,
 * [tenant, 'returned', ticket, line_order] -> Returned (what returns of that ticket line moved so far).
 */
import { Decimal } from 'decimal.js';
import type { Key, StoreEnv } from '../store/env.js';
import { tenantPrefix, under } from '../store/keys.js';
import type { Tenant } from '../tenancy/types.js';

/** What the returns of one ticket line moved so far (carts/returns.ts). */
export interface Returned {
  quantity: number;
  score_from_customer: number;
  score_to_customer: number;
  /** Points of the ticket's POST /points/redeem_cart spends given back (absent: none, as in counters written before). */
  redeemed_to_customer?: number;
}

/** A customer's `once` uses of one campaign (discount, points, game or instant win) in one period. */
export interface CounterUses {
  campaign_id: string;
  period_key: string;
  uses: number;
}

const NOTHING_RETURNED: Required<Returned> = { quantity: 0, score_from_customer: 0, score_to_customer: 0, redeemed_to_customer: 0 };

export interface CounterStore {
  budgetSpent(tenant: Tenant, campaignId: string, periodKey: string): number;
  uses(tenant: Tenant, campaignId: string, periodKey: string, customer: string): number;
  /** Every `once` use the customer holds, by campaign and period key (a merge moves them). */
  usesOf(tenant: Tenant, customer: string): CounterUses[];
  stockConsumed(tenant: Tenant, campaignId: string, prizeId: string): number;
  /** Inside `env.transact`: adds (or with a negative amount, returns) budget. */
  addBudgetInTransaction(tenant: Tenant, campaignId: string, periodKey: string, cents: number): void;
  addUsesInTransaction(tenant: Tenant, campaignId: string, periodKey: string, customer: string, uses: number): void;
  addStockConsumedInTransaction(tenant: Tenant, campaignId: string, prizeId: string, units: number): void;
  returned(tenant: Tenant, ticketId: string, lineOrder: number): Returned;
  /** What every line of the ticket returned, summed (a cancellation of the ticket takes back only the rest). */
  returnedOfTicket(tenant: Tenant, ticketId: string): Required<Returned>;
  /** Inside `env.transact`: adds a return's movement (negated: takes it off, when the returning cart is cancelled). */
  addReturnedInTransaction(tenant: Tenant, ticketId: string, lineOrder: number, moved: Returned, sign: 1 | -1): void;
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

  usesOf(tenant: Tenant, customer: string): CounterUses[] {
    // The customer is the last part of a uses key: one seek per campaign and period key that holds uses, each
    // followed by a get of the customer's, rather than a read of every customer's uses.
    const prefix = [tenantPrefix(tenant), 'uses'];
    const { end } = under(prefix);
    const found: CounterUses[] = [];
    let start: Key[] = prefix;
    for (;;) {
      const [key] = this.db.getKeys({ start, end, limit: 1 }) as Iterable<string[]>;
      if (key === undefined) return found;
      const [, , campaignId, periodKey] = key as [string, string, string, string];
      const uses = this.uses(tenant, campaignId, periodKey, customer);
      if (uses !== 0) found.push({ campaign_id: campaignId, period_key: periodKey, uses });
      start = under([...prefix, campaignId, periodKey]).end;
    }
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

  returned(tenant: Tenant, ticketId: string, lineOrder: number): Returned {
    return (this.db.get([tenantPrefix(tenant), 'returned', ticketId, lineOrder]) as Returned | undefined) ?? NOTHING_RETURNED;
  }

  returnedOfTicket(tenant: Tenant, ticketId: string): Required<Returned> {
    const sum = { ...NOTHING_RETURNED };
    const prefix = [tenantPrefix(tenant), 'returned', ticketId];
    for (const { value } of this.db.getRange({ start: prefix, end: [...prefix, '\uffff'] })) {
      const line = value as Returned;
      sum.quantity = addQuantities(sum.quantity, line.quantity);
      sum.score_from_customer += line.score_from_customer;
      sum.score_to_customer += line.score_to_customer;
      sum.redeemed_to_customer += line.redeemed_to_customer ?? 0;
    }
    return sum;
  }

  addReturnedInTransaction(tenant: Tenant, ticketId: string, lineOrder: number, moved: Returned, sign: 1 | -1): void {
    const key = [tenantPrefix(tenant), 'returned', ticketId, lineOrder];
    const before = this.returned(tenant, ticketId, lineOrder);
    const after: Returned = {
      quantity: addQuantities(before.quantity, sign * moved.quantity),
      score_from_customer: before.score_from_customer + sign * moved.score_from_customer,
      score_to_customer: before.score_to_customer + sign * moved.score_to_customer,
      redeemed_to_customer: (before.redeemed_to_customer ?? 0) + sign * (moved.redeemed_to_customer ?? 0),
    };
    if (after.quantity === 0 && !movesPoints(after)) this.db.removeSync(key);
    else this.db.putSync(key, after);
  }
}

/** Whether a return (or the returns of a line) moved any points. */
export function movesPoints(moved: Returned): boolean {
  return moved.score_from_customer !== 0 || moved.score_to_customer !== 0 || (moved.redeemed_to_customer ?? 0) !== 0;
}

/** Quantities may be fractional (weighed goods): summed in decimal, so 0.1 + 0.2 returned is 0.3. */
export function addQuantities(a: number, b: number): number {
  return new Decimal(a).plus(b).toNumber();
}

/**
 * The units of a prize still to win: -1 when its stock is unlimited, never below 0. A stock lowered below what was
 * already won leaves none; a negative count would read as unlimited.
 */
export function prizeStockLeft(counters: CounterStore, tenant: Tenant, campaignId: string, prize: { id: string; stock: number }): number {
  return prize.stock < 0 ? -1 : Math.max(0, prize.stock - counters.stockConsumed(tenant, campaignId, prize.id));
}
