/**
 * The re-check of the counters an evaluation consumed, inside the transaction that writes them (realtime carts,
 * triggers, custom events, referrals): every budget, once limit, prize stock and reward prize it relied on must
 * still allow its writes on the transaction's view, else the caller evaluates again there.
 */
import type { Writes } from '@tally/engine';
import type { CountedCampaign } from '../carts/programs.js';
import { rewardPrizesStillDeliverable, type RecheckScope } from '../instant-wins/recheck.js';
import type { StoreEnv } from '../store/env.js';
import type { CounterStore } from './store.js';

/** The writer's customer: its counter key (null: none, so no once limit can be used) and id (null: nothing delivered). */
export interface CountedCustomer {
  key: string | null;
  id: string | null;
}

export function countersStillAllow(env: StoreEnv, counters: CounterStore, scope: RecheckScope, customer: CountedCustomer, counted: readonly CountedCampaign[], writes: Writes): boolean {
  const { tenant } = scope;
  for (const budget of writes.budgets) {
    if (counters.budgetSpent(tenant, String(budget.campaign_id), budget.period_key) + budget.amount_cents > budget.budget_cents) return false;
  }
  for (const limit of writes.limits) {
    if (customer.key === null) return false;
    if (counters.uses(tenant, String(limit.campaign_id), limit.period_key, customer.key) + limit.increment > limit.limit) return false;
  }
  for (const stock of writes.stock) {
    const prize = counted.find((c) => c.id === String(stock.campaign_id))?.prizes.find((p) => p.id === String(stock.prize_id));
    if (!prize || counters.stockConsumed(tenant, String(stock.campaign_id), prize.id) + stock.amount > prize.stock) return false;
  }
  return rewardPrizesStillDeliverable(env, scope, customer.id, counted, writes.draws);
}
