/** Companies, their environments and API keys (issue 3, Tenancy). */

export type Environment = 'sandbox' | 'production';
export const ENVIRONMENTS: readonly Environment[] = ['sandbox', 'production'];

/** One Company's environment: the unit of data separation. */
export interface Tenant {
  companyId: string;
  environment: Environment;
}

export interface Company {
  /** A slug chosen at creation ("default" for the bootstrap Company). */
  id: string;
  name: string;
  created_at: string;
}

/** Names of the per-key request budgets (requests per second). */
export type RateLimitName = 'tier_1' | 'tier_2' | 'tier_3' | 'discounts_trigger';
export type RateLimits = Partial<Record<RateLimitName, number>>;

export interface Audience {
  /** int64 as a decimal string (the contract's segment_id). */
  id: string;
  name: string;
  /** A condition in the evaluator's condition language over customer fields. */
  rule: unknown;
}

/** Settings of one Company environment (GET/PATCH /company). */
export interface CompanySettings {
  /** Incremented on every change: caches of derived data (compiled schemas) key on it. */
  version: number;
  currency: string;
  country: string;
  timezone: string;
  default_language: string;
  languages: string[];
  /** Money value of one point in currency units, as a decimal string ("0.01"). */
  point_value: string;
  /** The most points a cart spends as cashback (cashback_score_desired, cashbacks); null = no cap. */
  cashback_cap: number | null;
  /** Points a customer must hold before they can be turned into cashback. */
  cashback_threshold: number;
  trigger_engine_version: 1 | 2;
  /** JSON Schema (ajv) of customer attributes. */
  customer_attribute_schema: Record<string, unknown>;
  audiences: Audience[];
  /** Raised budgets for every key of this environment (defaults: the contract's tiers). */
  rate_limits: RateLimits;
  /** Minimum age of a cart before POST /carts/cancellation accepts it. */
  cart_cancellation_wait_seconds: number;
}

export interface ApiKeyRecord {
  /** The public key (X-Api-Key). */
  key: string;
  company_id: string;
  environment: Environment;
  /** sha256 of the secret, hex. The secret itself is never stored. */
  secret_hash: string;
  description: string;
  enabled: boolean;
  /** Platform-managed (the bootstrap key). */
  system: boolean;
  /** Per-key budgets, over the environment's settings. */
  rate_limits: RateLimits;
  created_at: string;
}

/** An API key as shown to routes and the CLI: without its secret hash. */
export type ApiKeyView = Omit<ApiKeyRecord, 'secret_hash'>;
