/**
 * Test fixtures of the Company's calendar over HTTP, with the real clock: counts of days, weeks and months that end
 * past a DST change of the zone whatever today is, and an expectation that a validity ends at the local time it started.
 * Read with the platform's Intl, not with the module under test.
 */
import { expect } from 'vitest';

const DAY_MS = 86_400_000;

/** `instant` (a wire datetime) as `timezone`'s clocks show it: `YYYY-MM-DD hh:mm:ss`. */
export function wallClock(instant: string, timezone: string): string {
  return new Intl.DateTimeFormat('sv-SE', { timeZone: timezone, dateStyle: 'short', timeStyle: 'medium' }).format(new Date(instant));
}

/** `timezone`'s offset at `ms`, as Intl writes it (GMT+02:00). */
function offset(ms: number, timezone: string): string {
  return new Intl.DateTimeFormat('en-US', { timeZone: timezone, timeZoneName: 'longOffset' }).formatToParts(ms).find((p) => p.type === 'timeZoneName')!.value;
}

const plusDays = (date: string, days: number) => new Date(Date.parse(date) + days * DAY_MS).toISOString().slice(0, 10);

/** The same day `months` months after `date`, the month's last day when it has fewer. */
function plusMonths(date: string, months: number): string {
  const [y, m, d] = date.split('-').map(Number);
  const last = new Date(Date.UTC(y, m - 1 + months + 1, 0));
  return plusDays(last.toISOString().slice(0, 10), Math.min(d, last.getUTCDate()) - last.getUTCDate());
}

type Unit = 'days' | 'weeks' | 'months';

function later(date: string, count: number, unit: Unit): string {
  return unit === 'months' ? plusMonths(date, count) : plusDays(date, unit === 'weeks' ? 7 * count : count);
}

/**
 * The first count of `unit`s from `timezone`'s today, `atLeast` or more, that reaches a date whose offset differs
 * from today's and is the offset of the days either side too: a validity of that count crosses a change (whole
 * 24-hour days would end an hour off), and no change falls on its last day.
 */
export function countAcrossChange(timezone: string, unit: Unit, atLeast: number): number {
  const noon = (date: string) => offset(Date.parse(`${date}T12:00:00Z`), timezone);
  const today = wallClock(new Date().toISOString(), timezone).slice(0, 10);
  for (let n = atLeast; ; n++) {
    const end = later(today, n, unit);
    const around = [plusDays(end, -1), end, plusDays(end, 1)].map(noon);
    if (around.every((o) => o === around[0]) && around[0] !== noon(today)) return n;
  }
}

/** `end` is `count` `unit`s of `timezone`'s calendar after `start`, at the same local wall-clock time. */
export function expectLater(start: string, end: string, count: number, unit: Unit, timezone: string): void {
  const [date, time] = wallClock(start, timezone).split(' ');
  expect(wallClock(end, timezone), `${count} ${unit} after ${start} in ${timezone}`).toBe(`${later(date, count, unit)} ${time}`);
}
