/** A location (a store) of the Company (company data). */
import type { FeatureRef } from '../taxonomies/types.js';

export interface LocationRecord {
  /** int64 as a canonical decimal string: the location_id of carts, customers, rewards. */
  id: string;
  /** Unique within the Company environment when set: the location_code of requests. */
  code: string | null;
  name: string;
  /** ISO 3166-1 alpha-2. */
  country: string;
  /** ISO 4217, always the country's (currency.ts): what `international` and GET /cashbacks compare and answer. */
  currency: string;
  address: string | null;
  city: string | null;
  state: string | null;
  postal_code: string | null;
  active: boolean;
  features: FeatureRef[];
  created_at: string;
  updated_at: string;
}

export type LocationFields = Omit<LocationRecord, 'id' | 'currency' | 'created_at' | 'updated_at'>;
export type LocationPatch = Partial<LocationFields>;

/** How the path value of /locations/{value} is read (query search_param). */
export type LocationSearchParam = 'id' | 'code';
