/** POST /trigger (+ /scores/trigger), and the consumer of the refer_a_friend trigger raised by customer creation. */
import { LmdbCampaignStore } from '../campaigns/store.js';
import type { ServerContext } from '../context.js';
import { CartStore } from '../carts/store.js';
import { DrawSeeds } from '../carts/seed.js';
import { LmdbCounterStore } from '../counters/store.js';
import { InstantWinStore } from '../instant-wins/store.js';
import { LocationStore } from '../locations/store.js';
import { CustomerStore } from '../customers/store.js';
import type { Routes } from '../http/types.js';
import { LmdbVoucherStore } from '../vouchers/store.js';
import { readBalance } from '../points/ledger.js';
import type { BoundDeps } from './bound-points.js';
import { startReferralConsumer } from './referrals.js';
import { trigger } from './trigger.js';

export function boundDeps(ctx: ServerContext): BoundDeps {
  const { env } = ctx;
  const counters = new LmdbCounterStore(env);
  const customers = new CustomerStore(env);
  return {
    env,
    counters,
    seeds: new DrawSeeds(env, new CartStore(env)),
    sources: {
      customers,
      counters,
      vouchers: new LmdbVoucherStore(env),
      locations: new LocationStore(env),
      balance: (tenant, customerId, now) => {
        const settings = ctx.tenancy.getSettings(tenant);
        return readBalance(env, tenant, customerId, { now, timezone: settings.timezone });
      },
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
export function startReferrals(ctx: ServerContext): () => void {
  const sources = { deps: boundDeps(ctx), customers: new CustomerStore(ctx.env), campaigns: new LmdbCampaignStore(ctx.env), instantWins: new InstantWinStore(ctx.env), tenancy: ctx.tenancy };
  return startReferralConsumer(sources, ctx.log);
}
