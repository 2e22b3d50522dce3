/**
 * Per-API-key rate limits (contract, Limits): a token bucket per key and
 * budget, refilled continuously at the budget's requests per second with a
 * one-second burst. A budget is the key's own setting, else its environment's
 * setting, else the contract's default.
 */
import type { OperationSpec } from './operations.js';
import type { ApiKeyView, CompanySettings, RateLimitName } from '../tenancy/types.js';
import { errorBody } from './errors.js';
import type { Reply } from './types.js';

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
   * Takes one request from every budget the operation counts against. Returns undefined when allowed, else the
   * budgets exhausted and the seconds to wait (Retry-After).
   */
  take(key: ApiKeyView, settings: CompanySettings, spec: OperationSpec): { budgets: RateLimitName[]; retryAfter: number } | undefined {
    const names: RateLimitName[] = spec.extraLimit ? [spec.tier, spec.extraLimit] : [spec.tier];
    const now = this.clock();
    const buckets = names.map((name) => {
      const limit = key.rate_limits[name] ?? settings.rate_limits[name] ?? DEFAULT_RATE_LIMITS[name];
      return { name, limit, bucket: this.refill(`${key.key}\u0000${name}`, limit, now) };
    });
    const short = buckets.filter(({ bucket }) => bucket.tokens < 1);
    if (short.length > 0) {
      return { budgets: short.map(({ name }) => name), retryAfter: Math.max(...short.map(({ bucket, limit }) => Math.ceil((1 - bucket.tokens) / limit)), 1) };
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

/** The contract's answer to a request over a limit (Errors: 429, Retry-After gives the seconds to wait). */
export function tooManyRequests(retryAfter: number, message: string): Reply {
  return {
    status: 429,
    headers: { 'Retry-After': String(retryAfter) },
    body: errorBody('too_many_requests', `${message}; retry after ${retryAfter} s`),
  };
}

/** Client addresses whose failures are remembered at most: about 15 MB (docs/http.md, Failed authentications). */
export const AUTH_FAILURE_ADDRESSES = 100_000;

interface Failures {
  count: number;
  /** When the address's window started (the clock's milliseconds). */
  since: number;
}

/**
 * Failed authentications per client address (beyond the contract; docs/http.md): after `limit` failures within
 * `windowMs` of the first, every request from the address is refused, a right secret too (else a guess made while
 * refused would still tell), until that window ends. Entries are kept in the order their windows started, so ended
 * ones are at the front and, at `capacity`, the oldest window is dropped: an attacker rotating addresses cannot grow
 * the map, and each of its addresses still gets only `limit` tries.
 */
export class AuthFailureLimiter {
  private readonly failures = new Map<string, Failures>();
  /** When the newest window ends: past it, nothing is refused and the map is emptied. */
  private quietAt = 0;

  /** `clock` in milliseconds (monotonic). */
  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly capacity = AUTH_FAILURE_ADDRESSES,
    private readonly clock: () => number = () => performance.now(),
  ) {}

  /** No window open: all a request pays, without reading its address, when no authentication failed lately. */
  idle(): boolean {
    if (this.failures.size === 0) return true;
    if (this.clock() < this.quietAt) return false;
    this.failures.clear();
    return true;
  }

  /** Seconds until `address` may authenticate again (at least 1), or undefined when it may now. */
  refusal(address: string): number | undefined {
    const entry = this.failures.get(address);
    if (!entry || entry.count < this.limit) return undefined;
    const left = entry.since + this.windowMs - this.clock();
    return left > 0 ? Math.max(Math.ceil(left / 1000), 1) : undefined;
  }

  /** Counts a failed authentication from `address`; true when it is the one that reaches the limit. */
  fail(address: string): boolean {
    const now = this.clock();
    for (const [ended, entry] of this.failures) {
      if (now - entry.since < this.windowMs) break;
      this.failures.delete(ended);
    }
    let entry = this.failures.get(address);
    if (!entry) {
      if (this.failures.size >= this.capacity) this.failures.delete(this.failures.keys().next().value!);
      entry = { count: 0, since: now };
      this.failures.set(address, entry);
      this.quietAt = now + this.windowMs;
    }
    entry.count += 1;
    return entry.count === this.limit;
  }
}
