import { describe, expect, it } from 'vitest';
import { endsBeforeStart } from '../index.js';

describe('endsBeforeStart', () => {
  it('compares two dates or two datetimes as they are', () => {
    expect(endsBeforeStart('2026-12-01', '2026-11-30', 'UTC')).toBe(true);
    expect(endsBeforeStart('2026-11-30', '2026-11-30', 'UTC')).toBe(false);
    expect(endsBeforeStart('2026-11-30T10:00:00Z', '2026-11-30T09:59:59Z', 'UTC')).toBe(true);
    expect(endsBeforeStart('2026-11-30T10:00:00Z', '2026-11-30T10:00:00Z', 'UTC')).toBe(false);
  });

  it('reads a date against a datetime as the whole local day of the Company', () => {
    // 2026-11-29T23:30Z is 00:30 on the 30th in Madrid: inside a window from the 30th.
    expect(endsBeforeStart('2026-11-30', '2026-11-29T23:30:00Z', 'Europe/Madrid')).toBe(false);
    expect(endsBeforeStart('2026-11-30', '2026-11-29T23:30:00Z', 'UTC')).toBe(true);
    // 2026-11-30T23:30Z is already December 1st in Madrid: after a window to the 30th.
    expect(endsBeforeStart('2026-11-30T23:30:00Z', '2026-11-30', 'Europe/Madrid')).toBe(true);
    expect(endsBeforeStart('2026-11-30T23:30:00Z', '2026-11-30', 'UTC')).toBe(false);
  });

  it('is false when a bound is missing', () => {
    expect(endsBeforeStart(null, '2026-11-30', 'UTC')).toBe(false);
    expect(endsBeforeStart('2026-11-30', undefined, 'UTC')).toBe(false);
  });
});
