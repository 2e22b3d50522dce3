/**
 * A stored instant win → the contract's Instant win campaign read object,
 * with remaining_participations when a customer is identified and, per
 * prize, the stock still available.
 */
import { periodKey } from '@tally/engine';
import { prizeStockLeft, type CounterStore } from '../counters/store.js';
import { commonCampaignFields } from '../games/view.js';
import { wireInt } from '../http/wire.js';
import type { CompanySettings, Tenant } from '../tenancy/types.js';
import type { InstantWinRecord } from './types.js';

export interface InstantWinViewOptions {
  tenant: Tenant;
  language: string | undefined;
  settings: CompanySettings;
  counters: CounterStore;
  now: Date;
  /** The identified customer (remaining_participations). */
  customerId?: string;
  /** The customer's voucher of a targeted instant win (its delivery). */
  loyaltyRuleHistoryId?: string;
}

export function instantWinView(record: InstantWinRecord, options: InstantWinViewOptions): Record<string, unknown> {
  const { tenant, counters } = options;
  return {
    ...commonCampaignFields(record, options),
    ...(options.customerId === undefined ? {} : { remaining_participations: remainingParticipations(record, options, options.customerId) }),
    instant_win: {
      instant_win_prizes: record.prizes.map((prize) => ({
        id: wireInt(prize.id),
        name: prize.name,
        description: prize.description,
        outcome: prize.outcome === null
          ? { promotion_type: '', promotion_id: null }
          : { promotion_type: prize.outcome.promotion_type, promotion_id: wireInt(prize.outcome.promotion_id) },
        weight: Number(prize.weight),
        stock: prize.stock,
        available_stock: prizeStockLeft(counters, tenant, record.id, prize),
        stock_management_strategy: prize.stock_management_strategy,
      })),
    },
  };
}

/** once_limit minus this period's participations; -1 when the campaign has no limit. */
function remainingParticipations(record: InstantWinRecord, options: InstantWinViewOptions, customerId: string): number {
  const limit = record.rule_params.once_limit;
  if (typeof limit !== 'number') return -1;
  const period = typeof record.rule_params.once === 'string' ? record.rule_params.once : 'always';
  const key = periodKey(period, options.now.toISOString(), options.settings.timezone);
  return Math.max(0, limit - options.counters.uses(options.tenant, record.id, key, customerId));
}
