import { describe, expect, it } from 'vitest';
import { addToLocalDate } from '@tally/engine';
import { boundInstant, daysLater, endOfDay, localDate, monthsLater, zonedInstant } from './company-days.js';

// localDate remembers the last date per zone for the minute it holds (carts read it several times a request).
describe('localDate', () => {
  it('changes at local midnight, to the millisecond, in zones with quarter-hour offsets, asked in turn', () => {
    // Kathmandu is UTC+05:45: local midnight of 2026-11-23 is 2026-11-22T18:15:00Z.
    expect(localDate(new Date('2026-11-22T18:14:59.999Z'), 'Asia/Kathmandu')).toBe('2026-11-22');
    expect(localDate(new Date('2026-11-22T18:14:59.999Z'), 'UTC')).toBe('2026-11-22');
    expect(localDate(new Date('2026-11-22T18:15:00.000Z'), 'Asia/Kathmandu')).toBe('2026-11-23');
    expect(localDate(new Date('2026-11-22T18:15:30.000Z'), 'Asia/Kathmandu')).toBe('2026-11-23');
    expect(localDate(new Date('2026-11-22T18:14:30.000Z'), 'Asia/Kathmandu')).toBe('2026-11-22');
    expect(localDate(new Date('2026-11-22T23:59:59.999Z'), 'UTC')).toBe('2026-11-22');
    expect(localDate(new Date('2026-11-23T00:00:00.000Z'), 'UTC')).toBe('2026-11-23');
  });

  it('writes four-digit years before 1000 as the wire does, the year 0000 included', () => {
    // Intl writes these 999-06-01, 5-02-28 and 1-06-01 (1 BC).
    expect(localDate(new Date('0999-06-01T12:00:00Z'), 'UTC')).toBe('0999-06-01');
    expect(localDate(new Date('0999-12-31T23:59:59Z'), 'Asia/Kathmandu')).toBe('1000-01-01');
    // Madrid's local mean time was UTC-0:14:44: 00:10 UTC on March 1 of the year 5 is February 28 there.
    expect(localDate(new Date('0005-03-01T00:10:00Z'), 'Europe/Madrid')).toBe('0005-02-28');
    expect(localDate(new Date('0000-06-01T12:00:00Z'), 'UTC')).toBe('0000-06-01');
    expect(localDate(new Date('0000-02-29T12:00:00Z'), 'Asia/Tokyo')).toBe('0000-02-29');
  });

  it('keeps a local date beyond the wire\'s years at the nearest one it writes', () => {
    // The first instant the wire writes is still 1 BC (-0001-12-31) west of UTC; its last is 10000-01-01 east of it.
    expect(localDate(new Date('0000-01-01T00:00:00Z'), 'America/Mexico_City')).toBe('0000-01-01');
    expect(localDate(new Date('9999-12-31T23:59:59Z'), 'Pacific/Kiritimati')).toBe('9999-12-31');
    expect(localDate(new Date('9999-12-31T09:59:59Z'), 'Pacific/Kiritimati')).toBe('9999-12-31');
  });
});

// Transitions as Node 20's Intl (ICU's tz data) has them.
const at = (date: string, time: string, timezone: string) => zonedInstant(date, time, timezone).toISOString();
const end = (date: string, timezone: string) => endOfDay(date, timezone).toISOString();

