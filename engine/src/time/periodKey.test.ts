import { describe, expect, it } from 'vitest';
import { cart, context, discount, evaluate, line } from '../../test-support/scenario.js';
import { periodKey } from '../index.js';

describe('the local date of an instant in the early and late years the wire writes', () => {
  it('reads the year 0000 as 0000 (Intl numbers it 1 BC), east and west of UTC, and 0001 as 0001', () => {
    // Tokyo's local mean time is UTC+9:18:59, New York's UTC-4:56:02.
    expect(periodKey('num_day', '0000-06-01T12:00:00Z', 'Asia/Tokyo')).toBe('0000-06-01');
    expect(periodKey('num_year', '0000-06-01T12:00:00Z', 'Asia/Tokyo')).toBe('0000');
    expect(periodKey('num_day', '0000-06-01T02:00:00Z', 'America/New_York')).toBe('0000-05-31');
    expect(periodKey('num_month', '0000-06-01T02:00:00Z', 'America/New_York')).toBe('0000-05');
    expect(periodKey('num_day', '0000-12-31T20:00:00Z', 'Asia/Tokyo')).toBe('0001-01-01');
  });

  it('writes four-digit years before 1000', () => {
    expect(periodKey('num_day', '0999-06-01T02:00:00Z', 'America/New_York')).toBe('0999-05-31');
    expect(periodKey('num_month', '0999-12-31T20:00:00Z', 'Asia/Tokyo')).toBe('1000-01');
  });

  it("keeps a local date beyond the wire's years at the nearest one it writes", () => {
    // 03:00 UTC on 0000-01-01 is still the year before in New York; 20:00 UTC on 9999-12-31 is 10000 in Kiritimati (UTC+14).
    expect(periodKey('num_day', '0000-01-01T03:00:00Z', 'America/New_York')).toBe('0000-01-01');
    expect(periodKey('num_day', '9999-12-31T20:00:00Z', 'Pacific/Kiritimati')).toBe('9999-12-31');
  });

  it('changes at local midnight under an offset of seconds (a local mean time), not at a quarter hour', () => {
    // Tokyo's midnight of 0000-06-02 was 14:41:01 UTC.
    expect(periodKey('num_day', '0000-06-01T14:41:00Z', 'Asia/Tokyo')).toBe('0000-06-01');
    expect(periodKey('num_day', '0000-06-01T14:42:00Z', 'Asia/Tokyo')).toBe('0000-06-02');
  });

  it("gives a cart back-dated to the year 0000 that date's weekday (Date.UTC reads the years 0..99 as 1900..1999)", () => {
    // 0000-06-01 was a Thursday (1900-06-01 a Friday).
    const thursdays = discount(1, { recurrence_type: 'weekly', recurrence_days: [4], rule_effects: [{ type: 'percentage', value: 10 }] });
    const created = '0000-06-01T12:00:00Z';
    const outcome = evaluate([thursdays], cart([line(1, 10, 10)], { creation_date: created }), context({ now: created }), { currency: 'EUR', timezone: 'UTC' });
    expect(outcome.response.effects).toHaveLength(1);
  });
});
