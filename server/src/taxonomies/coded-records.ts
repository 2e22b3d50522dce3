/**
 * The company-data records that carry features and an optional unique code
 * (products and locations). Keys (docs/company-data.md): `<kind>s` [tenant, id],
 * `<kind>_codes` [tenant, code] -> id. The writes run inside the caller's
 * env.transact and check everything before writing anything, so a refused
 * request changes nothing (lmdb keeps the writes made before a throw).
 */
import { TallyError } from '@tally/engine';
import type { StoreEnv } from '../store/env.js';
import { idKey, tenantPrefix } from '../store/keys.js';
import type { Tenant } from '../tenancy/types.js';
import { TaxonomyStore } from './store.js';
import type { FeatureRef, TaxonomyKind } from './types.js';

export interface CodedRecord {
  id: string;
  code: string | null;
  features: FeatureRef[];
}

export class CodedRecords<R extends CodedRecord> {
  readonly taxonomies: TaxonomyStore;

  constructor(
    private readonly env: StoreEnv,
    private readonly kind: TaxonomyKind,
  ) {
    this.taxonomies = new TaxonomyStore(env, kind);
  }

  private get records() {
    return this.env.db(`${this.kind}s`);
  }
  private get codes() {
    return this.env.db(`${this.kind}_codes`);
  }
  private key(tenant: Tenant, id: string) {
    return [tenantPrefix(tenant), idKey(id)];
  }
  private codeKey(tenant: Tenant, code: string) {
    return [tenantPrefix(tenant), code];
  }

  byId(tenant: Tenant, id: string): R | undefined {
    return this.records.get(this.key(tenant, id)) as R | undefined;
  }

  idByCode(tenant: Tenant, code: string): string | undefined {
    return this.codes.get(this.codeKey(tenant, code)) as string | undefined;
  }

  /** Stores a new record: its id and code must be free, its features must exist. */
  insert(tenant: Tenant, record: R): void {
    if (this.byId(tenant, record.id)) throw new TallyError('duplicate_id', `id: ${this.kind} ${record.id} already exists`, 'id');
    this.assertCodeFree(tenant, record.code, record.id);
    this.taxonomies.assertFeatures(tenant, record.features, 'features');
    if (record.code !== null) this.codes.putSync(this.codeKey(tenant, record.code), record.id);
    this.taxonomies.relink(tenant, record.id, [], record.features);
    this.records.putSync(this.key(tenant, record.id), record);
  }

  /** Replaces `current` by `next` (the same id), moving its code and feature links. */
  replace(tenant: Tenant, current: R, next: R): void {
    this.assertCodeFree(tenant, next.code, current.id);
    this.taxonomies.assertFeatures(tenant, next.features, 'features');
    if (current.code !== next.code) {
      if (current.code !== null) this.codes.removeSync(this.codeKey(tenant, current.code));
      if (next.code !== null) this.codes.putSync(this.codeKey(tenant, next.code), current.id);
    }
    this.taxonomies.relink(tenant, current.id, current.features, next.features);
    this.records.putSync(this.key(tenant, current.id), next);
  }

  /** Deletes the record, its code and its feature links: its id and code can be used again. */
  remove(tenant: Tenant, current: R): void {
    this.taxonomies.relink(tenant, current.id, current.features, []);
    if (current.code !== null) this.codes.removeSync(this.codeKey(tenant, current.code));
    this.records.removeSync(this.key(tenant, current.id));
  }

  private assertCodeFree(tenant: Tenant, code: string | null, id: string): void {
    if (code === null) return;
    const owner = this.idByCode(tenant, code);
    if (owner !== undefined && owner !== id) throw new TallyError('duplicate_id', `code: ${this.kind} ${owner} already has code ${code}`, 'code');
  }
}