describe('zonedInstant', () => {
  it('reads an existing time at its one offset (quarter hours, whole-day offsets far from UTC)', () => {
    expect(at('2026-11-23', '00:00:00', 'Asia/Kathmandu')).toBe('2026-11-22T18:15:00.000Z');
    expect(at('2026-03-01', '00:00:00', 'Pacific/Kiritimati')).toBe('2026-02-28T10:00:00.000Z');
    expect(at('2026-07-01', '12:00:00', 'America/Santiago')).toBe('2026-07-01T16:00:00.000Z');
  });

  it('reads a time the clocks skip as the instant they jumped to', () => {
    // America/Santiago: 24:00 of the first Saturday of September is 01:00 (-04:00 to -03:00); the whole first hour of Sunday is skipped.
    for (const sunday of ['2022-09-11', '2023-09-03', '2024-09-08', '2025-09-07', '2026-09-06']) {
      const jump = `${sunday}T04:00:00.000Z`;
      expect(at(sunday, '00:00:00', 'America/Santiago'), sunday).toBe(jump);
      expect(at(sunday, '00:30:00', 'America/Santiago'), sunday).toBe(jump);
      expect(at(sunday, '01:00:00', 'America/Santiago'), sunday).toBe(jump);
      expect(at(addToLocalDate(sunday, -1, 'days'), '23:59:59', 'America/Santiago'), sunday).toBe(`${sunday}T03:59:59.000Z`);
    }
    // America/Havana (-05:00 to -04:00) and Asia/Beirut (+02:00 to +03:00) skip midnight too.
    for (const day of ['2024-03-10', '2025-03-09', '2026-03-08']) expect(at(day, '00:00:00', 'America/Havana'), day).toBe(`${day}T05:00:00.000Z`);
    for (const day of ['2024-03-31', '2025-03-30', '2026-03-29']) expect(at(day, '00:00:00', 'Asia/Beirut'), day).toBe(`${addToLocalDate(day, -1, 'days')}T22:00:00.000Z`);
    // Europe/Madrid skips 02:00 to 02:59:59: 02:30 is 03:00 (the jump, not Temporal's 03:30).
    for (const day of ['2024-03-31', '2025-03-30', '2026-03-29']) expect(at(day, '02:30:00', 'Europe/Madrid'), day).toBe(`${day}T01:00:00.000Z`);
    // Pacific/Apia skipped all of 2011-12-30 (-10:00 to +14:00): the day is the instant 2011-12-31 starts.
    expect(at('2011-12-30', '00:00:00', 'Pacific/Apia')).toBe('2011-12-30T10:00:00.000Z');
    expect(at('2011-12-30', '12:00:00', 'Pacific/Apia')).toBe('2011-12-30T10:00:00.000Z');
    expect(at('2011-12-31', '00:00:00', 'Pacific/Apia')).toBe('2011-12-30T10:00:00.000Z');
  });

  it('reads a time the clocks show twice as the earlier instant', () => {
    // America/Santiago: 24:00 of the first Saturday of April is 23:00 again (-03:00 to -04:00).
    for (const saturday of ['2022-04-02', '2023-04-01', '2024-04-06', '2025-04-05', '2026-04-04']) {
      const sunday = addToLocalDate(saturday, 1, 'days');
      expect(at(saturday, '23:00:00', 'America/Santiago'), saturday).toBe(`${sunday}T02:00:00.000Z`);
      expect(at(saturday, '23:59:59', 'America/Santiago'), saturday).toBe(`${sunday}T02:59:59.000Z`);
      expect(at(sunday, '00:00:00', 'America/Santiago'), saturday).toBe(`${sunday}T04:00:00.000Z`);
    }
    // America/Havana: 01:00 is 00:00 again on the first Sunday of November (-04:00 to -05:00).
    for (const day of ['2024-11-03', '2025-11-02', '2026-11-01']) {
      expect(at(day, '00:00:00', 'America/Havana'), day).toBe(`${day}T04:00:00.000Z`);
      expect(at(day, '00:30:00', 'America/Havana'), day).toBe(`${day}T04:30:00.000Z`);
    }
    // Asia/Beirut: 24:00 is 23:00 again (+03:00 to +02:00).
    for (const day of ['2024-10-26', '2025-10-25', '2026-10-24']) expect(at(day, '23:30:00', 'Asia/Beirut'), day).toBe(`${day}T20:30:00.000Z`);
    for (const day of ['2024-10-27', '2025-10-26', '2026-10-25']) expect(at(day, '02:30:00', 'Europe/Madrid'), day).toBe(`${day}T00:30:00.000Z`);
  });

  it('reads any year 0000..9999, local mean times included', () => {
    expect(at('0005-03-01', '00:00:00', 'Europe/Madrid')).toBe('0005-03-01T00:14:44.000Z');
    expect(at('0000-01-01', '00:00:00', 'UTC')).toBe('0000-01-01T00:00:00.000Z');
    expect(at('9999-12-31', '23:59:59', 'Pacific/Kiritimati')).toBe('9999-12-31T09:59:59.000Z');
  });

  it("starts every day of 2024 to 2026 at the first second of its date in zones that move their clocks at midnight", () => {
    for (const timezone of ['America/Santiago', 'America/Havana', 'Asia/Beirut', 'America/Asuncion', 'Asia/Tehran', 'Europe/Madrid']) {
      for (let day = '2024-01-01'; day < '2027-01-01'; day = addToLocalDate(day, 1, 'days')) {
        const start = zonedInstant(day, '00:00:00', timezone).getTime();
        expect([localDate(new Date(start - 1000), timezone), localDate(new Date(start), timezone)], `${timezone} ${day}`).toEqual([addToLocalDate(day, -1, 'days'), day]);
      }
    }
  });
});

