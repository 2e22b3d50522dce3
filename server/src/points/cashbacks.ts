/**
 * GET /cashbacks: money per point at a location. Until locations carry their
 * own country and currency (issue 5), every location of the Company uses the
 * Company's point value and currency. GET /cashback_thresholds: the points a
 * customer must hold before they turn into cashback (the Company's
 * cashback_threshold) in the Company's country.
 */
import { Decimal } from 'decimal.js';
import { requireInt64 } from '../http/params.js';
import type { TallyRequest } from '../http/types.js';
import { pointsAsMoney } from './money.js';

export function cashback(req: TallyRequest) {
  requireInt64(req.query.get('location_id'), 'location_id');
  return { cashback: new Decimal(req.settings.point_value).toNumber(), currency: req.settings.currency };
}

export function cashbackThresholds(req: TallyRequest) {
  const { settings } = req;
  return {
    data: [
      {
        score: settings.cashback_threshold,
        country: settings.country,
        money_representation: pointsAsMoney(settings.cashback_threshold, settings),
        currency: settings.currency,
      },
    ],
  };
}
