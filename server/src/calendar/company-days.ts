/**
 * The Company's calendar: points activate and expire by local date; coupon and reward dates bound vouchers by it;
 * counts of days and months of a customer's validity (a voucher's, a reward's, a tier level's) are its calendar days.
 */
import { addToLocalDate, localDateOf } from '@tally/engine';
import { boundedInstant, DAY_MS } from '../http/wire.js';

/**
 * YYYY-MM-DD of `instant` in `timezone`: the engine's local date (`localDateOf`, the date its day periods count by),
 * four-digit years as the wire writes dates, a date outside the wire's years (the first hours of 0000-01-01 UTC west
 * of UTC, the last of 9999-12-31 east of it) the nearest it writes.
 */
export function localDate(instant: Date, timezone: string): string {
  return localDateOf(instant.getTime(), timezone);
}

const FIRST_WALL_MS = Date.parse('0000-01-01T00:00:00Z');
const PAST_LAST_DATE_MS = Date.UTC(10000, 0, 1);

/** The YYYY-MM-DD of a wall-clock time (a local date and time written as if UTC), within 0000-01-01..9999-12-31. */
function dateOfWall(wall: number): string {
  if (wall < FIRST_WALL_MS) return '0000-01-01';
  if (wall >= PAST_LAST_DATE_MS) return '9999-12-31';
  return new Date(wall).toISOString().slice(0, 10);
}

const offsetFormatters = new Map<string, Intl.DateTimeFormat>();
const OFFSET = /^GMT(?:([+-])(\d{2}):(\d{2})(?::(\d{2}))?)?$/;

/** `timezone`'s offset from UTC at `ms`, in milliseconds (whole seconds: local mean times such as Madrid's -0:14:44 have seconds). */
function offsetAt(ms: number, timezone: string): number {
  let f = offsetFormatters.get(timezone);
  if (!f) offsetFormatters.set(timezone, (f = new Intl.DateTimeFormat('en-CA', { timeZone: timezone, timeZoneName: 'longOffset' })));
  // The offset as Intl writes it (GMT+05:45, GMT-04:42:45, GMT): unlike the local date and time, it reads the same in every year 0000..9999.
  const [, sign, h, m, s] = OFFSET.exec(f.formatToParts(new Date(ms)).find((p) => p.type === 'timeZoneName')!.value)!;
  return sign === undefined ? 0 : (sign === '-' ? -1 : 1) * ((+h * 60 + +m) * 60 + +(s ?? 0)) * 1000;
}

/**
 * The instant `timezone`'s clocks show `wall` (a local date and time written as if UTC, epoch milliseconds, whole
 * seconds). A time the clocks skip (a gap: America/Santiago's midnight in September, when 24:00 becomes 01:00) is
 * the instant they jumped, the first existing time after it; a time they show twice (the fall-back overlap) is the
 * earlier. Both are the first instant whose local time is at or after `wall`, so a day starts at the first instant
 * of that date, whatever the zone does at midnight.
 */
function instantOfWall(wall: number, timezone: string): number {
  // At most one transition falls within a day of `wall` (every offset is under 24 hours): the offsets on either side.
  const before = offsetAt(wall - DAY_MS, timezone);
  const after = offsetAt(wall + DAY_MS, timezone);
  const readings = [wall - before, wall - after].filter((ms) => ms + offsetAt(ms, timezone) === wall);
  if (readings.length > 0) return Math.min(...readings);
  // A gap: the clocks moved from `before` to `after` in (wall - after, wall - before]; the second they did, by bisection.
  let [lo, hi] = [wall - after, wall - before];
  while (hi - lo > 1000) {
    const mid = lo + Math.floor((hi - lo) / 2000) * 1000;
    if (offsetAt(mid, timezone) === before) lo = mid;
    else hi = mid;
  }
  return hi;
}

/** The instant of a wall-clock time (`hh:mm:ss`) of `date` in `timezone`; a skipped or repeated time as instantOfWall reads it. */
export function zonedInstant(date: string, time: string, timezone: string): Date {
  return new Date(instantOfWall(Date.parse(`${date}T${time}Z`), timezone));
}

