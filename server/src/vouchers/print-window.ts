/**
 * When a voucher may be printed: the coupon's print_from/print_to dates (a
 * bare date is the Company's day in `timezone`, as the voucher's own dates
 * are), or relative to the voucher's issue (print_delay_days, then
 * print_days: days of the Company's calendar, ending at the local time they
 * start). Computed on each read, so bare dates and counts follow the
 * Company's timezone as it is then.
 */
import type { CouponParams } from '@tally/engine';
import type { VoucherRecord } from './types.js';
import { wireDatetime } from '../http/wire.js';
import { boundInstant, daysLater } from '../calendar/company-days.js';

export interface PrintWindow {
  print_from: string | null;
  print_to: string | null;
}

export function printWindow(voucher: VoucherRecord, coupon: CouponParams | undefined, timezone: string): PrintWindow {
  const params = coupon ?? {};
  const issued = new Date(voucher.created_at);
  const delay = typeof params.print_delay_days === 'number' ? params.print_delay_days : undefined;
  const from = typeof params.print_from === 'string' ? boundInstant(params.print_from, false, timezone) : delay === undefined ? null : daysLater(issued, delay, timezone);
  const to = typeof params.print_to === 'string'
    ? boundInstant(params.print_to, true, timezone)
    : typeof params.print_days === 'number' ? daysLater(from ?? issued, params.print_days, timezone) : null;
  return { print_from: iso(from), print_to: iso(to) };
}

function iso(at: Date | null): string | null {
  return at === null ? null : wireDatetime(at);
}