describe('endOfDay', () => {
  it('is the second before the next date starts: the later 23:59:59 of an overlap, the one before a skipped midnight', () => {
    expect(end('2026-11-22', 'Asia/Kathmandu')).toBe('2026-11-22T18:14:59.000Z');
    for (const saturday of ['2024-04-06', '2025-04-05', '2026-04-04']) expect(end(saturday, 'America/Santiago'), saturday).toBe(`${addToLocalDate(saturday, 1, 'days')}T03:59:59.000Z`);
    for (const saturday of ['2024-09-07', '2025-09-06', '2026-09-05']) expect(end(saturday, 'America/Santiago'), saturday).toBe(`${addToLocalDate(saturday, 1, 'days')}T03:59:59.000Z`);
    for (const day of ['2024-10-26', '2025-10-25', '2026-10-24']) expect(end(day, 'Asia/Beirut'), day).toBe(`${day}T21:59:59.000Z`);
    // Havana's fall-back hour is the next day's first: the day before ends once, at -04:00.
    for (const day of ['2024-11-02', '2025-11-01', '2026-10-31']) expect(end(day, 'America/Havana'), day).toBe(`${addToLocalDate(day, 1, 'days')}T03:59:59.000Z`);
    // A skipped day ends before it starts: its date is never shown, and points ending on it end with the day before.
    expect(end('2011-12-30', 'Pacific/Apia')).toBe('2011-12-30T09:59:59.000Z');
    expect(end('2011-12-29', 'Pacific/Apia')).toBe('2011-12-30T09:59:59.000Z');
  });

  it('ends 9999-12-31 at the last datetime the contract writes, west of UTC too', () => {
    expect(end('9999-12-31', 'America/Santiago')).toBe('9999-12-31T23:59:59.000Z');
    expect(end('9999-12-31', 'Pacific/Kiritimati')).toBe('9999-12-31T09:59:59.000Z');
  });
});

