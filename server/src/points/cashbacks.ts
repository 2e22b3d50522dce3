/**
 * GET /cashbacks: money per point at a location: the Company's point value,
 * in the Company's currency. Tally keeps no exchange rates, so a location
 * whose country uses another currency has no points exchange
 * (exchange_not_found), like an unknown location. GET /cashback_thresholds:
 * the points a customer must hold before they turn into cashback (the
 * Company's cashback_threshold) in the Company's country.
 */
import { TallyError } from '@tally/engine';
import { Decimal } from 'decimal.js';
import { requireInt64 } from '../http/params.js';
import type { TallyRequest } from '../http/types.js';
import type { LocationStore } from '../locations/store.js';
import { pointsAsMoney } from './money.js';

export function cashback(locations: LocationStore, req: TallyRequest) {
  const id = requireInt64(req.query.get('location_id'), 'location_id');
  const location = locations.locationById(req.tenant, id);
  if (!location) throw new TallyError('exchange_not_found', `location_id: no location ${id}`, 'location_id');
  if (location.currency !== req.settings.currency) {
    throw new TallyError('exchange_not_found', `location_id: location ${id} uses ${location.currency}; points are valued in ${req.settings.currency}`, 'location_id');
  }
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
