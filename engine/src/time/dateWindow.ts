/**
 * A from/to window of dates, as campaigns and coupons give them: a datetime
 * is an instant, a date `YYYY-MM-DD` a whole local day of the Company, both
 * ends included.
 */
import { isDateOnly, parseInstant } from './zonedDate.js';

export type DateBound = { instant: number } | { date: string };

export interface DateWindow {
  from: DateBound | null;
  to: DateBound | null;
}

export function dateBound(value: unknown, field: string): DateBound | null {
  if (value === undefined || value === null || value === '') return null;
  if (isDateOnly(value)) return { date: value };
  return { instant: parseInstant(value, field) };
}

/** Where an instant (`at`, whose local date is `day`) falls: before the window, after it, or inside (null). */
export function outsideWindow(window: DateWindow, at: number, day: string): 'before' | 'after' | null {
  const { from, to } = window;
  if (from && ('instant' in from ? at < from.instant : day < from.date)) return 'before';
  if (to && ('instant' in to ? at > to.instant : day > to.date)) return 'after';
  return null;
}

