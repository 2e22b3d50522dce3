/**
 * What a campaign read says of its budget (Tally extension, docs/campaigns.md): the budget counter of the current
 * period, keyed as carts key it (the engine's `periodKey` at the request's instant, in the Company's timezone), so
 * a back office reads the figure carts are refused by.
 */
import { periodKey, toMoney } from '@tally/engine';
import { Decimal } from 'decimal.js';
import type { CounterStore } from '../counters/store.js';
import type { CompanySettings, Tenant } from '../tenancy/types.js';
import type { CampaignRecord } from './types.js';

export interface BudgetSpend {
  budget_spent: number | null;
  budget_available: number | null;
}

export interface BudgetReader {
  tenant: Tenant;
  counters: CounterStore;
  settings: CompanySettings;
  /** The request's instant (wire datetime). */
  now: string;
}

/** Null for both without a budget; `budget_available` never below 0 (POST /discounts/redeem is not refused by the budget). */
export function budgetSpend(record: CampaignRecord, { tenant, counters, settings, now }: BudgetReader): BudgetSpend {
  const { budget_value: value, budget_period: period } = record.rule_params;
  if (value === undefined || value === null) return { budget_spent: null, budget_available: null };
  const spent = counters.budgetSpent(tenant, record.id, periodKey(period, now, settings.timezone));
  return { budget_spent: toMoney(spent), budget_available: Decimal.max(0, new Decimal(value).minus(new Decimal(spent).div(100))).toNumber() };
}