describe('boundInstant', () => {
  const bound = (value: string, end: boolean, timezone: string) => boundInstant(value, end, timezone).toISOString();

  it('reads a bare date as the local day, a start where the clocks jump past midnight, and a datetime as itself', () => {
    expect(bound('2026-03-01', false, 'Pacific/Kiritimati')).toBe('2026-02-28T10:00:00.000Z');
    expect(bound('2026-12-31', true, 'America/Mexico_City')).toBe('2027-01-01T05:59:59.000Z');
    expect(bound('2026-09-06', false, 'America/Santiago')).toBe('2026-09-06T04:00:00.000Z');
    expect(bound('2026-04-04', true, 'America/Santiago')).toBe('2026-04-05T03:59:59.000Z');
    expect(bound('2026-03-01T12:00:00Z', false, 'Pacific/Kiritimati')).toBe('2026-03-01T12:00:00.000Z');
    expect(bound('2026-03-01T12:00:00Z', true, 'Pacific/Kiritimati')).toBe('2026-03-01T12:00:00.000Z');
  });

  it('keeps the first and last days within the datetimes the contract writes', () => {
    // Tokyo's local mean time was UTC+09:18:59: its 0000-01-01 starts in the year before.
    expect(bound('0000-01-01', false, 'Asia/Tokyo')).toBe('0000-01-01T00:00:00.000Z');
    expect(bound('9999-12-31', true, 'America/Mexico_City')).toBe('9999-12-31T23:59:59.000Z');
  });
});

