/**
 * Runs a voucher action on one voucher or on a list, inside one write
 * transaction: each voucher is read and checked there (so concurrent
 * requests never use a redemption twice), and a list is all or nothing: the
 * first voucher that fails aborts the transaction, nothing is written, and
 * the error names it (`codes[2]: ...`). An action that changes none of
 * them, as they read before it, takes no transaction.
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

/**
 * `changed`: called inside the transaction for each voucher the action changed (its webhook event). An action that
 * changes no voucher (a second freeze, a deselect of a voucher not selected) writes nothing, so the audit log records
 * nothing (as an update of the values held: store/unchanged.ts). Judged on the vouchers as read now: a change
 * committed after this read is one the request came before.
 */
export async function applyAction(stores: ApplyStores, target: Target, action: VoucherAction, ctx: ActionContext, changed?: (voucher: VoucherRecord) => void): Promise<FoundVoucher[]> {
  /** Each voucher named, as read, and what the action makes of it; `onChange` sees each voucher it changes. */
  const acted = (onChange: (next: VoucherRecord) => void): FoundVoucher[] =>
    target.codes.map(({ code, field }) => {
      const found = findVoucher(stores, target.tenant, code, target.holder, field);
      let next;
      try {
        next = action(found, ctx);
      } catch (error) {
        throw error instanceof TallyError && error.field === undefined ? atField(error, field) : error;
      }
      if (next !== found.voucher) onChange(next);
      return { ...found, voucher: next };
    });
  let changes = false;
  const asRead = acted(() => (changes = true));
  if (!changes) return asRead;
  // Read and checked again inside the transaction, one voucher after the other (a code listed twice is used twice).
  return stores.env.transact(() =>
    acted((next) => {
      stores.vouchers.putInTransaction(target.tenant, next);
      changed?.(next);
    }),
  );
}
