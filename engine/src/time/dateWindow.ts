/**
 * A from/to window of dates, as campaigns and coupons give them: a datetime
 * is an instant, a date `YYYY-MM-DD` a whole local day of the Company, both
 * ends included.
 */
import { isDateOnly, parseInstant, zonedDate, zoneFormatter } from './zonedDate.js';

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

/**
 * Whether a from/to pair (as sent; `fields` name them) leaves no instant
 * inside: its to comes before its from. A date against a datetime is
 * compared in the Company timezone: the datetime's local day against the date
 * (a date includes its whole day, so `2026-11-30` to `2026-11-30T08:00:00Z`
 * is not empty).
 */
export function endsBeforeStart(from: unknown, to: unknown, timezone: string, fields: readonly [string, string] = ['available_from', 'available_to']): boolean {
  const window = { from: dateBound(from, fields[0]), to: dateBound(to, fields[1]) };
  if (!window.from || !window.to) return false;
  if ('date' in window.from && 'date' in window.to) return window.from.date > window.to.date;
  // The earliest instant of the window is its from, else its latest is its to: the window is empty when that one is outside.
  const at = 'instant' in window.from ? window.from.instant : (window.to as { instant: number }).instant;
  return outsideWindow(window, at, zonedDate(at, zoneFormatter(timezone, 'timezone')).date) !== null;
}
