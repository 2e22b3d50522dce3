/**
 * How long the voucher a reward issues (process_actions) stays usable: its
 * `available_to`. Relative: number + unit from the redemption, in the
 * Company's calendar (`timezone`): days and weeks are local dates, months and
 * years calendar months clamped to the month's last day (Jan 31 + 1 month =
 * Feb 28/29), ending at the local time of the redemption. Fixed: the end of
 * validity_duration_date, the Company's day in `timezone` (its last second,
 * endOfDay), like a coupon's date-only bound.
 * An end beyond 9999-12-31T23:59:59Z is that instant (rewards stored before
 * the count was bounded). undefined when the reward sets no validity: the
 * coupon's own dates apply (rewards/record.ts refuses an incomplete one).
 */
import type { RewardRecord } from './types.js';
import { wireDatetime } from '../http/wire.js';
import { daysLater, endOfDay, monthsLater } from '../calendar/company-days.js';

type Validity = Pick<RewardRecord, 'validity_duration_type' | 'validity_duration_number' | 'validity_duration_unit_option' | 'validity_duration_date'>;

export function voucherValidUntil(reward: Validity, redeemedAt: Date, timezone: string): string | undefined {
  const end = validityEnd(reward, redeemedAt, timezone);
  return end === undefined ? undefined : wireDatetime(end);
}

function validityEnd(reward: Validity, redeemedAt: Date, timezone: string): Date | undefined {
  if (reward.validity_duration_type === 'fixed' && reward.validity_duration_date !== null) {
    return endOfDay(reward.validity_duration_date, timezone);
  }
  const n = reward.validity_duration_number;
  if (reward.validity_duration_type !== 'relative' || n === null) return undefined;
  switch (reward.validity_duration_unit_option) {
    case 'days':
      return daysLater(redeemedAt, n, timezone);
    case 'weeks':
      return daysLater(redeemedAt, 7 * n, timezone);
    case 'months':
      return monthsLater(redeemedAt, n, timezone);
    case 'years':
      return monthsLater(redeemedAt, 12 * n, timezone);
    default:
      return undefined;
  }
}
