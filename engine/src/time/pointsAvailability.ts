/**
 * available_from / available_to of earned points, from a points campaign's
 * activation and expiration settings, as local dates of the Company. A
 * datetime activation_date or expiration_date names the Company's day it
 * falls on (the formatter is the Company timezone's).
 */
import { invalidRequest, mustBeIn } from '../errors.js';
import { addToDate, DATE_UNITS, formatDate, isDateOnly, lastDayOfMonth, parseInstant, zonedDate, type DateUnit, type LocalDate, type ZonedDate } from './zonedDate.js';
export type PointsAvailability = (earned: ZonedDate, formatter: Intl.DateTimeFormat) => { from: string; to: string | null };

const ACTIVATION_FIXED = ['at_the_beginning_of_the_calendar_month', 'at_the_beginning_of_the_calendar_year'];
const EXPIRATION_FIXED = ['at_the_end_of_the_calendar_month', 'at_the_end_of_the_calendar_year'];

export function compilePointsAvailability(params: Record<string, unknown>): PointsAvailability {
  const activate = compileActivation(params);
  const expire = compileExpiration(params);
  return (earned, formatter) => {
    const from = activate(earned, formatter);
    return { from: formatDate(from.year, from.month, from.day), to: expire(from, formatter) };
  };
}

function compileActivation(params: Record<string, unknown>): (earned: ZonedDate, formatter: Intl.DateTimeFormat) => LocalDate {
  const type = params.activation_period_type;
  if (type === undefined || type === null || type === '') return (earned) => earned;
  if (type === 'relative') {
    const delay = nonNegativeInt(params.activation_delay ?? 0, 'rule_params.activation_delay');
    const unit = dateUnit(params.activation_delay_unit ?? 'days', 'rule_params.activation_delay_unit');
    return (earned) => addToDate(earned, delay, unit);
  }
  if (type === 'fixed') {
    const date = params.activation_date;
    if (isDateOnly(date)) {
      const [year, month, day] = date.split('-').map(Number);
      return () => ({ year, month, day });
    }
    const at = fixedInstant(date, 'rule_params.activation_date');
    if (at !== null) return (_earned, formatter) => zonedDate(at, formatter);
    const option = params.activation_fixed_option_selected;
    if (option === 'at_the_beginning_of_the_calendar_month') {
      // Points earned during a month become available on the first day of the next one.
      return (earned) => ({ ...addToDate({ ...earned, day: 1 }, 1, 'months'), day: 1 });
    }
    // Points earned during a year become available on the first day of the next one.
    if (option === 'at_the_beginning_of_the_calendar_year') return (earned) => ({ year: earned.year + 1, month: 1, day: 1 });
    throw invalidRequest(
      'rule_params.activation_fixed_option_selected',
      `must be one of ${ACTIVATION_FIXED.join(', ')} (or give activation_date)`,
    );
  }
  throw invalidRequest('rule_params.activation_period_type', 'must be relative or fixed');
}

function compileExpiration(params: Record<string, unknown>): (from: LocalDate, formatter: Intl.DateTimeFormat) => string | null {
  const type = params.expiration_period_type;
  if (type === undefined || type === null || type === '') return () => null;
  if (type === 'relative') {
    const amount = nonNegativeInt(params.availability_duration, 'rule_params.availability_duration');
    const unit = dateUnit(params.availability_duration_unit ?? 'days', 'rule_params.availability_duration_unit');
    const natural = params.availability_duration_natural === true;
    return (from) => {
      const end = addToDate(from, amount, unit);
      // "Natural" durations end with the calendar month (or year) they fall in.
      if (natural && unit.startsWith('year')) return formatDate(end.year, 12, 31);
      if (natural) return formatDate(end.year, end.month, lastDayOfMonth(end.year, end.month));
      return formatDate(end.year, end.month, end.day);
    };
  }
  if (type === 'fixed') {
    const date = params.expiration_date;
    if (isDateOnly(date)) return () => date;
    const at = fixedInstant(date, 'rule_params.expiration_date');
    if (at !== null) return (_from, formatter) => zonedDate(at, formatter).date;
    const option = params.fixed_option_selected;
    if (option === 'at_the_end_of_the_calendar_month') {
      return (from) => formatDate(from.year, from.month, lastDayOfMonth(from.year, from.month));
    }
    if (option === 'at_the_end_of_the_calendar_year') return (from) => formatDate(from.year, 12, 31);
    throw invalidRequest(
      'rule_params.fixed_option_selected',
      `must be one of ${EXPIRATION_FIXED.join(', ')} (or give expiration_date)`,
    );
  }
  throw invalidRequest('rule_params.expiration_period_type', 'must be relative or fixed');
}

/** A datetime's instant; null when none is given (a fixed option applies). */
function fixedInstant(value: unknown, field: string): number | null {
  if (value === undefined || value === null || value === '') return null;
  return parseInstant(value, field);
}

function nonNegativeInt(value: unknown, field: string): number {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return value;
  throw invalidRequest(field, mustBeIn('integer', { minimum: 0 }));
}

function dateUnit(value: unknown, field: string): DateUnit {
  if (DATE_UNITS.includes(value as DateUnit)) return value as DateUnit;
  throw invalidRequest(field, `must be one of ${DATE_UNITS.join(', ')}`);
}
