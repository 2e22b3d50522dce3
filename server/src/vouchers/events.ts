/**
 * The webhook events of vouchers (docs/webhooks.md): voucher.issued when a
 * voucher is issued to a customer, voucher.redeemed at each use. Data: the
 * voucher as the customer's list (GET /vouchers) shows it once the
 * transaction's work is done, names in the Company's default language. The
 * rendering reads only when a subscription wants the event: a realtime cart
 * using vouchers pays one deferred closure each.
 */
import { LmdbCampaignStore } from '../campaigns/store.js';
import { CouponStore } from '../coupons/store.js';
import { stringifyJson } from '../http/json.js';
import { wireDatetime } from '../http/wire.js';
import type { StoreEnv } from '../store/env.js';
import type { CompanySettings, Tenant } from '../tenancy/types.js';
import { raiseEvent } from '../webhooks/outbox.js';
import { withCoupon } from './find.js';
import { voucherView } from './present.js';
import { LmdbVoucherStore } from './store.js';

/** Inside `env.transact`, once the voucher is stored. */
export function raiseVoucherEvent(
  env: StoreEnv,
  tenant: Tenant,
  settings: CompanySettings,
  now: Date,
  type: 'voucher.issued' | 'voucher.redeemed',
  voucherId: string,
): void {
  raiseEvent(env, tenant, type, () => {
    const vouchers = new LmdbVoucherStore(env);
    const found = withCoupon({ vouchers, coupons: new CouponStore(env, new LmdbCampaignStore(env)) }, tenant, vouchers.get(tenant, voucherId)!);
    return stringifyJson(voucherView(found, { language: undefined, settings, now: wireDatetime(now) }));
  }, () => [new LmdbVoucherStore(env).get(tenant, voucherId)?.customer_id]);
}
