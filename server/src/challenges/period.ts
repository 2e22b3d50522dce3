/**
 * The local dates over which a challenge measures its attribute at a given
 * day (attribute_data_period_type): the challenge's own dates, the current
 * week (from Monday), month or year, the last N months (relative_months,
 * today included), or fixed dates. Never beyond today or the challenge end.
 */
import { addToLocalDate } from '@tally/engine';
import type { ChallengeRecord } from './types.js';

export interface Window {
  from: string;
  to: string;
}

const EARLIEST = '0000-01-01';

export function measuredWindow(challenge: ChallengeRecord, today: string): Window {
  const end = challenge.available_to !== null && challenge.available_to < today ? challenge.available_to : today;
  switch (challenge.attribute_data_period_type) {
    case 'current_week': {
      const weekday = (new Date(`${today}T00:00:00Z`).getUTCDay() + 6) % 7;
      return { from: addToLocalDate(today, -weekday, 'days'), to: today };
    }
    case 'current_month':
      return { from: `${today.slice(0, 7)}-01`, to: today };
    case 'current_year':
      return { from: `${today.slice(0, 4)}-01-01`, to: today };
    case 'relative_months':
      return lastMonths(today, challenge.attribute_relative_value ?? 1);
    case 'fixed':
      return { from: challenge.attribute_period_from ?? EARLIEST, to: minDate(challenge.attribute_period_to ?? today, today) };
    case 'challenge_dates':
      return { from: challenge.available_from ?? EARLIEST, to: end };
  }
}

/** The last `months` months up to today (today included). */
export function lastMonths(today: string, months: number): Window {
  return { from: addToLocalDate(addToLocalDate(today, -months, 'months'), 1, 'days'), to: today };
}

function minDate(a: string, b: string): string {
  return a < b ? a : b;
}
