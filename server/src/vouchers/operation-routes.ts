/**
 * The coupon and voucher operations of the contract's list (issue 5):
 * list, selected list, get or validate, redeem and roll back a list, print,
 * select and deselect one or many, freeze and unfreeze, excluded products.
 * Every change runs in one write transaction (apply.ts); lists are all or
 * nothing. docs/coupons-vouchers.md.
 */
import { TallyError } from '@tally/engine';
import { auditMention } from '../audit/context.js';
import type { ServerContext } from '../context.js';
import { LmdbCampaignStore } from '../campaigns/store.js';
import { CouponStore } from '../coupons/store.js';
import { findCustomer } from '../customers/lookup.js';
import { CustomerStore } from '../customers/store.js';
import { exactlyOne, optionalBoolean, optionalCode, optionalEnum, optionalInt64, readPage, requireInt64 } from '../http/params.js';
import { ok, success, type Handler, type Routes, type TallyRequest } from '../http/types.js';
import { validate } from '../http/validation.js';
import { LocationStore } from '../locations/store.js';
import type { VouchersRedeem } from '../wire/types.js';
import * as actions from './actions.js';
import { applyAction } from './apply.js';
import { optionalCustomer, requireCustomer, UNKNOWN_HOLDER, type CustomerRef } from './customer.js';
import { excludedProducts } from './excluded.js';
import { findVoucher, usageRefusal, withCoupon, type FoundVoucher } from './find.js';
import { listMatches, readListFilters } from './list.js';
import { requestLocation } from './location.js';
import { voucherView } from './present.js';
import { raiseVoucherEvent } from './events.js';
import { LmdbVoucherStore } from './store.js';
import type { VoucherRecord } from './types.js';
import { wireDatetime } from '../http/wire.js';

