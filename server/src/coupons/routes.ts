/** POST /coupons, PATCH (PUT) /coupons/{id}, DELETE /coupons/{id} (docs/coupons-vouchers.md). */
import { auditTarget } from '../audit/context.js';
import type { ServerContext } from '../context.js';
import { LmdbCampaignStore } from '../campaigns/store.js';
import { createTarget } from '../http/duplicates.js';
import { requireInt64 } from '../http/params.js';
import { success, type Routes } from '../http/types.js';
import { validate } from '../http/validation.js';
import { wireDatetime, wireInt } from '../http/wire.js';
import { GameStore } from '../games/store.js';
import { InstantWinStore } from '../instant-wins/store.js';
import { allocateId } from '../store/ids.js';
import { LmdbVoucherStore } from '../vouchers/store.js';
import { deleteInTransaction } from './delete.js';
import { CouponStore } from './store.js';
import { createInTransaction, updateChangesNothing, updateInTransaction } from './write.js';

export function couponRoutes({ env, duplicates }: ServerContext): Routes {
  const campaigns = new LmdbCampaignStore(env);
  const staticCodeHolders = [campaigns, new InstantWinStore(env), new GameStore(env)];
  const stores = { env, campaigns, coupons: new CouponStore(env, campaigns), vouchers: new LmdbVoucherStore(env), staticCodeHolders };

  return {
    'coupons.create': (req) => {
      const body = validate('coupons.create', req.body, req.settings);
      return duplicates.suppress(req, createTarget('coupon', `create:${body.loyalty_rule_id}`), async () => {
        const id = await env.transact(() => {
          const created = createInTransaction(stores, req, body, () => allocateId(env, req.tenant, 'coupons'));
          auditTarget(req, `coupon:${created}`);
          return created;
        });
        return success({ id: wireInt(id) });
      });
    },

    'coupons.update': (req) => {
      const id = requireInt64(req.params.id, 'id');
      const body = validate('coupons.update', req.body, req.settings);
      return duplicates.suppress(req, `coupon:${id}`, async () => {
        if (!updateChangesNothing(stores, req, id, body)) await env.transact(() => updateInTransaction(stores, req, id, body));
        return success();
      });
    },

    'coupons.delete': (req) => {
      const id = requireInt64(req.params.id, 'id');
      return duplicates.suppress(req, `coupon:${id}`, async () => {
        await env.transact(() => deleteInTransaction(stores, req.tenant, req.settings, id, wireDatetime(req.now)));
        return success();
      });
    },
  };
}
