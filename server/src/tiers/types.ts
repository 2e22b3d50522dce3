/** Tier programs of a Company environment and the customers' standing in them (GET /customers/{id}/tiers). */

export interface TierLevel {
  /** 1 = the first level. */
  level: number;
  name: string;
  /** The measured attribute value from which the level is reached. */
  threshold: number;
}

export interface TierProgram {
  id: string;
  name: string;
  /** ISO 3166-1 alpha-2; empty = every country. */
  countries: string[];
  active: boolean;
  /** The customer attribute the program measures: a numeric custom attribute, or a cart metric (total_spent, carts, points_earned). */
  attribute: string;
  levels: TierLevel[];
  /** For a cart-metric attribute (measured.ts): the months measured, up to today; absent = 12. */
  period_months?: number;
  /** How long a level lasts once won; absent = no expiry. */
  validity_days?: number;
}

/** The level a customer holds in a program, recorded when it changes. */
export interface TierMembership {
  level: number;
  won_at: string;
  expires_at?: string;
}
