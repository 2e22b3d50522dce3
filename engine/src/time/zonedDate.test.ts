import { describe, expect, it } from 'vitest';
import { addToLocalDate } from '../index.js';

describe('addToLocalDate', () => {
  it('counts days, weeks and years on the calendar, either way', () => {
    expect(addToLocalDate('2026-12-31', 1, 'days')).toBe('2027-01-01');
    expect(addToLocalDate('2026-03-01', -1, 'day')).toBe('2026-02-28');
    expect(addToLocalDate('2028-03-01', -1, 'days')).toBe('2028-02-29');
    expect(addToLocalDate('2026-12-28', 2, 'weeks')).toBe('2027-01-11');
    expect(addToLocalDate('2026-05-20', 0, 'days')).toBe('2026-05-20');
    expect(addToLocalDate('2028-02-29', 1, 'year')).toBe('2029-02-28');
  });

  it("moves by calendar months to the month's last day when it has fewer", () => {
    expect(addToLocalDate('2026-01-31', 1, 'months')).toBe('2026-02-28');
    expect(addToLocalDate('2028-01-31', 1, 'month')).toBe('2028-02-29');
    expect(addToLocalDate('2026-03-31', -1, 'months')).toBe('2026-02-28');
    expect(addToLocalDate('2028-03-31', -1, 'months')).toBe('2028-02-29');
    expect(addToLocalDate('2026-01-15', -13, 'months')).toBe('2024-12-15');
    expect(addToLocalDate('2026-11-30', 14, 'months')).toBe('2028-01-30');
  });

  it('reads years before 100 as those years: 0000 is a leap year, 0100 is not', () => {
    expect(addToLocalDate('0000-02-28', 1, 'days')).toBe('0000-02-29');
    expect(addToLocalDate('0000-03-31', -1, 'months')).toBe('0000-02-29');
    expect(addToLocalDate('0100-03-31', -1, 'months')).toBe('0100-02-28');
    expect(addToLocalDate('0000-02-29', 1, 'years')).toBe('0001-02-28');
  });

  it('stays within 0000-01-01..9999-12-31, for counts beyond JavaScript dates too', () => {
    expect(addToLocalDate('9999-12-31', 1, 'days')).toBe('9999-12-31');
    expect(addToLocalDate('9999-11-15', 2, 'months')).toBe('9999-12-31');
    expect(addToLocalDate('2026-06-15', 36500, 'years')).toBe('9999-12-31');
    expect(addToLocalDate('2026-06-15', 1e300, 'days')).toBe('9999-12-31');
    expect(addToLocalDate('0000-01-01', -1, 'days')).toBe('0000-01-01');
    expect(addToLocalDate('0000-03-15', -12, 'months')).toBe('0000-01-01');
    expect(addToLocalDate('2026-06-15', -2027, 'years')).toBe('0000-01-01');
    expect(addToLocalDate('2026-06-15', -1e300, 'weeks')).toBe('0000-01-01');
    // The ends themselves are dates like any other.
    expect(addToLocalDate('9999-10-31', 2, 'months')).toBe('9999-12-31');
    expect(addToLocalDate('0000-01-02', -1, 'days')).toBe('0000-01-01');
  });

  it('refuses a date not written YYYY-MM-DD', () => {
    expect(() => addToLocalDate('2026-6-15', 1, 'days')).toThrow('2026-6-15 is not a YYYY-MM-DD date');
    expect(() => addToLocalDate('+010000-01-01', 1, 'days')).toThrow();
  });
});
