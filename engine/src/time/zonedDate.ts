/**
 * Instants and calendar dates in the Company's timezone, with the
 * platform's Intl (no Node import, no clock).
 */
import { invalidRequest } from '../errors.js';

export interface ZonedDate {
  year: number;
  month: number;
  day: number;
  hour: number;
  /** 1 = Monday .. 7 = Sunday. */
  weekday: number;
  /** 'YYYY-MM-DD' in the timezone. */
  date: string;
}

const INSTANT = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)(Z|[+-]\d{2}:?\d{2})$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Milliseconds of an ISO 8601 datetime (Z or a UTC offset such as -0500). */
export function parseInstant(value: unknown, field: string): number {
  const match = typeof value === 'string' ? INSTANT.exec(value) : null;
  if (!match) throw invalidRequest(field, 'must be an ISO 8601 datetime');
  const zone = match[3].length === 5 ? `${match[3].slice(0, 3)}:${match[3].slice(3)}` : match[3];
  const ms = Date.parse(`${match[1]}T${match[2]}${zone}`);
  if (Number.isNaN(ms)) throw invalidRequest(field, 'must be a valid datetime');
  return ms;
}

export function isDateOnly(value: unknown): value is string {
  return typeof value === 'string' && DATE.test(value) && !Number.isNaN(Date.parse(value));
}

/** Formatters by timezone: constructing one costs tens of microseconds, so each is built once. */
const formatters = new Map<string, Intl.DateTimeFormat>();

/** The formatter of a timezone (compileCampaigns and periodKey share them). */
export function zoneFormatter(timezone: unknown, field: string): Intl.DateTimeFormat {
  if (typeof timezone !== 'string' || timezone.length === 0) throw invalidRequest(field, 'must be an IANA timezone');
  let formatter = formatters.get(timezone);
  if (formatter) return formatter;
  try {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: timezone,
      // Intl numbers years of the era: the year 0000 is 1 BC. The era says which.
      era: 'short',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      hourCycle: 'h23',
    });
  } catch {
    throw invalidRequest(field, `unknown timezone '${timezone}'`);
  }
  formatters.set(timezone, formatter);
  return formatter;
}

/**
 * Since 1973 UTC offsets are multiples of 15 minutes and change on 15-minute
 * boundaries (Monrovia's -0:44:30 ended in 1972; local mean times, such as
 * Tokyo's +9:18:59, before), so every instant of a 15-minute slot has the same
 * local date, hour and weekday: a small memo per formatter saves formatToParts
 * on the hot path. An earlier instant is read as it is.
 */
const SLOT_MS = 15 * 60 * 1000;
const WHOLE_SLOT_OFFSETS_FROM = Date.UTC(1973, 0, 1);
const MEMO_SIZE = 256;
const memos = new WeakMap<Intl.DateTimeFormat, Map<number, ZonedDate>>();

export function zonedDate(ms: number, formatter: Intl.DateTimeFormat): ZonedDate {
  if (ms < WHOLE_SLOT_OFFSETS_FROM) return Object.freeze(computeZonedDate(ms, formatter));
  const slot = Math.floor(ms / SLOT_MS);
  let memo = memos.get(formatter);
  if (!memo) memos.set(formatter, (memo = new Map()));
  let found = memo.get(slot);
  if (!found) {
    if (memo.size >= MEMO_SIZE) memo.clear();
    found = Object.freeze(computeZonedDate(slot * SLOT_MS, formatter));
    memo.set(slot, found);
  }
  return found;
}

/** The first and last local times the wire's dates hold (0000-01-01..9999-12-31): a local time beyond is the nearest. */
const FIRST_LOCAL = { year: 0, month: 1, day: 1, hour: 0 };
const LAST_LOCAL = { year: 9999, month: 12, day: 31, hour: 23 };

