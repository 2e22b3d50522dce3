/**
 * The customer as a tier program measures it. A program over a cart metric
 * (total_spent, carts, points_earned: e.g. points earned in the last 12
 * months) sees the metric summed over its last `period_months` months (12 by
 * default) in place of the attribute; a program over a custom attribute sees
 * the customer as stored. `standing` (S2's) then reads the attribute as usual.
 */
import { Decimal } from 'decimal.js';
import { isCartMetric, metricValue } from '../challenges/measure.js';
import { lastMonths } from '../challenges/period.js';
import { ChallengeStore } from '../challenges/store.js';
import type { CustomerRecord } from '../customers/types.js';
import type { StoreEnv } from '../store/env.js';
import type { Tenant } from '../tenancy/types.js';
import type { AddedMetrics } from '../challenges/types.js';
import { levelOf, standing, type Standing } from './standing.js';
import type { TierLevel, TierProgram } from './types.js';

export const DEFAULT_PERIOD_MONTHS = 12;

/** `today`: the local date the window ends on. */
export function measuredCustomer(env: StoreEnv, tenant: Tenant, program: TierProgram, customer: CustomerRecord, today: string): CustomerRecord {
  if (!isCartMetric(program.attribute)) return customer;
  const window = lastMonths(today, program.period_months ?? DEFAULT_PERIOD_MONTHS);
  const value = metricValue(new ChallengeStore(env), tenant, customer.id, program.attribute, window);
  return { ...customer, attributes: { ...customer.attributes, [program.attribute]: value } };
}

/**
 * The level the program measured before a write that added `added` to the customer's cart metrics, from the value
 * measured after it at `today` (no read): the same value without what the write added inside the window. A program
 * over a custom attribute is not moved by cart metrics.
 */
export function levelBefore(program: TierProgram, after: number | bigint, added: AddedMetrics, today: string): TierLevel | undefined {
  const window = lastMonths(today, program.period_months ?? DEFAULT_PERIOD_MONTHS);
  if (!isCartMetric(program.attribute) || added.day < window.from || added.day > window.to) return levelOf(program, after);
  const change = program.attribute === 'total_spent' ? new Decimal(added.metrics.total_spent_cents).dividedBy(100) : new Decimal(added.metrics[program.attribute]);
  return levelOf(program, new Decimal(after.toString()).minus(change));
}

export function programStanding(env: StoreEnv, tenant: Tenant, program: TierProgram, customer: CustomerRecord, today: string): Standing {
  return standing(program, measuredCustomer(env, tenant, program, customer, today));
}
