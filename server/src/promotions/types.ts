/**
 * A legacy promotion: a promotion the point of sale applies by itself. Tally
 * does not evaluate it; carts report it (promotions[].promotion_id) and the
 * record gives that id a name and validity for reporting.
 */
export interface PromotionRecord {
  /** int64 as a canonical decimal string: the promotion_id of carts. */
  id: string;
  code: string | null;
  name: string;
  description: string | null;
  active: boolean;
  /** Datetimes in UTC; null = open-ended. */
  available_from: string | null;
  available_to: string | null;
  created_at: string;
  updated_at: string;
}

export type PromotionPatch = Partial<Omit<PromotionRecord, 'id' | 'created_at' | 'updated_at'>>;
