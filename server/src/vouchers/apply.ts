/**
 * Runs a voucher action on one voucher or on a list, inside one write
 * transaction: each voucher is read and checked there (so concurrent
 * requests never use a redemption twice), and a list is all or nothing: the
 * first voucher that fails aborts the transaction, nothing is written, and
 * the error names it (`codes[2]: ...`).
 */
import { TallyError } from '@tally/engine';
import type { CustomerRecord } from '../customers/types.js';
import type { StoreEnv } from '../store/env.js';
import type { Tenant } from '../tenancy/types.js';
import type { ActionContext, VoucherAction } from './actions.js';
import { atField, findVoucher, type FindStores, type FoundVoucher } from './find.js';
import type { VoucherRecord } from './types.js';

export interface ApplyStores extends FindStores {
  env: StoreEnv;
}

export interface Target {
  tenant: Tenant;
  /** When given, every voucher must be this customer's (else voucher_not_found). */
  holder: CustomerRecord | undefined;
  /** The code of each voucher and the request field naming it. */
  codes: ReadonlyArray<{ code: string; field: string }>;
}

/** `changed`: called inside the transaction for each voucher the action changed (its webhook event). */
export function applyAction(stores: ApplyStores, target: Target, action: VoucherAction, ctx: ActionContext, changed?: (voucher: VoucherRecord) => void): Promise<FoundVoucher[]> {
  return stores.env.transact(() =>
    target.codes.map(({ code, field }) => {
      const found = findVoucher(stores, target.tenant, code, target.holder, field);
      let next;
      try {
        next = action(found, ctx);
      } catch (error) {
        throw error instanceof TallyError && error.field === undefined ? atField(error, field) : error;
      }
      if (next !== found.voucher) {
        stores.vouchers.putInTransaction(target.tenant, next);
        changed?.(next);
      }
      return { ...found, voucher: next };
    }),
  );
}
