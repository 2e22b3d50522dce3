/**
 * When a voucher may be printed: the coupon's print_from/print_to dates, or
 * relative to the voucher's issue (print_delay_days, then print_days).
 */
import type { CouponParams } from '@tally/engine';
import type { VoucherRecord } from './types.js';
import { daysAfter, wireDatetime } from '../http/wire.js';

export interface PrintWindow {
  print_from: string | null;
  print_to: string | null;
}

export function printWindow(voucher: VoucherRecord, coupon: CouponParams | undefined): PrintWindow {
  const params = coupon ?? {};
  const issued = Date.parse(voucher.created_at);
  const delay = typeof params.print_delay_days === 'number' ? params.print_delay_days : undefined;
  const from = typeof params.print_from === 'string' ? bound(params.print_from, false) : delay === undefined ? null : daysAfter(issued, delay).getTime();
  const to = typeof params.print_to === 'string'
    ? bound(params.print_to, true)
    : typeof params.print_days === 'number' ? daysAfter(from ?? issued, params.print_days).getTime() : null;
  return { print_from: iso(from), print_to: iso(to) };
}

/** A date-only bound covers its whole day (UTC), as the voucher's own dates do. */
function bound(value: string, endOfDay: boolean): number {
  return Date.parse(value.length === 10 ? `${value}T${endOfDay ? '23:59:59' : '00:00:00'}Z` : value);
}

function iso(at: number | null): string | null {
  return at === null ? null : wireDatetime(new Date(at));
}
