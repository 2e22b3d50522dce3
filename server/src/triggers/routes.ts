/** POST /trigger (+ /scores/trigger), and the consumer of the refer_a_friend trigger raised by customer creation. */
import { AssociationStore } from '../associations/store.js';
import { LmdbCampaignStore } from '../campaigns/store.js';
import type { ServerContext } from '../context.js';
import { CartStore } from '../carts/store.js';
import { logLeftOut } from '../carts/programs.js';
import { DrawSeeds } from '../carts/seed.js';
import { LmdbCounterStore } from '../counters/store.js';
import { InstantWinStore } from '../instant-wins/store.js';
import { LocationStore } from '../locations/store.js';
import { CustomerStore } from '../customers/store.js';
import type { Routes } from '../http/types.js';
import { observe } from '../sweeps.js';
import { LmdbVoucherStore } from '../vouchers/store.js';
import { readBalance } from '../points/ledger.js';
import type { Tenant } from '../tenancy/types.js';
import { customerTier } from '../tiers/customer-tier.js';
import { TierStore } from '../tiers/store.js';
import type { BoundDeps } from './bound-points.js';
import { startReferralConsumer } from './referrals.js';
import { trigger } from './trigger.js';
import { rewardPrizeUnits } from '../rewards/prize.js';

export function boundDeps(ctx: ServerContext): BoundDeps {
  const { env } = ctx;
  const counters = new LmdbCounterStore(env);
  const customers = new CustomerStore(env);
  const tiers = new TierStore(env);
  const timezoneOf = (tenant: Tenant) => ctx.tenancy.getSettings(tenant).timezone;
  return {
    env,
    campaigns: new LmdbCampaignStore(env),
    counters,
    seeds: new DrawSeeds(env, new CartStore(env)),
    onCompile: logLeftOut(ctx.log),
    sources: {
      customers,
      associations: new AssociationStore(env),
      counters,
      vouchers: new LmdbVoucherStore(env),
      locations: new LocationStore(env),
      balance: (tenant, customerId, now) => readBalance(env, tenant, customerId, { now, timezone: timezoneOf(tenant) }),
      // The customer's tier is a condition field for triggers and custom events as for carts.
      tier: (tenant, customer, now) => {
        const settings = ctx.tenancy.getSettings(tenant);
        return customerTier(tiers, tenant, settings, customer, now);
      },
      rewardPrizeUnits: (...read) => rewardPrizeUnits(env, ...read),
    },
  };
}

export function triggerRoutes(ctx: ServerContext): Routes {
  const deps = boundDeps(ctx);
  const stores = {
    customers: new CustomerStore(ctx.env),
    campaigns: new LmdbCampaignStore(ctx.env),
    instantWins: new InstantWinStore(ctx.env),
    locations: new LocationStore(ctx.env),
  };
  return {
    'triggers.trigger': (req) => trigger(deps, stores, req),
  };
}

/** Starts the refer_a_friend consumer (main.ts); returns its stop function. */
export function startReferrals(ctx: ServerContext, everyMs: number): () => void {
  const sources = { deps: boundDeps(ctx), customers: new CustomerStore(ctx.env), campaigns: new LmdbCampaignStore(ctx.env), instantWins: new InstantWinStore(ctx.env), tenancy: ctx.tenancy };
  return startReferralConsumer(sources, ctx.log, everyMs, observe(ctx.metrics, 'referrals'));
}
