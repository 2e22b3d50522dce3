/**
 * How long the voucher a reward issues (process_actions) stays usable: its
 * `available_to`. Relative: number + unit from the redemption (calendar
 * months and years, clamped to the month's last day: Jan 31 + 1 month =
 * Feb 28/29). Fixed: the end of validity_duration_date, the Company's day in
 * `timezone` (its last second, endOfDay), like a coupon's date-only bound.
 * An end beyond 9999-12-31T23:59:59Z is that instant (rewards stored before
 * the count was bounded). undefined when the reward sets no validity: the
 * coupon's own dates apply (rewards/record.ts refuses an incomplete one).
 */
import type { RewardRecord } from './types.js';
import { boundedInstant, daysAfter, wireDatetime } from '../http/wire.js';
import { endOfDay } from '../calendar/company-days.js';

type Validity = Pick<RewardRecord, 'validity_duration_type' | 'validity_duration_number' | 'validity_duration_unit_option' | 'validity_duration_date'>;

export function voucherValidUntil(reward: Validity, redeemedAt: Date, timezone: string): string | undefined {
  const end = validityEnd(reward, redeemedAt, timezone);
  return end === undefined ? undefined : wireDatetime(boundedInstant(end.getTime()));
}

function validityEnd(reward: Validity, redeemedAt: Date, timezone: string): Date | undefined {
  if (reward.validity_duration_type === 'fixed' && reward.validity_duration_date !== null) {
    return endOfDay(reward.validity_duration_date, timezone);
  }
  const n = reward.validity_duration_number;
  if (reward.validity_duration_type !== 'relative' || n === null) return undefined;
  switch (reward.validity_duration_unit_option) {
    case 'days':
      return daysAfter(redeemedAt.getTime(), n);
    case 'weeks':
      return daysAfter(redeemedAt.getTime(), 7 * n);
    case 'months':
      return addMonths(redeemedAt, n);
    case 'years':
      return addMonths(redeemedAt, 12 * n);
    default:
      return undefined;
  }
}

function addMonths(from: Date, months: number): Date {
  const to = new Date(from.getTime());
  to.setUTCDate(1);
  to.setUTCMonth(to.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(to.getUTCFullYear(), to.getUTCMonth() + 1, 0)).getUTCDate();
  to.setUTCDate(Math.min(from.getUTCDate(), lastDay));
  return to;
}
