import type { Decimal } from 'decimal.js';
import { inRange, invalidRequest, mustBe, mustBeAnyOf, mustBeIn } from '../errors.js';
import { asSafeInteger, MAX_POINTS, toDecimal } from '../money.js';
import { zoneFormatter } from '../time/zonedDate.js';
import type { Settings } from '../types.js';
import type { CompiledSettings } from './program.js';

const CURRENCY = /^[A-Z]{3}$/;

export function compileSettings(settings: Settings): CompiledSettings {
  if (settings === null || typeof settings !== 'object') throw invalidRequest('settings', mustBe('object'));
  if (typeof settings.currency !== 'string' || !CURRENCY.test(settings.currency)) {
    throw invalidRequest('settings.currency', 'must be an ISO 4217 code in capitals');
  }
  const pointValue = toDecimal(settings.point_value ?? '0.01', 'settings.point_value');
  if (pointValue.lte(0)) throw invalidRequest('settings.point_value', mustBeIn('number', { exclusiveMinimum: 0 }));
  const cashbackLineShare = toDecimal(settings.cashback_line_share ?? '0.5', 'settings.cashback_line_share');
  if (cashbackLineShare.lt(0) || cashbackLineShare.gt(1)) {
    throw invalidRequest('settings.cashback_line_share', mustBeIn('number', { minimum: 0, maximum: 1 }));
  }
  const cashbackCap = settings.cashback_cap ?? null;
  if (cashbackCap !== null && (!Number.isSafeInteger(cashbackCap) || cashbackCap < 0 || cashbackCap > MAX_POINTS)) {
    throw invalidRequest('settings.cashback_cap', mustBeAnyOf(inRange('integer', { minimum: 0, maximum: MAX_POINTS }), 'null'));
  }
  const threshold = settings.score_threshold_cashback ?? 0;
  if (!Number.isSafeInteger(threshold) || threshold < 0) {
    throw invalidRequest('settings.score_threshold_cashback', mustBeIn('integer', { minimum: 0 }));
  }
  return Object.freeze({
    currency: settings.currency,
    timezone: settings.timezone,
    formatter: zoneFormatter(settings.timezone, 'settings.timezone'),
    pointValue,
    pointValueCents: asSafeInteger(pointValue.times(100)),
    pointValueFraction: fraction(pointValue.times(100)),
    cashbackLineShare,
    cashbackCap,
    scoreThresholdCashback: threshold,
  });
}

function fraction(cents: Decimal): CompiledSettings['pointValueFraction'] {
  const [numerator, denominator] = cents.toFraction().map(asSafeInteger);
  return numerator === null || denominator === null ? null : [numerator, denominator];
}
