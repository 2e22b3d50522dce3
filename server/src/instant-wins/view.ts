/**
 * A stored instant win → the contract's Instant win campaign read object,
 * with remaining_participations when a customer is identified and, per
 * prize, the stock still available.
 */
import { DEFAULT_ONCE_LIMIT, periodKey } from '@tally/engine';
import { prizeStockLeft, type CounterStore } from '../counters/store.js';
import { commonCampaignFields, singleReadRules } from '../games/view.js';
import { wireInt } from '../http/wire.js';
import type { CompanySettings, Tenant } from '../tenancy/types.js';
import { instantWinCompileError } from './record.js';
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
  /** A single read adds the compile error. */
  single: boolean;
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
    ...(options.single ? { ...singleReadRules(record.rule_params), compile_error: instantWinCompileError(record, options.settings) } : {}),
  };
}

/** The per-customer limit minus this period's participations; -1 when the campaign has no limit. */
function remainingParticipations(record: InstantWinRecord, options: InstantWinViewOptions, customerId: string): number {
  const { once, once_limit: onceLimit } = record.rule_params;
  const period = typeof once === 'string' && once !== '' ? once : null;
  // A period without once_limit is limited as the engine limits it (once per period), not unlimited.
  const limit = typeof onceLimit === 'number' ? onceLimit : period === null ? null : DEFAULT_ONCE_LIMIT;
  if (limit === null) return -1;
  const key = periodKey(period, options.now.toISOString(), options.settings.timezone);
  return Math.max(0, limit - options.counters.uses(options.tenant, record.id, key, customerId));
}
