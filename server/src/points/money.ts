/** Money value of points at the Company's point value, rounded half up to the cent (decimal.js: a rate applies). */
import { Decimal } from 'decimal.js';
import type { CompanySettings } from '../tenancy/types.js';

export function pointsAsMoney(points: number, settings: CompanySettings): number {
  return new Decimal(points).times(settings.point_value).toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toNumber();
}
