/**
 * GET /customers/{value}/points_expiring (+ /scores_expiring): available
 * points by the day they expire, from today up to `date`. The search covers
 * at most 60 days: an omitted or past date becomes today + 60, a later one is
 * capped there. expiration_date is the last instant the points are available
 * (the end of their available_to day in the Company's timezone, endOfDay).
 */
import { addToLocalDate } from '@tally/engine';
import { AssociationStore } from '../associations/store.js';
import { optionalEnum, optionalWire } from '../http/params.js';
import type { TallyRequest } from '../http/types.js';
import { wireDatetime } from '../http/wire.js';
import { findAccountHolder, findCustomer } from '../customers/lookup.js';
import type { CustomerStore } from '../customers/store.js';
import type { StoreEnv } from '../store/env.js';
import { readExpiring } from './ledger.js';
import { endOfDay, localDate } from '../calendar/company-days.js';
import { pointsAsMoney } from './money.js';
import { clockOf } from './request.js';

export const EXPIRING_WINDOW_DAYS = 60;

export function expiringPoints(env: StoreEnv, customers: CustomerStore, req: TallyRequest) {
  const by = optionalEnum(req.query.get('search_param'), 'search_param', ['id', 'code', 'associate_id'] as const) ?? 'id';
  const value = req.params.value ?? '';
  // associate_id: a customer merged into another; its points are now the other's (the end of merged_to).
  const customer = by === 'associate_id' ? findAccountHolder(customers, new AssociationStore(env), req.tenant, 'id', value, 'value') : findCustomer(customers, req.tenant, by, value, 'value');
  const today = localDate(req.now, req.settings.timezone);
  const limit = addToLocalDate(today, EXPIRING_WINDOW_DAYS, 'days');
  const asked = optionalWire('date', req.query.get('date'), 'date');
  const until = asked === undefined || asked < today || asked > limit ? limit : asked;
  const byDay = new Map<string, number>();
  for (const b of readExpiring(env, req.tenant, customer.id, clockOf(req), until)) byDay.set(b.to!, (byDay.get(b.to!) ?? 0) + b.remaining);
  const days = [...byDay.keys()].sort();
  return {
    data: days.map((day) => ({
      score_available: byDay.get(day)!,
      score_available_as_money: pointsAsMoney(byDay.get(day)!, req.settings),
      currency: req.settings.currency,
      expiration_date: wireDatetime(endOfDay(day, req.settings.timezone)),
    })),
  };
}
