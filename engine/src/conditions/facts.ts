/**
 * The facts a compiled condition reads. The evaluator builds them once per
 * cart (money already in integer cents, ids as decimal strings, the creation
 * date already in the Company's timezone); conditions never see the raw cart.
 */
export interface LineFacts {
  /** Position of the line in the cart's `lines` array (0-based). */
  index: number;
  /** The line's `order` field, or index + 1 when absent. */
  order: number;
  product_id?: string;
  product_code?: string;
  product_ean?: string;
  supplier_id?: string;
  /** Product features the line's product belongs to, as `<taxonomy_slug>:<feature_id>` (issue 5). */
  features: string[];
  quantity: number;
  /** Integer cents. */
  total: number;
  /** Integer cents (the line total when original_total is absent). */
  original_total: number;
  attributes: Readonly<Record<string, unknown>>;
}

export interface CustomerFacts {
  identified: boolean;
  id?: string;
  code?: string;
  country?: string;
  gender?: string;
  kind?: string;
  tier?: string;
  attributes: Readonly<Record<string, unknown>>;
}

export interface CartFacts {
  /** Integer cents. */
  total: number;
  /** Integer cents (total when absent). */
  original_total: number;
  location_id?: string;
  location_code?: string;
  /** Features of the cart's location, as `<taxonomy_slug>:<feature_id>` (empty when unknown). */
  location_features: readonly string[];
  channel?: string;
  currency: string;
  attributes: Readonly<Record<string, unknown>>;
  customer: CustomerFacts;
  /** In the Company's timezone: weekday 1 = Monday .. 7 = Sunday, hour 0..23. */
  creation_date: { weekday: number; hour: number };
  lines: readonly LineFacts[];
}
