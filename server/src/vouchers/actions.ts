/**
 * What each voucher operation does to one voucher: a function from the
 * voucher (as read inside the write transaction) to its next state, or a
 * thrown voucher_* / invalid_request error. docs/coupons-vouchers.md has the
 * table of moves.
 */
import { TallyError } from '@tally/engine';
import { usageRefusal, type FoundVoucher } from './find.js';
import type { RequestLocation } from './location.js';
import { printWindow } from './print-window.js';
import type { VoucherRecord } from './types.js';
import { afterReturn, afterUse } from './use.js';

export interface ActionContext {
  now: string;
  /** The Company's: a coupon's bare print dates are its days. */
  timezone: string;
  /** Where the voucher is used (redeem, validate). */
  location?: RequestLocation;
}

export type VoucherAction = (found: FoundVoucher, ctx: ActionContext) => VoucherRecord;

function refuse(found: FoundVoucher, ctx: ActionContext, allowPending = false): void {
  const refusal = usageRefusal(found, ctx);
  if (refusal && !(allowPending && refusal.code === 'voucher_out_date')) throw refusal;
}

/** One redemption, only when usable here and now; the last one moves it to `redeemed`. */
export const redeem: VoucherAction = (found, ctx) => {
  refuse(found, ctx);
  return afterUse(found.voucher);
};

/** Gives one redemption back (a `redeemed` voucher is active again). */
export const rollback: VoucherAction = ({ voucher }) => {
  if (voucher.status === 'deleted') throw new TallyError('voucher_deleted', `voucher ${voucher.code}: its coupon has been deleted`);
  if (voucher.redemptions === 0) throw new TallyError('invalid_request', `voucher ${voucher.code}: has no redemption to roll back`);
  return afterReturn(voucher);
};

/**
 * Chosen for the customer's carts (coupons_desired 'selected'); a voucher not yet available may be selected ahead.
 * Selecting a selected voucher (deselecting one not selected) changes nothing: the same record, nothing written.
 */
export const select: VoucherAction = (found, ctx) => {
  refuse(found, ctx, true);
  return found.voucher.selected ? found.voucher : { ...found.voucher, selected: true };
};

export const deselect: VoucherAction = ({ voucher }) => (voucher.selected ? { ...voucher, selected: false } : voucher);

/** Held back from every use until unfrozen; freezing a frozen voucher changes nothing. */
export const freeze: VoucherAction = (found, ctx) => {
  if (found.voucher.status === 'frozen') return found.voucher;
  refuse(found, ctx, true);
  return { ...found.voucher, status: 'frozen' };
};

export const unfreeze: VoucherAction = ({ voucher }) => (voucher.status === 'frozen' ? { ...voucher, status: 'active' } : voucher);

/** Printable coupons only, inside the print window, while the voucher can still be used. */
export const print: VoucherAction = (found, ctx) => {
  const { voucher, coupon } = found;
  if (coupon?.params.printable !== true) throw new TallyError('invalid_request', `voucher ${voucher.code}: its coupon is not printable`);
  refuse(found, ctx, true);
  const window = printWindow(voucher, coupon.params, ctx.timezone);
  const at = Date.parse(ctx.now);
  if ((window.print_from !== null && Date.parse(window.print_from) > at) || (window.print_to !== null && Date.parse(window.print_to) < at)) {
    // An open end is left unsaid ("from X", "until Y"), never "to null".
    const from = window.print_from === null ? [] : [`from ${window.print_from}`];
    const to = window.print_to === null ? [] : [`${from.length === 0 ? 'until' : 'to'} ${window.print_to}`];
    throw new TallyError('invalid_request', `voucher ${voucher.code}: can be printed ${[...from, ...to].join(' ')}`);
  }
  return { ...voucher, printed_at: ctx.now, prints: (voucher.prints ?? 0) + 1 };
};