describe('daysLater and monthsLater', () => {
  const days = (instant: string, count: number, timezone: string) => daysLater(new Date(instant), count, timezone).toISOString();
  const months = (instant: string, count: number, timezone: string) => monthsLater(new Date(instant), count, timezone).toISOString();

  it('end at the local time they start, across a change of offset either way', () => {
    // Europe/Madrid: 11:00 at UTC+1 on March 20 to 11:00 at UTC+2 on April 19, and back in October.
    expect(days('2026-03-20T10:00:00Z', 30, 'Europe/Madrid')).toBe('2026-04-19T09:00:00.000Z');
    expect(days('2026-10-01T10:00:00Z', 30, 'Europe/Madrid')).toBe('2026-10-31T11:00:00.000Z');
    // America/New_York: 10:00 at UTC-5 on March 5 to 10:00 at UTC-4 on March 12 (the change on the 8th).
    expect(days('2026-03-05T15:00:00Z', 7, 'America/New_York')).toBe('2026-03-12T14:00:00.000Z');
    // No change crossed: whole days.
    expect(days('2026-06-01T10:00:00Z', 30, 'Europe/Madrid')).toBe('2026-07-01T10:00:00.000Z');
    expect(days('2026-03-20T10:00:00Z', 30, 'UTC')).toBe('2026-04-19T10:00:00.000Z');
    // Monthly: 10:00 at UTC-5 on March 1 to 10:00 at UTC-4 on April 1.
    expect(months('2026-03-01T15:00:00Z', 1, 'America/New_York')).toBe('2026-04-01T14:00:00.000Z');
  });

  it('count local dates, not UTC ones', () => {
    // 23:30 on January 30 at UTC-5 is January 31 in UTC: a month later is February 28 at 23:30 local (March 1 in
    // UTC), where a month of UTC dates ends on February 28 at 04:30 UTC, the 27th at 23:30 local.
    expect(months('2026-01-31T04:30:00Z', 1, 'America/New_York')).toBe('2026-03-01T04:30:00.000Z');
    expect(months('2026-01-31T04:30:00Z', 1, 'UTC')).toBe('2026-02-28T04:30:00.000Z');
    expect(months('2026-01-31T15:00:00Z', 1, 'America/New_York')).toBe('2026-02-28T15:00:00.000Z');
    expect(months('2028-01-31T15:00:00Z', 1, 'America/New_York')).toBe('2028-02-29T15:00:00.000Z');
    expect(months('2028-02-29T15:00:00Z', 12, 'America/New_York')).toBe('2029-02-28T15:00:00.000Z');
    // Kiritimati (UTC+14): 08:00 on March 1 local is February 28 in UTC; a day later is March 2 local.
    expect(days('2026-02-28T18:00:00Z', 1, 'Pacific/Kiritimati')).toBe('2026-03-01T18:00:00.000Z');
  });

  it('reach a local time the clocks skip where they jump, and one they show twice at the earlier instant', () => {
    // Europe/Madrid: 02:30 on March 29 is skipped (02:00 became 03:00): 03:00, zonedInstant's reading.
    expect(days('2026-02-27T01:30:00Z', 30, 'Europe/Madrid')).toBe('2026-03-29T01:00:00.000Z');
    expect(months('2026-02-28T01:30:00Z', 1, 'Europe/Madrid')).toBe('2026-03-28T01:30:00.000Z');
    // 02:30 on October 25 is shown twice (03:00 became 02:00): the first, at UTC+2.
    expect(days('2026-09-25T00:30:00Z', 30, 'Europe/Madrid')).toBe('2026-10-25T00:30:00.000Z');
    // From either of the two 02:30s, a day later is the one 02:30 of October 26; no days at all is the instant itself.
    expect(days('2026-10-25T00:30:00Z', 1, 'Europe/Madrid')).toBe('2026-10-26T01:30:00.000Z');
    expect(days('2026-10-25T01:30:00Z', 1, 'Europe/Madrid')).toBe('2026-10-26T01:30:00.000Z');
    expect(days('2026-10-25T01:30:00Z', 0, 'Europe/Madrid')).toBe('2026-10-25T01:30:00.000Z');
    // America/Santiago skips its midnight in September: 00:30 on September 6 is 01:00, the jump.
    expect(days('2026-08-07T04:30:00Z', 30, 'America/Santiago')).toBe('2026-09-06T04:00:00.000Z');
  });

  it('write whole seconds and end past 9999 at the last datetime the contract writes', () => {
    expect(days('2026-06-01T10:00:00.750Z', 1, 'Europe/Madrid')).toBe('2026-06-02T10:00:00.000Z');
    expect(days('9999-12-30T20:00:00Z', 1, 'Pacific/Kiritimati')).toBe('9999-12-31T20:00:00.000Z');
    expect(days('9999-12-30T20:00:00Z', 2, 'Pacific/Kiritimati')).toBe('9999-12-31T23:59:59.000Z');
    expect(days('2026-01-01T00:00:00Z', 36500 * 100, 'America/New_York')).toBe('9999-12-31T23:59:59.000Z');
    expect(days('2026-01-01T00:00:00Z', 1e300, 'America/New_York')).toBe('9999-12-31T23:59:59.000Z');
    expect(months('2026-01-01T00:00:00Z', 12 * 36500, 'America/New_York')).toBe('9999-12-31T23:59:59.000Z');
    expect(months('2026-01-01T00:00:00Z', 1e300, 'America/New_York')).toBe('9999-12-31T23:59:59.000Z');
    // Past 9999-12-31 is the last instant, not 9999-12-31 at the local time; reaching 9999-12-31 is that day's time.
    expect(months('2026-06-15T10:00:00Z', 12 * 36500, 'UTC')).toBe('9999-12-31T23:59:59.000Z');
    expect(months('9999-11-15T10:00:00Z', 2, 'Europe/Madrid')).toBe('9999-12-31T23:59:59.000Z');
    expect(months('9999-10-31T10:00:00Z', 2, 'Europe/Madrid')).toBe('9999-12-31T10:00:00.000Z');
    // Madrid's 10000-01-01 00:00 (UTC+1) is 9999-12-31T23:00Z, a wire datetime: a month after 9999-12-01 00:00 ends there.
    expect(months('9999-11-30T23:00:00Z', 1, 'Europe/Madrid')).toBe('9999-12-31T23:00:00.000Z');
    expect(days('9999-11-30T23:00:00Z', 31, 'Europe/Madrid')).toBe('9999-12-31T23:00:00.000Z');
    // Kiritimati's wall clock is in 10000 from 10:00 UTC on 9999-12-31: no month later has a date, no months is the instant.
    expect(months('9999-12-31T12:00:00Z', 1, 'Pacific/Kiritimati')).toBe('9999-12-31T23:59:59.000Z');
    expect(months('9999-12-31T12:00:00Z', 0, 'Pacific/Kiritimati')).toBe('9999-12-31T12:00:00.000Z');
  });
});
