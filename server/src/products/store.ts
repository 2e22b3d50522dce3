/**
 * The product catalogue: records with features and an optional unique code
 * (taxonomies/coded-records.ts keeps them; each write is one transaction),
 * indexed by EAN too (`product_eans`: [tenant, ean, idKey(id)], as an EAN is
 * not unique here).
 *
 * Read by carts: `productFeatures` gives the engine's Context.product_features
 * (rule conditions on the line field `feature`), `productCodes` its
 * Context.product_codes (`product_code` / `product_ean` of lines sent by id),
 * `productIdByCode` and `productIdByEan` the product of a line sent without id.
 */
import { TallyError } from '@tally/engine';
import type { StoreEnv } from '../store/env.js';
import { idFromKey, idKey, tenantPrefix, under } from '../store/keys.js';
import { indexKeys } from '../store/migrations.js';
import { updateUnlessUnchanged } from '../store/unchanged.js';
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

  /** The id of the one product with this EAN (cart lines may carry only product_ean); none when no or several products have it. */
  productIdByEan(tenant: Tenant, ean: string): string | undefined {
    const found = [...this.eans.getKeys({ ...under([tenantPrefix(tenant), ean]), limit: 2 })] as string[][];
    return found.length === 1 ? idFromKey(found[0][2]) : undefined;
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
    return this.env.transact(() => {
      this.records.insert(tenant, record);
      this.indexEan(tenant, null, record);
    });
  }

  /** A patch of the values held writes nothing (updated_at kept, no audit entry). */
  update(tenant: Tenant, id: string, patch: ProductPatch, now: string): Promise<void> {
    return updateUnlessUnchanged(this.env, () => this.getOrThrow(tenant, id), (current) => ({ ...current, ...patch, updated_at: now }), (current, next) => {
      this.records.replace(tenant, current, next);
      this.indexEan(tenant, current, next);
    });
  }

  /** Deletes the product and its feature links; its id and code can be used again. */
  delete(tenant: Tenant, id: string): Promise<void> {
    return this.env.transact(() => {
      const current = this.getOrThrow(tenant, id);
      this.records.remove(tenant, current);
      this.indexEan(tenant, current, null);
    });
  }

  private get eans() {
    return this.env.db(PRODUCT_EANS);
  }

  /** Inside the write's transaction: moves the product's EAN key from `current`'s to `next`'s. */
  private indexEan(tenant: Tenant, current: ProductRecord | null, next: ProductRecord | null): void {
    if (current?.ean === next?.ean) return;
    if (current?.ean) this.eans.removeSync(eanKey(tenantPrefix(tenant), current.ean, current.id));
    if (next?.ean) this.eans.putSync(eanKey(tenantPrefix(tenant), next.ean, next.id), null);
  }

  /** The product, or 404 product_not_found. */
  getOrThrow(tenant: Tenant, id: string): ProductRecord {
    const product = this.get(tenant, id);
    if (!product) throw new TallyError('product_not_found', `id: product ${id} does not exist`, 'id');
    return product;
  }
}

const PRODUCT_EANS = 'product_eans';

function eanKey(tenant: string, ean: string, id: string): string[] {
  return [tenant, ean, idKey(id)];
}

/**
 * Stores written before `product_eans` hold products with an EAN and no index key: the server indexes them when it
 * opens the store, before any request, as the carts' order ids (carts/order-index.ts). Returns the products indexed.
 */
export function indexProductEans(env: StoreEnv, batch?: number): Promise<number> {
  return indexKeys<ProductRecord>(env, 'products', PRODUCT_EANS, (tenant, product) => (product.ean ? eanKey(tenant, product.ean, product.id) : undefined), batch);
}
