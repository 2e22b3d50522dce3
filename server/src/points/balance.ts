/**
 * GET /customers/{value}/points (+ /scores): the customer's balance in points
 * and money, with the cashback threshold (the Company's cashback_threshold
 * setting) it must reach before points turn into cashback.
 */
import { cashbackDistance } from '@tally/engine';
import { wireInt } from '../http/wire.js';
import type { TallyRequest } from '../http/types.js';
import type { CustomerRecord } from '../customers/types.js';
import type { StoreEnv } from '../store/env.js';
import type { CompanySettings } from '../tenancy/types.js';
import { readBalance } from './ledger.js';
import { pointsAsMoney } from './money.js';
import { clockOf } from './request.js';
import type { Balance } from './types.js';

/** The customer block of redeem, transfer, trigger and custom-event answers. */
export function customerPoints(customer: CustomerRecord, balance: Balance) {
  return { id: wireInt(customer.id), code: customer.code ?? null, score: balance.score, score_available: balance.score_available };
}

export function balanceOfCustomer(env: StoreEnv, req: TallyRequest, customer: CustomerRecord): Balance {
  return readBalance(env, req.tenant, customer.id, clockOf(req));
}

export function pointsView(balance: Balance, customer: CustomerRecord, settings: CompanySettings) {
  const threshold = settings.cashback_threshold;
  const money = (points: number) => pointsAsMoney(points, settings);
  return {
    score: balance.score,
    score_as_money: money(balance.score),
    score_available: balance.score_available,
    score_available_as_money: money(balance.score_available),
    ...cashbackDistance(threshold, balance.score_available),
    score_threshold_cashback: threshold,
    money_threshold_cashback: money(threshold),
    score_threshold_cashback_as_money: money(threshold),
    currency: settings.currency,
    fraudulent: customer.profile.fraudulent === true,
  };
}
