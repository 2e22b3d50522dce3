/**
 * Taxonomies and features of one kind (product or location), and the links
 * from products or locations to features. Keys (docs/company-data.md):
 * `taxonomies` [tenant, kind, slug], `features` [tenant, kind, slug, id],
 * `feature_links` [tenant, kind, slug, feature id, owner id]. The links let a
 * feature's delete see at once whether anything is still attached to it.
 */
import { TallyError } from '@tally/engine';
import { wireInt } from '../http/wire.js';
import type { StoreEnv } from '../store/env.js';
import { idKey, tenantPrefix, under } from '../store/keys.js';
import { updateUnlessUnchanged } from '../store/unchanged.js';
import type { Tenant } from '../tenancy/types.js';
import type {
  FeatureLinks,
  FeaturePatch,
  FeatureRecord,
  FeatureRef,
  FeatureView,
  TaxonomyKind,
  TaxonomyPatch,
  TaxonomyRecord,
} from './types.js';

export class TaxonomyStore implements FeatureLinks {
  /** Error codes of this kind: taxonomy_not_found, location_taxonomy_not_found, ... */
  private readonly codePrefix: string;

  constructor(
    private readonly env: StoreEnv,
    private readonly kind: TaxonomyKind,
  ) {
    this.codePrefix = kind === 'product' ? '' : `${kind}_`;
  }

  private get taxonomies() {
    return this.env.db('taxonomies');
  }
  private get features() {
    return this.env.db('features');
  }
  private get links() {
    return this.env.db('feature_links');
  }

  private taxonomyKey(tenant: Tenant, slug: string) {
    return [tenantPrefix(tenant), this.kind, slug];
  }
  private featureDbKey(tenant: Tenant, slug: string, id: string) {
    return [tenantPrefix(tenant), this.kind, slug, idKey(id)];
  }

  private taxonomyNotFound(slug: string, field = 'slug'): TallyError {
    return new TallyError(`${this.codePrefix}taxonomy_not_found`, `${field}: taxonomy ${slug} does not exist`, field);
  }
  private featureNotFound(ref: FeatureRef, field: string): TallyError {
    return new TallyError(`${this.codePrefix}feature_not_found`, `${field}: feature ${ref.id} of taxonomy ${ref.taxonomy_slug} does not exist`, field);
  }

  taxonomy(tenant: Tenant, slug: string): TaxonomyRecord | undefined {
    return this.taxonomies.get(this.taxonomyKey(tenant, slug)) as TaxonomyRecord | undefined;
  }

  feature(tenant: Tenant, slug: string, id: string): FeatureRecord | undefined {
    return this.features.get(this.featureDbKey(tenant, slug, id)) as FeatureRecord | undefined;
  }

  createTaxonomy(tenant: Tenant, record: TaxonomyRecord): Promise<void> {
    return this.env.transact(() => {
      const key = this.taxonomyKey(tenant, record.slug);
      if (this.taxonomies.get(key) !== undefined) {
        throw new TallyError('duplicate_id', `slug: taxonomy ${record.slug} already exists`, 'slug');
      }
      this.taxonomies.putSync(key, record);
    });
  }

  /** A patch of the values held writes nothing (updated_at kept, no audit entry), as updateFeature's. */
  updateTaxonomy(tenant: Tenant, slug: string, patch: TaxonomyPatch, now: string): Promise<void> {
    const existing = () => {
      const current = this.taxonomy(tenant, slug);
      if (!current) throw this.taxonomyNotFound(slug);
      return current;
    };
    return updateUnlessUnchanged(this.env, existing, (current) => ({ ...current, ...patch, updated_at: now }), (_, next) => {
      this.taxonomies.putSync(this.taxonomyKey(tenant, slug), next);
    });
  }

  /** A taxonomy that still holds features is not deleted (409 conflict): its features would be orphaned. */
  deleteTaxonomy(tenant: Tenant, slug: string): Promise<void> {
    return this.env.transact(() => {
      if (!this.taxonomy(tenant, slug)) throw this.taxonomyNotFound(slug);
      const held = this.features.getKeysCount(under(this.taxonomyKey(tenant, slug)));
      if (held > 0) {
        throw new TallyError('conflict', `slug: taxonomy ${slug} still holds ${held} feature(s); delete them first`, 'slug');
      }
      this.taxonomies.removeSync(this.taxonomyKey(tenant, slug));
    });
  }

  createFeature(tenant: Tenant, record: FeatureRecord): Promise<void> {
    return this.env.transact(() => {
      if (!this.taxonomy(tenant, record.taxonomy_slug)) throw this.taxonomyNotFound(record.taxonomy_slug, 'taxonomy_slug');
      const key = this.featureDbKey(tenant, record.taxonomy_slug, record.id);
      if (this.features.get(key) !== undefined) {
        throw new TallyError('duplicate_id', `id: feature ${record.id} already exists in taxonomy ${record.taxonomy_slug}`, 'id');
      }
      this.features.putSync(key, record);
    });
  }

  updateFeature(tenant: Tenant, slug: string, id: string, patch: FeaturePatch, now: string): Promise<void> {
    return updateUnlessUnchanged(this.env, () => this.existingFeature(tenant, slug, id), (current) => ({ ...current, ...patch, updated_at: now }), (_, next) => {
      this.features.putSync(this.featureDbKey(tenant, slug, id), next);
    });
  }

  /** A feature still attached to products or locations is not deleted (409 conflict): rules and reports name it. */
  deleteFeature(tenant: Tenant, slug: string, id: string): Promise<void> {
    return this.env.transact(() => {
      this.existingFeature(tenant, slug, id);
      const attached = this.links.getKeysCount(under(this.featureDbKey(tenant, slug, id)));
      if (attached > 0) {
        throw new TallyError('conflict', `id: feature ${slug}:${id} is still attached to ${attached} ${this.kind}(s); detach it first`, 'id');
      }
      this.features.removeSync(this.featureDbKey(tenant, slug, id));
    });
  }

  private existingFeature(tenant: Tenant, slug: string, id: string): FeatureRecord {
    if (!this.taxonomy(tenant, slug)) throw this.taxonomyNotFound(slug, 'taxonomy_slug');
    const feature = this.feature(tenant, slug, id);
    if (!feature) throw this.featureNotFound({ taxonomy_slug: slug, id }, 'id');
    return feature;
  }

  assertFeatures(tenant: Tenant, refs: readonly FeatureRef[], field: string): void {
    refs.forEach((ref, i) => {
      if (!this.feature(tenant, ref.taxonomy_slug, ref.id)) throw this.featureNotFound(ref, `${field}[${i}]`);
    });
  }

  relink(tenant: Tenant, ownerId: string, previous: readonly FeatureRef[], next: readonly FeatureRef[]): void {
    const owner = idKey(ownerId);
    for (const ref of previous) this.links.removeSync([...this.featureDbKey(tenant, ref.taxonomy_slug, ref.id), owner]);
    for (const ref of next) this.links.putSync([...this.featureDbKey(tenant, ref.taxonomy_slug, ref.id), owner], true);
  }

  describe(tenant: Tenant, refs: readonly FeatureRef[]): FeatureView[] {
    return refs.map((ref) => ({
      taxonomy_slug: ref.taxonomy_slug,
      taxonomy_name: this.taxonomy(tenant, ref.taxonomy_slug)?.name ?? ref.taxonomy_slug,
      id: wireInt(ref.id),
      name: this.feature(tenant, ref.taxonomy_slug, ref.id)?.name ?? '',
    }));
  }
}
