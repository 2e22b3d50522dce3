import { describe, expect, it } from 'vitest';
import { recurrenceOffDay } from '../index.js';

describe('recurrenceOffDay: the local day a weekly or monthly campaign does not run', () => {
  // 2026-11-30T23:30:00Z is Monday 30 in UTC, Tuesday 1 December in Madrid.
  const now = '2026-11-30T23:30:00Z';

  it('reads the weekday and the day of the month in the Company timezone', () => {
    expect(recurrenceOffDay({ recurrence_type: 'weekly', recurrence_days: [5, 2] }, now, 'UTC')).toEqual({ type: 'weekly', days: [2, 5], today: 1 });
    expect(recurrenceOffDay({ recurrence_type: 'weekly', recurrence_days: [5, 2] }, now, 'Europe/Madrid')).toBeNull();
    expect(recurrenceOffDay({ recurrence_type: 'monthly', recurrence_days: [30] }, now, 'UTC')).toBeNull();
    expect(recurrenceOffDay({ recurrence_type: 'monthly', recurrence_days: [30] }, now, 'Europe/Madrid')).toEqual({ type: 'monthly', days: [30], today: 1 });
  });

  it('never leaves out a day without a recurrence or with a daily one', () => {
    expect(recurrenceOffDay({}, now, 'UTC')).toBeNull();
    expect(recurrenceOffDay({ recurrence_type: 'daily' }, now, 'UTC')).toBeNull();
  });
});
