/**
 * A customer's value of a challenge's attribute: a cart metric summed over
 * the measured window (money in exact decimals), or a numeric custom
 * attribute's current value; and the level that value reaches.
 */
import { Decimal } from 'decimal.js';
import type { CustomerRecord } from '../customers/types.js';
import type { Tenant } from '../tenancy/types.js';
import { measuredWindow, type Window } from './period.js';
import type { ChallengeStore } from './store.js';
import { CART_METRICS, type CartMetric, type ChallengeLevel, type ChallengeRecord } from './types.js';

export function isCartMetric(attribute: string): attribute is CartMetric {
  return (CART_METRICS as readonly string[]).includes(attribute);
}

export function attributeValue(store: ChallengeStore, tenant: Tenant, challenge: ChallengeRecord, customer: CustomerRecord, today: string): number | bigint {
  if (!isCartMetric(challenge.attribute)) {
    const value = customer.attributes[challenge.attribute];
    // An integer beyond 2^53 is a bigint (kept with every digit): compared with the thresholds exactly.
    return (typeof value === 'number' && Number.isFinite(value)) || typeof value === 'bigint' ? value : 0;
  }
  return metricValue(store, tenant, customer.id, challenge.attribute, measuredWindow(challenge, today));
}

/** A cart metric of the customer summed over the window (money in currency units, exact). */
export function metricValue(store: ChallengeStore, tenant: Tenant, customerId: string, metric: CartMetric, window: Window): number {
  if (window.from > window.to) return 0;
  const metrics = store.metrics(tenant, customerId, window.from, window.to);
  if (metric === 'total_spent') return new Decimal(metrics.total_spent_cents).dividedBy(100).toNumber();
  return metrics[metric];
}

/** The highest level whose threshold the value reaches (undefined below the first). */
export function reachedLevel(challenge: ChallengeRecord, value: number | bigint): ChallengeLevel | undefined {
  return [...challenge.structure].sort((a, b) => a.threshold - b.threshold).filter((l) => l.threshold <= value).pop();
}