export function voucherOperationRoutes({ env }: ServerContext): Routes {
  const campaigns = new LmdbCampaignStore(env);
  const vouchers = new LmdbVoucherStore(env);
  const coupons = new CouponStore(env, campaigns);
  const customers = new CustomerStore(env);
  const locations = new LocationStore(env);
  const stores = { env, vouchers, coupons };

  /** The campaign excluded_products reads, by each way the query may name it. */
  const campaignNamed = {
    code: (req: TallyRequest, code: string) => findVoucher(stores, req.tenant, code, undefined, 'code').coupon?.campaign,
    static_code: (req: TallyRequest, code: string) => campaigns.byStaticCode(req.tenant, code),
    coupon_id: (req: TallyRequest, id: string) => coupons.campaignOf(req.tenant, requireInt64(id, 'coupon_id')),
  };

  const view = (req: TallyRequest) => (found: FoundVoucher) =>
    voucherView(found, { language: req.language, settings: req.settings, now: wireDatetime(req.now) });

  const queryCustomer = (req: TallyRequest): CustomerRef => ({
    customer_id: optionalInt64(req.query.get('customer_id'), 'customer_id'),
    customer_code: optionalCode(req.query.get('customer_code'), 'customer_code'),
  });

  /** One voucher by the path's code: select, deselect, freeze, unfreeze. */
  const one = (action: actions.VoucherAction): Handler => async (req) => {
    const body = validate('vouchers.one', req.body);
    const holder = optionalCustomer(customers, req.tenant, body, UNKNOWN_HOLDER);
    auditMention(req, holder?.id);
    const target = { tenant: req.tenant, holder, codes: [{ code: req.params.code, field: 'code' }] };
    const [found] = await applyAction(stores, target, action, { now: wireDatetime(req.now), timezone: req.settings.timezone });
    return success({ voucher: view(req)(found) });
  };

  /** A list of vouchers by `codes`, all or nothing. */
  /** `event`: the webhook event each voucher changed raises. */
  const many = (schema: 'vouchers.many' | 'vouchers.redeem', action: actions.VoucherAction, event?: 'voucher.redeemed'): Handler => async (req) => {
    // vouchers.many is vouchers.redeem without a location.
    const body: VouchersRedeem = validate(schema, req.body);
    const holder = optionalCustomer(customers, req.tenant, body, UNKNOWN_HOLDER);
    auditMention(req, holder?.id);
    const location = requestLocation(locations, req.tenant, { id: body.location_id, code: body.location_code });
    const codes = body.codes.map((code, i) => ({ code, field: `codes[${i}]` }));
    const raise = event && ((voucher: VoucherRecord) => raiseVoucherEvent(env, req.tenant, req.settings, req.now, event, voucher.id));
    const found = await applyAction(stores, { tenant: req.tenant, holder, codes }, action, { now: wireDatetime(req.now), timezone: req.settings.timezone, location }, raise);
    return success({ vouchers: found.map(view(req)) });
  };

  return {
    'vouchers.list': async (req) => {
      const holder = requireCustomer(customers, req.tenant, queryCustomer(req), UNKNOWN_HOLDER);
      const filters = readListFilters(req.query);
      const now = wireDatetime(req.now);
      const page = readPage(req.query);
      return ok(
        vouchers.pageOfCustomer(req.tenant, holder.id, page, (voucher) => {
          const found = withCoupon(stores, req.tenant, voucher);
          return listMatches(found, filters, now, req.settings.timezone) ? view(req)(found) : undefined;
        }),
      );
    },

    'vouchers.selected': async (req) => {
      const by = optionalEnum(req.query.get('search_param'), 'search_param', ['id', 'code'] as const) ?? 'id';
      const holder = findCustomer(customers, req.tenant, by, req.params.id, 'id', UNKNOWN_HOLDER);
      const selected = vouchers.ofCustomer(req.tenant, holder.id).filter((voucher) => voucher.selected);
      return ok({ data: selected.map((voucher) => view(req)(withCoupon(stores, req.tenant, voucher))) });
    },

    'vouchers.get': async (req) => {
      const holder = optionalCustomer(customers, req.tenant, queryCustomer(req), UNKNOWN_HOLDER);
      const found = findVoucher(stores, req.tenant, req.params.code, holder, 'code');
      if (optionalBoolean(req.query.get('validate'), 'validate') === true) {
        const location = requestLocation(locations, req.tenant, {
          id: optionalInt64(req.query.get('location_id'), 'location_id'),
          code: optionalCode(req.query.get('location_code'), 'location_code'),
        });
        const refusal = usageRefusal(found, { now: wireDatetime(req.now), timezone: req.settings.timezone, location });
        if (refusal) throw refusal;
      }
      return ok(view(req)(found));
    },

    'vouchers.redeem': many('vouchers.redeem', actions.redeem, 'voucher.redeemed'),
    'vouchers.rollback': many('vouchers.many', actions.rollback),
    'vouchers.print': many('vouchers.many', actions.print),
    'vouchers.print_put': many('vouchers.many', actions.print),
    'vouchers.select_many': many('vouchers.many', actions.select),
    'vouchers.deselect_many': many('vouchers.many', actions.deselect),
    'vouchers.select': one(actions.select),
    'vouchers.deselect': one(actions.deselect),
    'vouchers.freeze': one(actions.freeze),
    'vouchers.unfreeze': one(actions.unfreeze),

    'vouchers.excluded_products': async (req) => {
      const field = exactlyOne(['code', 'static_code', 'coupon_id'] as const, (name) => Boolean(req.query.get(name)));
      const value = req.query.get(field)!;
      const campaign = campaignNamed[field](req, value);
      if (campaign) return ok(excludedProducts(campaign));
      if (field === 'coupon_id') throw new TallyError('coupon_not_found', `coupon_id: no coupon ${value}`, 'coupon_id');
      // A static code names a coupon, not a voucher.
      throw new TallyError('voucher_not_found', field === 'static_code' ? `static_code: no coupon with static code ${value}` : `code: no voucher ${value}`, field);
    },
  };
}
