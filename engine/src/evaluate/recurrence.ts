/**
 * A campaign's recurrence against a local day of the Company: carts and
 * games (targeting) decide it here, and the server's vouchers and static
 * codes through `recurrenceOffDay`, so they all agree on the days it runs.
 */
import type { CompiledTargeting } from '../compile/program.js';
import { compileRecurrence } from '../compile/targeting.js';
import { parseInstant, zonedDate, zoneFormatter, type ZonedDate } from '../time/zonedDate.js';
import type { RuleParams } from '../types.js';

type Recurrence = NonNullable<CompiledTargeting['recurrence']>;

/** Whether the campaign runs on this local day: every day when daily, else on one of its weekdays (1 = Monday) or days of the month. */
export function runsOn(recurrence: Recurrence, day: Pick<ZonedDate, 'weekday' | 'day'>): boolean {
  if (recurrence.type === 'daily') return true;
  return recurrence.days.has(recurrence.type === 'weekly' ? day.weekday : day.day);
}

/** A day a weekly or monthly campaign does not run: its recurrence, the days it runs (ascending) and this one. */
export interface OffDay {
  type: 'weekly' | 'monthly';
  days: number[];
  today: number;
}

/**
 * The local day of `now` (ISO) in `timezone` when the campaign's recurrence
 * leaves it out; null when the campaign runs that day or has no recurrence.
 * The recurrence is read as the compiler reads it (invalid: invalid_request).
 */
export function recurrenceOffDay(params: RuleParams, now: string, timezone: string): OffDay | null {
  const recurrence = compileRecurrence(params);
  if (recurrence === null || recurrence.type === 'daily') return null;
  const day = zonedDate(parseInstant(now, 'now'), zoneFormatter(timezone, 'timezone'));
  if (runsOn(recurrence, day)) return null;
  return { type: recurrence.type, days: [...recurrence.days].sort((a, b) => a - b), today: recurrence.type === 'weekly' ? day.weekday : day.day };
}
