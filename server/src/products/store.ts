/**
 * The product catalogue. Keys (docs/company-data.md): `products` [tenant, id],
 * `product_codes` [tenant, code] -> id. Every write checks first and writes
 * after, in one transaction, so a refused request changes nothing (lmdb
 * keeps the writes made before a throw).
 *
 * Read by carts: `productFeatures` gives the engine's Context.product_features
 * (rule conditions on the line field `feature`).
 */
import { TallyError } from '@tally/engine';
import type { StoreEnv } from '../store/env.js';
import { idKey, tenantPrefix } from '../store/keys.js';
import { TaxonomyStore } from '../taxonomies/store.js';
import { featureKey } from '../taxonomies/types.js';
import type { Tenant } from '../tenancy/types.js';
import type { ProductPatch, ProductRecord } from './types.js';

export class ProductStore {
  readonly taxonomies: TaxonomyStore;

  constructor(private readonly env: StoreEnv) {
    this.taxonomies = new TaxonomyStore(env, 'product');
  }

  private get products() {
    return this.env.db('products');
  }
  private get codes() {
    return this.env.db('product_codes');
  }
  private key(tenant: Tenant, id: string) {
    return [tenantPrefix(tenant), idKey(id)];
  }
  private codeKey(tenant: Tenant, code: string) {
    return [tenantPrefix(tenant), code];
  }

  get(tenant: Tenant, id: string): ProductRecord | undefined {
    return this.products.get(this.key(tenant, id)) as ProductRecord | undefined;
  }

  /** The id of the product with this code (cart lines may carry only product_code). */
  productIdByCode(tenant: Tenant, code: string): string | undefined {
    return this.codes.get(this.codeKey(tenant, code)) as string | undefined;
  }

  /** Features (`<taxonomy_slug>:<feature_id>`) by product id, for the products that exist. */
  productFeatures(tenant: Tenant, productIds: Iterable<string>): Record<string, string[]> {
    const features: Record<string, string[]> = {};
    for (const id of productIds) {
      const product = this.get(tenant, id);
      if (product) features[id] = product.features.map(featureKey);
    }
    return features;
  }

  create(tenant: Tenant, record: ProductRecord): Promise<void> {
    return this.env.transact(() => {
      if (this.get(tenant, record.id)) throw new TallyError('duplicate_id', `id: product ${record.id} already exists`, 'id');
      this.assertCodeFree(tenant, record.code, record.id);
      this.taxonomies.assertFeatures(tenant, record.features, 'features');
      if (record.code !== null) this.codes.putSync(this.codeKey(tenant, record.code), record.id);
      this.taxonomies.relink(tenant, record.id, [], record.features);
      this.products.putSync(this.key(tenant, record.id), record);
    });
  }

  update(tenant: Tenant, id: string, patch: ProductPatch, now: string): Promise<void> {
    return this.env.transact(() => {
      const current = this.getOrThrow(tenant, id);
      const next: ProductRecord = { ...current, ...patch, updated_at: now };
      this.assertCodeFree(tenant, next.code, id);
      this.taxonomies.assertFeatures(tenant, next.features, 'features');
      if (current.code !== next.code) {
        if (current.code !== null) this.codes.removeSync(this.codeKey(tenant, current.code));
        if (next.code !== null) this.codes.putSync(this.codeKey(tenant, next.code), id);
      }
      this.taxonomies.relink(tenant, id, current.features, next.features);
      this.products.putSync(this.key(tenant, id), next);
    });
  }

  /** Deletes the product and its feature links; its id and code can be used again. */
  delete(tenant: Tenant, id: string): Promise<void> {
    return this.env.transact(() => {
      const current = this.getOrThrow(tenant, id);
      this.taxonomies.relink(tenant, id, current.features, []);
      if (current.code !== null) this.codes.removeSync(this.codeKey(tenant, current.code));
      this.products.removeSync(this.key(tenant, id));
    });
  }

  /** The product, or 404 product_not_found. */
  getOrThrow(tenant: Tenant, id: string): ProductRecord {
    const product = this.get(tenant, id);
    if (!product) throw new TallyError('product_not_found', `id: product ${id} does not exist`, 'id');
    return product;
  }

  private assertCodeFree(tenant: Tenant, code: string | null, id: string): void {
    if (code === null) return;
    const owner = this.productIdByCode(tenant, code);
    if (owner !== undefined && owner !== id) throw new TallyError('duplicate_id', `code: product ${owner} already has code ${code}`, 'code');
  }
}
