import { describe, expect, it } from 'vitest';
import { localDate } from './local-date.js';

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
});