/**
 * The last instant (whole seconds) whose local date in `timezone` is `date` or earlier, the second before the next
 * day starts: a day that ends in a fall-back overlap (Santiago's 24:00 becoming 23:00 in April) ends at the second
 * 23:59:59, one followed by a skipped midnight at the 23:59:59 before the jump. Points and challenges are available
 * through it (they end when the local date passes available_to). Bounded as boundedInstant (9999-12-31 west of UTC).
 */
export function endOfDay(date: string, timezone: string): Date {
  // From the wall-clock milliseconds, not addToLocalDate: the day after 9999-12-31 has no YYYY-MM-DD.
  return boundedInstant(instantOfWall(Date.parse(`${date}T00:00:00Z`) + DAY_MS, timezone) - 1000);
}

/**
 * A coupon's or reward's date-or-datetime bound as an instant: a datetime is the instant it names; a bare date
 * (YYYY-MM-DD) is the Company's day, as campaign and points dates are, so a start is its first instant
 * (zonedInstant) and an end its last second (endOfDay). Bounded as boundedInstant.
 */
export function boundInstant(value: string, end: boolean, timezone: string): Date {
  if (value.length !== 10) return new Date(value);
  return end ? endOfDay(value, timezone) : boundedInstant(zonedInstant(value, '00:00:00', timezone).getTime());
}

/** Past every zone's 9999-12-31 (offsets are under a day): a wall-clock time from here is past the last wire datetime. */
const PAST_LAST_WALL = Date.UTC(10000, 0, 2);

/**
 * The instant `timezone`'s clocks show `instant`'s wall-clock time moved by `move` (calendar arithmetic on the local
 * date and time written as if UTC): a time the clocks skip or show twice is read as zonedInstant reads it. A move
 * of nothing (0 days) is `instant` itself, even the later of an overlap's two times. Whole seconds, as the wire
 * writes them; bounded as boundedInstant (a count past 9999, or beyond JavaScript's dates, is the last instant).
 */
function sameWallTime(instant: Date, timezone: string, move: (wall: number) => number): Date {
  const ms = Math.floor(instant.getTime() / 1000) * 1000;
  const wall = ms + offsetAt(ms, timezone);
  const moved = move(wall);
  if (moved === wall) return boundedInstant(ms);
  return boundedInstant(moved < PAST_LAST_WALL ? instantOfWall(moved, timezone) : NaN);
}

/**
 * `days` days of the Company's calendar after `instant`: the same local wall-clock time `days` dates later, as
 * Temporal's ZonedDateTime.add({days}) counts them, so "valid 30 days" from 10:00 ends at 10:00 local across a DST
 * change (whole 24-hour days ended at 09:00 or 11:00).
 */
export function daysLater(instant: Date, days: number, timezone: string): Date {
  return sameWallTime(instant, timezone, (wall) => wall + days * DAY_MS);
}

/** 9999-12 as a count of months from 0000-01: the last month the engine's dates reach. */
const LAST_MONTH = 9999 * 12 + 11;

/**
 * `months` calendar months after `instant` in `timezone` (the month's last day when it has fewer: Jan 31 + 1 is Feb
 * 28/29), at the same local time; as daysLater. The month step is the engine's (addToLocalDate) on the wall-clock
 * time's date.
 */
export function monthsLater(instant: Date, months: number, timezone: string): Date {
  return sameWallTime(instant, timezone, (wall) => {
    const date = dateOfWall(wall);
    // From the date's midnight: a wall dateOfWall moved to 0000-01-01 or 9999-12-31 keeps its distance from it.
    const timeOfDay = wall - Date.parse(`${date}T00:00:00Z`);
    const month = Number(date.slice(0, 4)) * 12 + Number(date.slice(5, 7)) - 1 + months;
    if (month <= LAST_MONTH) return Date.parse(`${addToLocalDate(date, months, 'months')}T00:00:00Z`) + timeOfDay;
    // Past the engine's dates, which end at 9999-12-31: January 10000 (no day to clamp) still starts within the last
    // wire day east of UTC, as daysLater reaches it; a later month is past every wire datetime.
    return month === LAST_MONTH + 1 ? PAST_LAST_DATE_MS + (Number(date.slice(8)) - 1) * DAY_MS + timeOfDay : NaN;
  });
}
