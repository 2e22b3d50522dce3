/**
 * The `once` uses a merge moves (campaigns, games and instant wins count them
 * alike, counters/store.ts): the old customer's are added to the new one's, so
 * one person does not get a once-per-customer campaign twice, and an unmerge
 * gives them back from the customer holding them now.
 */
import type { CounterStore, CounterUses } from '../counters/store.js';
import type { Tenant } from '../tenancy/types.js';

/** Inside the merge's transaction: what it moved, recorded for the unmerge. */
export function moveOnceUses(counters: CounterStore, tenant: Tenant, from: string, to: string): CounterUses[] {
  // A count below zero is no use (a cancellation before merges moved uses took it off the receiver): nothing to carry.
  const moved = counters.usesOf(tenant, from).filter((counted) => counted.uses > 0);
  for (const { campaign_id, period_key, uses } of moved) {
    counters.addUsesInTransaction(tenant, campaign_id, period_key, from, -uses);
    counters.addUsesInTransaction(tenant, campaign_id, period_key, to, uses);
  }
  return moved;
}

/**
 * Inside the unmerge's transaction: the uses the merge moved go back to the associate, each at most what the holder
 * still counts (a moved cart cancelled since took its use off the holder), as records go back only while it holds them.
 */
export function giveBackOnceUses(counters: CounterStore, tenant: Tenant, moved: readonly CounterUses[], holder: string, associate: string): void {
  for (const { campaign_id, period_key, uses } of moved) {
    const back = Math.min(uses, counters.uses(tenant, campaign_id, period_key, holder));
    if (back <= 0) continue;
    counters.addUsesInTransaction(tenant, campaign_id, period_key, holder, -back);
    counters.addUsesInTransaction(tenant, campaign_id, period_key, associate, back);
  }
}
