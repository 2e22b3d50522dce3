/**
 * The refer_a_friend system trigger (contract part 1, Events): customer
 * creation with referred_by records a pending trigger in the customer's own
 * transaction (customers/referrals.ts); this consumer runs the points
 * campaigns bound to `refer_a_friend` for both customers, the inviting one
 * with data `{role: "referrer"}` and the new one with `{role: "referred"}`
 * (a campaign's conditions choose with `attributes.role`), and removes the
 * pending trigger in the same commit as the points, so each referral is
 * rewarded exactly once, even across a crash. A merged customer is rewarded
 * through the customer it was merged into (customers/lookup.ts accountHolder);
 * a customer deleted since the referral is rewarded nothing (the other one still is),
 * nor, after a hard delete, a new customer holding its id (the role marked deleted).
 */
import type { CampaignStore } from '../campaigns/store.js';
import { liveAccountHolder } from '../customers/lookup.js';
import type { CustomerStore } from '../customers/store.js';
import type { InstantWinStore } from '../instant-wins/store.js';
import type { PendingTrigger, ReferralRole } from '../customers/referrals.js';
import type { Logger } from '../log.js';
import { wireInt } from '../http/wire.js';
import type { Observe } from '../sweeps.js';
import type { TenancyStore } from '../tenancy/store.js';
import type { Environment, Tenant } from '../tenancy/types.js';
import { isBoundToTrigger } from './binding.js';
import { evaluateEvent, grantInTransaction, type Bound, type BoundDeps } from './bound-points.js';

export const REFER_A_FRIEND = 'refer_a_friend';
const PENDING = 'pending_triggers';

function tenantOf(prefix: string): Tenant {
  const slash = prefix.lastIndexOf('/');
  return { companyId: prefix.slice(0, slash), environment: prefix.slice(slash + 1) as Environment };
}

export interface ReferralSources {
  deps: BoundDeps;
  customers: CustomerStore;
  campaigns: CampaignStore;
  instantWins: InstantWinStore;
  tenancy: TenancyStore;
}

async function consume(sources: ReferralSources, tenant: Tenant, key: unknown, pending: PendingTrigger): Promise<void> {
  const { deps, customers, campaigns, instantWins, tenancy } = sources;
  const scope = { tenant, settings: tenancy.getSettings(tenant), now: new Date() };
  // Read where it runs: inside the transaction when a campaign changed since the first evaluation (grantInTransaction).
  const select = (): Bound => ({
    campaigns: campaigns.all(tenant).filter((record) => record.type === 'points' && isBoundToTrigger(record.rule_params, REFER_A_FRIEND)),
    instantWins: instantWins.all(tenant).filter((record) => isBoundToTrigger(record.rule_params, REFER_A_FRIEND)),
  });
  const at = pending.created_at;
  // A merged customer's reward goes to the customer it was merged into (as its carts do), a deleted one's nowhere
  // (an emptied account, or an id a new customer may take); read with the token the transaction compares, so a
  // merge, unmerge or delete committing meanwhile sends the referral round again.
  const statusAt = customers.statusVersion(tenant);
  const holderOf = (id: string) => {
    const record = customers.get(tenant, id);
    return record && liveAccountHolder(customers, deps.sources.associations, tenant, record);
  };
  // A role whose customer was hard-deleted is nobody's, whoever holds its id now.
  const named = (role: ReferralRole, id: string) => (pending.deleted?.includes(role) ? undefined : holderOf(id));
  const roles = [
    // Ids as every origin_info writes them (wireInt): numbers, exact beyond 2^53.
    { customer: named('referrer', pending.referred_by), data: { role: 'referrer', referred_customer_id: wireInt(pending.customer_id) } },
    { customer: named('referred', pending.customer_id), data: { role: 'referred', referrer_customer_id: wireInt(pending.referred_by) } },
  ];
  const rewards = [];
  for (const { customer, data } of roles) {
    if (!customer) continue;
    const seed = await deps.seeds.seed(tenant, `refer_a_friend\n${pending.id}\n${data.role}`);
    const event = { customer, at, data, seed };
    rewards.push({ customer, data, evaluate: () => evaluateEvent(deps, scope, event, select) });
  }
  const evaluated = rewards.map((r) => ({ ...r, first: r.evaluate() }));
  await deps.env.transact(() => {
    const current = deps.env.db(PENDING).get(key as string[]) as PendingTrigger | undefined;
    if (current === undefined) return; // consumed meanwhile
    // A hard delete since `pending` was read marked a role (and its id may be taken already): the next round.
    if (current.deleted?.length !== pending.deleted?.length) return;
    if (customers.statusVersion(tenant) !== statusAt) return; // a merge, unmerge or delete meanwhile: the next round
    for (const { customer, data, evaluate, first } of evaluated) {
      grantInTransaction(deps, scope, customer, evaluate, first, { type: 'trigger', created_at: at, origin_info: { comments: null, slug: REFER_A_FRIEND, ...data } });
    }
    deps.env.db(PENDING).removeSync(key as string[]);
  });
}

/** Rewards every pending referral of every Company environment, oldest first; answers how many were pending. */
export async function drainReferrals(sources: ReferralSources): Promise<number> {
  const entries = [...sources.deps.env.db(PENDING).getRange({})];
  for (const { key, value } of entries) {
    const [prefix] = key as string[];
    await consume(sources, tenantOf(prefix), key, value as PendingTrigger);
  }
  return entries.length;
}

/** Polls for pending referrals; returns a stop function. */
export function startReferralConsumer(sources: ReferralSources, log: Logger, everyMs: number, observe: Observe): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    observe(() => drainReferrals(sources))
      .catch((err: unknown) => log.error({ err }, 'refer_a_friend consumer failed'))
      .finally(() => (running = false));
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
