/**
 * How far a customer's available points are from the Company's cashback
 * threshold: the customer summary of carts and GET /customers/{value}/points
 * answer it alike.
 */
export interface CashbackDistance {
  score_to_reach_cashback: number;
  money_to_spend_to_reach_cashback: number | null;
}

export function cashbackDistance(threshold: number, available: number): CashbackDistance {
  const toReach = Math.max(0, threshold - available);
  // Reached: nothing left to spend. Otherwise the spend depends on the points campaigns a future cart meets: unknown.
  return { score_to_reach_cashback: toReach, money_to_spend_to_reach_cashback: toReach === 0 ? 0 : null };
}
