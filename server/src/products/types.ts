/** A product of the Company's catalogue (company data). */
import type { FeatureRef } from '../taxonomies/types.js';

export interface ProductRecord {
  /** int64 as a canonical decimal string: the product_id of cart lines. */
  id: string;
  /** Unique within the Company environment when set: the product_code of cart lines. */
  code: string | null;
  ean: string | null;
  name: string;
  description: string | null;
  active: boolean;
  /** The product's features, distinct, in the order given. */
  features: FeatureRef[];
  created_at: string;
  updated_at: string;
}

export type ProductFields = Omit<ProductRecord, 'id' | 'created_at' | 'updated_at'>;
export type ProductPatch = Partial<ProductFields>;
