/**
 * When a voucher may be printed: the coupon's print_from/print_to dates (a
 * bare date is the Company's day in `timezone`, as the voucher's own dates
 * are), or relative to the voucher's issue (print_delay_days, then
 * print_days). Computed on each read, so a bare date follows the Company's
 * timezone as it is then.
 */
import type { CouponParams } from '@tally/engine';
import type { VoucherRecord } from './types.js';
import { daysAfter, wireDatetime } from '../http/wire.js';
import { boundInstant } from '../calendar/company-days.js';

export interface PrintWindow {
  print_from: string | null;
  print_to: string | null;
}

export function printWindow(voucher: VoucherRecord, coupon: CouponParams | undefined, timezone: string): PrintWindow {
  const params = coupon ?? {};
  const issued = Date.parse(voucher.created_at);
  const delay = typeof params.print_delay_days === 'number' ? params.print_delay_days : undefined;
  const from = typeof params.print_from === 'string' ? boundInstant(params.print_from, false, timezone).getTime() : delay === undefined ? null : daysAfter(issued, delay).getTime();
  const to = typeof params.print_to === 'string'
    ? boundInstant(params.print_to, true, timezone).getTime()
    : typeof params.print_days === 'number' ? daysAfter(from ?? issued, params.print_days).getTime() : null;
  return { print_from: iso(from), print_to: iso(to) };
}

function iso(at: number | null): string | null {
  return at === null ? null : wireDatetime(new Date(at));
}
