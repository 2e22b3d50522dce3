/**
 * The product catalogue: records with features and an optional unique code
 * (taxonomies/coded-records.ts keeps them; each write is one transaction).
 *
 * Read by carts: `productFeatures` gives the engine's Context.product_features
 * (rule conditions on the line field `feature`), `productCodes` its
 * Context.product_codes (`product_code` / `product_ean` of lines sent by id).
 */
import { TallyError } from '@tally/engine';
import type { StoreEnv } from '../store/env.js';
import { CodedRecords } from '../taxonomies/coded-records.js';
import type { TaxonomyStore } from '../taxonomies/store.js';
import { featureKey } from '../taxonomies/types.js';
import type { Tenant } from '../tenancy/types.js';
import type { ProductPatch, ProductRecord } from './types.js';

export class ProductStore {
  private readonly records: CodedRecords<ProductRecord>;
  readonly taxonomies: TaxonomyStore;

  constructor(private readonly env: StoreEnv) {
    this.records = new CodedRecords(env, 'product');
    this.taxonomies = this.records.taxonomies;
  }

  get(tenant: Tenant, id: string): ProductRecord | undefined {
    return this.records.byId(tenant, id);
  }

  /** The id of the product with this code (cart lines may carry only product_code). */
  productIdByCode(tenant: Tenant, code: string): string | undefined {
    return this.records.idByCode(tenant, code);
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

  /** Code and EAN by product id, for the products that exist and have either. */
  productCodes(tenant: Tenant, productIds: Iterable<string>): Record<string, { code?: string; ean?: string }> {
    const codes: Record<string, { code?: string; ean?: string }> = {};
    for (const id of productIds) {
      const product = this.get(tenant, id);
      if (product && (product.code || product.ean)) codes[id] = { ...(product.code ? { code: product.code } : {}), ...(product.ean ? { ean: product.ean } : {}) };
    }
    return codes;
  }

  create(tenant: Tenant, record: ProductRecord): Promise<void> {
    return this.env.transact(() => this.records.insert(tenant, record));
  }

  update(tenant: Tenant, id: string, patch: ProductPatch, now: string): Promise<void> {
    return this.env.transact(() => {
      const current = this.getOrThrow(tenant, id);
      this.records.replace(tenant, current, { ...current, ...patch, updated_at: now });
    });
  }

  /** Deletes the product and its feature links; its id and code can be used again. */
  delete(tenant: Tenant, id: string): Promise<void> {
    return this.env.transact(() => this.records.remove(tenant, this.getOrThrow(tenant, id)));
  }

  /** The product, or 404 product_not_found. */
  getOrThrow(tenant: Tenant, id: string): ProductRecord {
    const product = this.get(tenant, id);
    if (!product) throw new TallyError('product_not_found', `id: product ${id} does not exist`, 'id');
    return product;
  }
}
