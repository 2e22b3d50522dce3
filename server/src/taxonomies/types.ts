/**
 * Taxonomies and features (company data). A taxonomy (a family, a brand, a
 * region) holds features; products and locations are attached to features.
 * Products and locations have separate taxonomies: the same slug may exist
 * in both kinds without meaning the same thing.
 */
import type { Tenant } from '../tenancy/types.js';

export type TaxonomyKind = 'product' | 'location';

export interface TaxonomyRecord {
  slug: string;
  name: string;
  description: string | null;
  created_at: string;
  updated_at: string;
}

export interface FeatureRecord {
  /** int64 as a canonical decimal string, unique within its taxonomy. */
  id: string;
  taxonomy_slug: string;
  name: string;
  description: string | null;
  created_at: string;
  updated_at: string;
}

/** A feature as products and locations name it in requests and records. */
export interface FeatureRef {
  taxonomy_slug: string;
  id: string;
}

export type TaxonomyPatch = Partial<Pick<TaxonomyRecord, 'name' | 'description'>>;
export type FeaturePatch = Partial<Pick<FeatureRecord, 'name' | 'description'>>;

/** `<taxonomy_slug>:<feature_id>`: how rule conditions name a feature (field `feature`). */
export function featureKey(ref: FeatureRef): string {
  return `${ref.taxonomy_slug}:${ref.id}`;
}

/** The features of a request without repeats, in the order given. */
export function distinctFeatures(refs: readonly FeatureRef[]): FeatureRef[] {
  const seen = new Set<string>();
  return refs.filter((ref) => {
    const key = featureKey(ref);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * What the product and location stores need from the taxonomies of their
 * kind, inside their own transaction. lmdb keeps the writes a transaction
 * made before a throw, so a store checks everything first and writes after.
 */
export interface FeatureLinks {
  /** Throws `<kind>feature_not_found` naming `<field>.<index>` when a feature does not exist. */
  assertFeatures(tenant: Tenant, refs: readonly FeatureRef[], field: string): void;
  /** Attaches `ownerId` to exactly `next`, replacing `previous` (call after assertFeatures). */
  relink(tenant: Tenant, ownerId: string, previous: readonly FeatureRef[], next: readonly FeatureRef[]): void;
  /** The features with their current names and their taxonomies' names, for replies. */
  describe(tenant: Tenant, refs: readonly FeatureRef[]): FeatureView[];
}

/** A feature in replies (GET /products/{id}, GET /locations/{value}). */
export interface FeatureView {
  taxonomy_slug: string;
  taxonomy_name: string;
  /** Exact on the wire (wireInt). */
  id: number | bigint;
  name: string;
}
