/**
 * Per-API-key rate limits (contract, Limits): a token bucket per key and
 * budget, refilled continuously at the budget's requests per second with a
 * one-second burst. A budget is the key's own setting, else its environment's
 * setting, else the contract's default.
 */
import type { OperationSpec } from './operations.js';
import type { ApiKeyView, CompanySettings, RateLimitName } from '../tenancy/types.js';

export const DEFAULT_RATE_LIMITS: Record<RateLimitName, number> = {
  tier_1: 60,
  tier_2: 25,
  tier_3: 10,
  discounts_trigger: 50,
};

interface Bucket {
  tokens: number;
  at: number;
}

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();

  /** `clock` in milliseconds (monotonic). */
  constructor(private readonly clock: () => number = () => performance.now()) {}

  /**
   * Takes one request from every budget the operation counts against.
   * Returns undefined when allowed, else the seconds to wait (Retry-After).
   */
  take(key: ApiKeyView, settings: CompanySettings, spec: OperationSpec): number | undefined {
    const names: RateLimitName[] = spec.extraLimit ? [spec.tier, spec.extraLimit] : [spec.tier];
    const now = this.clock();
    const buckets = names.map((name) => {
      const limit = key.rate_limits[name] ?? settings.rate_limits[name] ?? DEFAULT_RATE_LIMITS[name];
      return { limit, bucket: this.refill(`${key.key}\u0000${name}`, limit, now) };
    });
    const short = buckets.filter(({ bucket }) => bucket.tokens < 1);
    if (short.length > 0) {
      return Math.max(...short.map(({ bucket, limit }) => Math.ceil((1 - bucket.tokens) / limit)), 1);
    }
    for (const { bucket } of buckets) bucket.tokens -= 1;
    return undefined;
  }

  private refill(id: string, limit: number, now: number): Bucket {
    let bucket = this.buckets.get(id);
    if (!bucket) {
      bucket = { tokens: limit, at: now };
      this.buckets.set(id, bucket);
    }
    bucket.tokens = Math.min(limit, bucket.tokens + ((now - bucket.at) / 1000) * limit);
    bucket.at = now;
    return bucket;
  }
}
