/** The points and wallet operations (spec part 2, Points and wallet), on the ledger (ledger.ts). */
import { LmdbCampaignStore } from '../campaigns/store.js';
import { CartStore } from '../carts/store.js';
import type { ServerContext } from '../context.js';
import { CustomerStore } from '../customers/store.js';
import { LocationStore } from '../locations/store.js';
import { ok, type Routes } from '../http/types.js';
import { balanceOfCustomer, pointsView } from './balance.js';
import { cashback, cashbackThresholds } from './cashbacks.js';
import { expiringPoints } from './expiring.js';
import { LEDGER_DATABASES, settleIfDue } from './ledger.js';
import { redeem, redeemCart } from './redeem.js';
import { clockOf, customerFromPath } from './request.js';
import { listTransactions } from './transactions.js';
import { transfer } from './transfer.js';

export function pointsRoutes(ctx: ServerContext): Routes {
  const { env } = ctx;
  for (const name of LEDGER_DATABASES) env.db(name);
  const customers = new CustomerStore(env);
  const campaigns = new LmdbCampaignStore(env);
  const carts = new CartStore(env);
  const locations = new LocationStore(env);
  return {
    'points.balance': async (req) => {
      const customer = customerFromPath(customers, req);
      await settleIfDue(env, req.tenant, customer.id, customer.code ?? null, clockOf(req));
      return ok(pointsView(balanceOfCustomer(env, req, customer), customer, req.settings));
    },
    'points.expiring': async (req) => ok(expiringPoints(env, customers, req)),
    'points.transactions': async (req) => ok(await listTransactions(env, { customers, campaigns, carts }, req)),
    'points.redeem': (req) => redeem(env, customers, req),
    'points.redeem_cart': (req) => redeemCart(env, customers, carts, locations, req),
    'points.transfer': (req) => transfer(env, customers, campaigns, req),
    'points.cashbacks': async (req) => ok(cashback(locations, req)),
    'points.cashback_thresholds': async (req) => ok(cashbackThresholds(req)),
  };
}