function computeZonedDate(ms: number, formatter: Intl.DateTimeFormat): ZonedDate {
  let year = 0;
  let month = 0;
  let day = 0;
  let hour = 0;
  let era = '';
  for (const part of formatter.formatToParts(ms)) {
    if (part.type === 'year') year = Number(part.value);
    else if (part.type === 'month') month = Number(part.value);
    else if (part.type === 'day') day = Number(part.value);
    else if (part.type === 'hour') hour = Number(part.value);
    else if (part.type === 'era') era = part.value;
  }
  // 1 BC is the year 0000, 2 BC the year -0001.
  if (era === 'BC') year = 1 - year;
  const local = year < 0 ? FIRST_LOCAL : year > 9999 ? LAST_LOCAL : { year, month, day, hour };
  const weekday = ((new Date(utcDay(local.year, local.month - 1, local.day)).getUTCDay() + 6) % 7) + 1;
  return { ...local, weekday, date: formatDate(local.year, local.month, local.day) };
}

/** Date.UTC for every year: Date.UTC reads the years 0..99 as 1900..1999. */
function utcDay(year: number, monthIndex: number, day: number): number {
  const date = new Date(0);
  date.setUTCFullYear(year, monthIndex, day);
  return date.getTime();
}

export function formatDate(year: number, month: number, day: number): string {
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

export interface LocalDate {
  year: number;
  month: number;
  day: number;
}

/** The first and last dates a wire date can write (years 0000..9999). */
const FIRST_DATE: LocalDate = Object.freeze({ year: 0, month: 1, day: 1 });
const LAST_DATE: LocalDate = Object.freeze({ year: 9999, month: 12, day: 31 });

/**
 * Calendar arithmetic on a local date (month overflow clamps to the month's
 * last day), within 0000-01-01..9999-12-31: a result after 9999-12-31 is
 * 9999-12-31 and one before 0000-01-01 is 0000-01-01. Counts are bounded on
 * write, but a campaign stored before may hold any (beyond JavaScript's
 * dates too, where the arithmetic gives NaN: the end the amount moves to).
 */
export function addToDate(date: LocalDate, amount: number, unit: DateUnit): LocalDate {
  const result = addUnbounded(date, amount, unit);
  if (result.year < FIRST_DATE.year || (Number.isNaN(result.year) && amount < 0)) return FIRST_DATE;
  return result.year <= LAST_DATE.year ? result : LAST_DATE;
}

/**
 * addToDate on a YYYY-MM-DD date, the form the server's Company calendar
 * keeps (a voucher's and points' dates, a challenge's window): `amount`
 * units after `date` (before it when negative), the month's last day when it
 * has fewer (Jan 31 + 1 month is Feb 28/29), within 0000-01-01..9999-12-31
 * (a result beyond either end is that end).
 */
export function addToLocalDate(date: string, amount: number, unit: DateUnit): string {
  if (!DATE.test(date)) throw new Error(`${date} is not a YYYY-MM-DD date`);
  const [year, month, day] = date.split('-').map(Number);
  const result = addToDate({ year, month, day }, amount, unit);
  return formatDate(result.year, result.month, result.day);
}

function addUnbounded({ year, month, day }: LocalDate, amount: number, unit: DateUnit): LocalDate {
  switch (unit) {
    case 'days':
    case 'day':
      return fromUtc(utcDay(year, month - 1, day + amount));
    case 'weeks':
    case 'week':
      return fromUtc(utcDay(year, month - 1, day + 7 * amount));
    case 'months':
    case 'month':
      return clampDay(year, month + amount, day);
    case 'years':
    case 'year':
      return clampDay(year + amount, month, day);
  }
}

export const DATE_UNITS = ['day', 'days', 'week', 'weeks', 'month', 'months', 'year', 'years'] as const;
export type DateUnit = (typeof DATE_UNITS)[number];

export function lastDayOfMonth(year: number, month: number): number {
  return new Date(utcDay(year, month, 0)).getUTCDate();
}

function clampDay(year: number, month: number, day: number): LocalDate {
  const first = fromUtc(utcDay(year, month - 1, 1));
  return { ...first, day: Math.min(day, lastDayOfMonth(first.year, first.month)) };
}

function fromUtc(ms: number): LocalDate {
  const d = new Date(ms);
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}
