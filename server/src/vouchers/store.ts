/**
 * The voucher store. Keys (docs/storage.md): `vouchers` [tenant, idKey(id)]
 * -> VoucherRecord; `voucher_codes` [tenant, code] -> id; `customer_vouchers`
 * [tenant, idKey(customer_id), idKey(id)] -> null (a customer's vouchers in id order).
 */
import type { HeldVoucher, RefusedVoucher } from '@tally/engine';
import { wireInt } from '../http/wire.js';
import type { StoreEnv } from '../store/env.js';
import { idFromKey, idKey, tenantPrefix, under } from '../store/keys.js';
import { paginate, type Page, type PageRequest } from '../store/paginate.js';
import type { Tenant } from '../tenancy/types.js';
import { voucherRefusal } from './status.js';
import type { VoucherRecord } from './types.js';

export interface VoucherStore {
  get(tenant: Tenant, id: string): VoucherRecord | undefined;
  byCode(tenant: Tenant, code: string): VoucherRecord | undefined;
  /** Every voucher issued to the customer, in the order they are used: highest priority, then expiring first, then oldest. */
  ofCustomer(tenant: Tenant, customerId: string): VoucherRecord[];
  /** One page of the customer's vouchers in id (issue) order; `toItem` filters (undefined = skip) and shapes them. */
  pageOfCustomer<T>(tenant: Tenant, customerId: string, page: PageRequest, toItem: (voucher: VoucherRecord) => T | undefined): Page<T>;
  /** Every voucher of a coupon (a scan: only coupon deletion needs it). */
  ofCoupon(tenant: Tenant, couponId: string): VoucherRecord[];
  /** The customer's usable vouchers at `now`, in that order, for the evaluation context. */
  held(tenant: Tenant, customerId: string, now: string, timezone: string): HeldVoucher[];
  /** `held`, and, in the same read, why each of the customer's vouchers whose code is `listed` cannot be used at `now`. */
  heldAndRefused(tenant: Tenant, customerId: string, now: string, timezone: string, listed: ReadonlySet<string>): { held: HeldVoucher[]; refused: RefusedVoucher[] };
  /** Inside the caller's `env.transact`: creates or replaces a voucher and its indexes. */
  putInTransaction(tenant: Tenant, record: VoucherRecord): void;
  /** Inside `env.transact`: the voucher and its indexes are gone (a customer's hard delete). */
  removeInTransaction(tenant: Tenant, record: VoucherRecord): void;
  /** Inside `env.transact`: the voucher now belongs to `customerId` (merges). */
  reassignInTransaction(tenant: Tenant, record: VoucherRecord, customerId: string): void;
}

/** No voucher codes listed (a cart whose coupons_desired is not a list of codes). */
export const NO_CODES: ReadonlySet<string> = new Set();

function byUseOrder(a: VoucherRecord, b: VoucherRecord): number {
  const end = (v: VoucherRecord) => (v.available_to === null ? Infinity : Date.parse(v.available_to));
  return b.priority - a.priority || end(a) - end(b) || a.id.length - b.id.length || (a.id < b.id ? -1 : 1);
}

export class LmdbVoucherStore implements VoucherStore {
  constructor(private readonly env: StoreEnv) {}

  private get vouchers() {
    return this.env.db('vouchers');
  }
  private get codes() {
    return this.env.db('voucher_codes');
  }
  private get byCustomer() {
    return this.env.db('customer_vouchers');
  }

  get(tenant: Tenant, id: string): VoucherRecord | undefined {
    return this.vouchers.get([tenantPrefix(tenant), idKey(id)]) as VoucherRecord | undefined;
  }

  byCode(tenant: Tenant, code: string): VoucherRecord | undefined {
    const id = this.codes.get([tenantPrefix(tenant), code]) as string | undefined;
    return id === undefined ? undefined : this.get(tenant, id);
  }

  ofCustomer(tenant: Tenant, customerId: string): VoucherRecord[] {
    const prefix = [tenantPrefix(tenant), idKey(customerId)];
    const keys = this.byCustomer.getKeys(under(prefix));
    const found: VoucherRecord[] = [];
    for (const key of keys) {
      const voucher = this.get(tenant, idFromKey(String((key as string[])[2])));
      if (voucher) found.push(voucher);
    }
    return found.sort(byUseOrder);
  }

  pageOfCustomer<T>(tenant: Tenant, customerId: string, page: PageRequest, toItem: (voucher: VoucherRecord) => T | undefined): Page<T> {
    return paginate<null, T>(this.byCustomer, [tenantPrefix(tenant), idKey(customerId)], page, (_value, key) => {
      const voucher = this.get(tenant, idFromKey(String(key[2])));
      return voucher === undefined ? undefined : toItem(voucher);
    });
  }

  ofCoupon(tenant: Tenant, couponId: string): VoucherRecord[] {
    const prefix = tenantPrefix(tenant);
    const range = this.vouchers.getRange(under([prefix]));
    return [...range].map(({ value }) => value as VoucherRecord).filter((voucher) => voucher.coupon_id === couponId);
  }

  held(tenant: Tenant, customerId: string, now: string, timezone: string): HeldVoucher[] {
    return this.heldAndRefused(tenant, customerId, now, timezone, NO_CODES).held;
  }

  heldAndRefused(tenant: Tenant, customerId: string, now: string, timezone: string, listed: ReadonlySet<string>): { held: HeldVoucher[]; refused: RefusedVoucher[] } {
    const held: HeldVoucher[] = [];
    const refused: RefusedVoucher[] = [];
    for (const voucher of this.ofCustomer(tenant, customerId)) {
      const refusal = voucherRefusal(voucher, now, timezone);
      if (refusal === null) {
        held.push({
          code: voucher.code,
          campaign_id: voucher.campaign_id,
          voucher_id: voucher.id,
          selected: voucher.selected,
          available_to: voucher.available_to,
          ...(voucher.campaign_history_id === undefined ? {} : { campaign_history_id: wireInt(voucher.campaign_history_id) }),
        });
      } else if (listed.has(voucher.code)) {
        refused.push({ code: voucher.code, campaign_id: voucher.campaign_id, voucher_id: voucher.id, error: `${refusal.code}: ${refusal.message}` });
      }
    }
    return { held, refused };
  }

  putInTransaction(tenant: Tenant, record: VoucherRecord): void {
    const prefix = tenantPrefix(tenant);
    this.vouchers.putSync([prefix, idKey(record.id)], record);
    this.codes.putSync([prefix, record.code], record.id);
    if (record.customer_id !== null) this.byCustomer.putSync([prefix, idKey(record.customer_id), idKey(record.id)], null);
  }

  removeInTransaction(tenant: Tenant, record: VoucherRecord): void {
    const prefix = tenantPrefix(tenant);
    this.vouchers.removeSync([prefix, idKey(record.id)]);
    this.codes.removeSync([prefix, record.code]);
    if (record.customer_id !== null) this.byCustomer.removeSync([prefix, idKey(record.customer_id), idKey(record.id)]);
  }

  reassignInTransaction(tenant: Tenant, record: VoucherRecord, customerId: string): void {
    if (record.customer_id !== null) this.byCustomer.removeSync([tenantPrefix(tenant), idKey(record.customer_id), idKey(record.id)]);
    this.putInTransaction(tenant, { ...record, customer_id: customerId });
  }
}
