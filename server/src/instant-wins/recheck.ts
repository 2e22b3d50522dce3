/**
 * The re-check of the reward prizes an evaluation won, inside the transaction of the event that won them
 * (realtime carts, triggers, custom events), beside the re-check of prize stock: the draw read the reward's
 * units on a snapshot, and a concurrent event may have taken the last one since. When this answers false the
 * event is evaluated again on the transaction's own view, so two events never both win the last unit.
 */
import type { DrawWrite } from '@tally/engine';
import type { CountedCampaign } from '../carts/programs.js';
import { rewardPrizeUnits } from '../rewards/prize.js';
import type { StoreEnv } from '../store/env.js';
import type { CompanySettings, Tenant } from '../tenancy/types.js';

export interface RecheckScope {
  tenant: Tenant;
  settings: CompanySettings;
  now: Date;
}

/** Whether every reward the draws won can still be handed over to the customer (null: nothing is delivered). */
export function rewardPrizesStillDeliverable(env: StoreEnv, scope: RecheckScope, customerId: string | null, counted: readonly CountedCampaign[], draws: readonly DrawWrite[]): boolean {
  if (customerId === null) return true;
  const won = new Map<string, number>();
  for (const draw of draws) {
    if (draw.prize_id === null) continue;
    const reward = counted.find((c) => c.id === String(draw.campaign_id))?.prizes.find((p) => p.id === String(draw.prize_id))?.reward;
    if (reward) won.set(reward, (won.get(reward) ?? 0) + 1);
  }
  for (const [reward, count] of won) {
    const left = rewardPrizeUnits(env, scope.tenant, scope.settings, reward, customerId, scope.now);
    if (left >= 0 && left < count) return false;
  }
  return true;
}
