/**
 * The key of the counter period an instant belongs to. Limits (`once`) and
 * budgets (`budget_period`) are counted per key, at the sale's instant
 * (`countedAt`); the caller reads and writes its counters under the keys the
 * engine names in `writes`.
 */
import { invalidRequest } from '../errors.js';
import { parseInstant, zonedDate, zoneFormatter, type ZonedDate } from './zonedDate.js';

export const PERIODS = ['num_day', 'num_month', 'num_year', 'always'] as const;
export type Period = (typeof PERIODS)[number];

export function checkPeriod(value: unknown, field: string): Period {
  if (value === undefined || value === null || value === '') return 'always';
  if (typeof value === 'string' && (PERIODS as readonly string[]).includes(value)) return value as Period;
  throw invalidRequest(field, `must be one of ${PERIODS.join(', ')}`);
}

export function periodKeyOf(period: Period, at: ZonedDate): string {
  switch (period) {
    case 'num_day':
      return at.date;
    case 'num_month':
      return at.date.slice(0, 7);
    case 'num_year':
      return at.date.slice(0, 4);
    case 'always':
      return 'always';
  }
}

/**
 * The period key of an instant for a Company timezone: the caller reads its
 * counters (`once` uses, budget spent) under this key before evaluating.
 * An absent period is `always`, as campaigns read it.
 */
export function periodKey(period: string | undefined | null, at: string, timezone: string): string {
  return periodKeyOf(checkPeriod(period, 'period'), zonedDate(parseInstant(at, 'at'), zoneFormatter(timezone, 'timezone')));
}

/**
 * The instant a cart's counters (`once` uses, budget) count at, as sent: its creation_date (the sale: a till's
 * back-dated backlog counts on the days it sold), unless that is later than `now` (a till clock ahead counts today,
 * never in a period still to come). The caller reads its counters at it; evaluateCart keys its writes at it.
 */
export function countedAt(creationDate: string, now: string): string {
  return parseInstant(creationDate, 'creation_date') <= parseInstant(now, 'now') ? creationDate : now;
}

/**
 * The local date (YYYY-MM-DD, four-digit years, within 0000-01-01..9999-12-31) of the instant `ms` in `timezone`:
 * the date `num_day` counts by, which the server's Company calendar uses too, so both read one date.
 */
export function localDateOf(ms: number, timezone: string): string {
  return zonedDate(ms, zoneFormatter(timezone, 'timezone')).date;
}
