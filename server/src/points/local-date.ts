/** Calendar dates of the Company: points activate and expire by local date. */
import { wireDatetime } from '../http/wire.js';

const formatters = new Map<string, Intl.DateTimeFormat>();

/** The last date computed per time zone and the minute it holds for (carts ask several times a request). */
const lastDates = new Map<string, { minute: number; date: string }>();
/** Since 1973 every zone's offset is a whole number of minutes (Monrovia's -0:44:30 ended in 1972), so a date holds for the whole minute. */
const WHOLE_MINUTE_OFFSETS_FROM = Date.UTC(1973, 0, 1);

/** YYYY-MM-DD of `instant` in `timezone`. */
export function localDate(instant: Date, timezone: string): string {
  const ms = instant.getTime();
  const minute = Math.floor(ms / 60_000);
  const last = lastDates.get(timezone);
  if (last !== undefined && last.minute === minute && ms >= WHOLE_MINUTE_OFFSETS_FROM) return last.date;
  let f = formatters.get(timezone);
  if (!f) formatters.set(timezone, (f = new Intl.DateTimeFormat('en-CA', { timeZone: timezone, year: 'numeric', month: '2-digit', day: '2-digit' })));
  const date = f.format(instant);
  lastDates.set(timezone, { minute, date });
  return date;
}

/** `days` after a YYYY-MM-DD date. */
export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** The ISO instant (UTC, seconds) of a wall-clock time in `timezone`. */
export function zonedInstant(date: string, time: string, timezone: string): string {
  const asUtc = Date.parse(`${date}T${time}Z`);
  // The zone's offset at that moment, read back from Intl (two passes settle DST edges).
  let guess = asUtc;
  for (let i = 0; i < 2; i++) {
    const local = new Intl.DateTimeFormat('en-CA', {
      timeZone: timezone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23',
    }).formatToParts(new Date(guess));
    const part = (type: string) => local.find((p) => p.type === type)!.value;
    const shown = Date.parse(`${part('year')}-${part('month')}-${part('day')}T${part('hour')}:${part('minute')}:${part('second')}Z`);
    guess += asUtc - shown;
  }
  return wireDatetime(new Date(guess));
}
