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
 * UTC offsets are multiples of 15 minutes and change on 15-minute boundaries,
 * so every instant of a 15-minute slot has the same local date, hour and
 * weekday: a small memo per formatter saves formatToParts on the hot path.
 */
const SLOT_MS = 15 * 60 * 1000;
const MEMO_SIZE = 256;
const memos = new WeakMap<Intl.DateTimeFormat, Map<number, ZonedDate>>();

export function zonedDate(ms: number, formatter: Intl.DateTimeFormat): ZonedDate {
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

function computeZonedDate(ms: number, formatter: Intl.DateTimeFormat): ZonedDate {
  let year = 0;
  let month = 0;
  let day = 0;
  let hour = 0;
  for (const part of formatter.formatToParts(ms)) {
    if (part.type === 'year') year = Number(part.value);
    else if (part.type === 'month') month = Number(part.value);
    else if (part.type === 'day') day = Number(part.value);
    else if (part.type === 'hour') hour = Number(part.value);
  }
  const weekday = ((new Date(Date.UTC(year, month - 1, day)).getUTCDay() + 6) % 7) + 1;
  return { year, month, day, hour, weekday, date: formatDate(year, month, day) };
}

export function formatDate(year: number, month: number, day: number): string {
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

export interface LocalDate {
  year: number;
  month: number;
  day: number;
}

/** The last date a wire date can write (years 0000..9999). */
const LAST_DATE: LocalDate = Object.freeze({ year: 9999, month: 12, day: 31 });

/**
 * Calendar arithmetic on a local date (month overflow clamps to the month's
 * last day). A result after 9999-12-31 is 9999-12-31: counts are bounded on
 * write, but a campaign stored before may hold any (beyond JavaScript's
 * dates too, where the arithmetic gives NaN).
 */
export function addToDate(date: LocalDate, amount: number, unit: string): LocalDate {
  const result = addUnbounded(date, amount, unit);
  return result.year <= LAST_DATE.year ? result : LAST_DATE;
}

function addUnbounded({ year, month, day }: LocalDate, amount: number, unit: string): LocalDate {
  switch (unit) {
    case 'days':
    case 'day':
      return fromUtc(Date.UTC(year, month - 1, day + amount));
    case 'weeks':
    case 'week':
      return fromUtc(Date.UTC(year, month - 1, day + 7 * amount));
    case 'months':
    case 'month':
      return clampDay(year, month + amount, day);
    case 'years':
    case 'year':
      return clampDay(year + amount, month, day);
    default:
      throw new Error(`unit ${unit} not compiled`);
  }
}

export const DATE_UNITS: readonly string[] = ['day', 'days', 'week', 'weeks', 'month', 'months', 'year', 'years'];

export function lastDayOfMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

function clampDay(year: number, month: number, day: number): LocalDate {
  const first = fromUtc(Date.UTC(year, month - 1, 1));
  return { ...first, day: Math.min(day, lastDayOfMonth(first.year, first.month)) };
}

function fromUtc(ms: number): LocalDate {
  const d = new Date(ms);
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}
