/**
 * Locations. Keys (docs/company-data.md): `locations` [tenant, id],
 * `location_codes` [tenant, code] -> id. Every write checks first and writes
 * after, in one transaction, so a refused request changes nothing (lmdb keeps
 * the writes made before a throw).
 *
 * Read by carts (`international`), GET /cashbacks, customers and rewards:
 * `locationById` and `locationByCode` give the location with its currency.
 */
import { TallyError } from '@tally/engine';
import { invalidRequest } from '../http/errors.js';
import type { StoreEnv } from '../store/env.js';
import { idKey, tenantPrefix } from '../store/keys.js';
import { TaxonomyStore } from '../taxonomies/store.js';
import type { Tenant } from '../tenancy/types.js';
import { currencyOf } from './currency.js';
import type { LocationPatch, LocationRecord, LocationSearchParam } from './types.js';

/** `/locations/taxonomies` is the location taxonomies' path: a location with this code could never be read by code. */
export const RESERVED_CODE = 'taxonomies';

/** A country's currency, or 400 naming the field when the table does not know the country. */
export function currencyFor(country: string, field = 'country'): string {
  const currency = currencyOf(country);
  if (currency === undefined) throw invalidRequest(field, `${country} is not an ISO 3166-1 alpha-2 country code`);
  return currency;
}

export class LocationStore {
  readonly taxonomies: TaxonomyStore;

  constructor(private readonly env: StoreEnv) {
    this.taxonomies = new TaxonomyStore(env, 'location');
  }

  private get locations() {
    return this.env.db('locations');
  }
  private get codes() {
    return this.env.db('location_codes');
  }
  private key(tenant: Tenant, id: string) {
    return [tenantPrefix(tenant), idKey(id)];
  }
  private codeKey(tenant: Tenant, code: string) {
    return [tenantPrefix(tenant), code];
  }

  locationById(tenant: Tenant, id: string): LocationRecord | undefined {
    return this.locations.get(this.key(tenant, id)) as LocationRecord | undefined;
  }

  locationByCode(tenant: Tenant, code: string): LocationRecord | undefined {
    const id = this.codes.get(this.codeKey(tenant, code)) as string | undefined;
    return id === undefined ? undefined : this.locationById(tenant, id);
  }

  /** The location named by a path value, or 404 location_not_found. */
  getOrThrow(tenant: Tenant, by: LocationSearchParam, value: string): LocationRecord {
    const location = by === 'id' ? this.locationById(tenant, value) : this.locationByCode(tenant, value);
    if (!location) throw new TallyError('location_not_found', `value: no location with ${by} ${value}`, 'value');
    return location;
  }

  create(tenant: Tenant, record: LocationRecord): Promise<void> {
    return this.env.transact(() => {
      if (this.locationById(tenant, record.id)) throw new TallyError('duplicate_id', `id: location ${record.id} already exists`, 'id');
      this.assertCodeFree(tenant, record.code, record.id);
      this.taxonomies.assertFeatures(tenant, record.features, 'features');
      if (record.code !== null) this.codes.putSync(this.codeKey(tenant, record.code), record.id);
      this.taxonomies.relink(tenant, record.id, [], record.features);
      this.locations.putSync(this.key(tenant, record.id), record);
    });
  }

  update(tenant: Tenant, by: LocationSearchParam, value: string, patch: LocationPatch, now: string): Promise<void> {
    return this.env.transact(() => {
      const current = this.getOrThrow(tenant, by, value);
      const next: LocationRecord = { ...current, ...patch, updated_at: now };
      if (patch.country !== undefined) next.currency = currencyFor(patch.country);
      this.assertCodeFree(tenant, next.code, current.id);
      this.taxonomies.assertFeatures(tenant, next.features, 'features');
      if (current.code !== next.code) {
        if (current.code !== null) this.codes.removeSync(this.codeKey(tenant, current.code));
        if (next.code !== null) this.codes.putSync(this.codeKey(tenant, next.code), current.id);
      }
      this.taxonomies.relink(tenant, current.id, current.features, next.features);
      this.locations.putSync(this.key(tenant, current.id), next);
    });
  }

  /**
   * Deletes the location and its feature links; its id and code can be used
   * again. Carts and customers keep the id they recorded.
   */
  delete(tenant: Tenant, by: LocationSearchParam, value: string): Promise<void> {
    return this.env.transact(() => {
      const current = this.getOrThrow(tenant, by, value);
      this.taxonomies.relink(tenant, current.id, current.features, []);
      if (current.code !== null) this.codes.removeSync(this.codeKey(tenant, current.code));
      this.locations.removeSync(this.key(tenant, current.id));
    });
  }

  private assertCodeFree(tenant: Tenant, code: string | null, id: string): void {
    if (code === null) return;
    if (code === RESERVED_CODE) throw invalidRequest('code', `'${RESERVED_CODE}' is reserved (/locations/taxonomies is the location taxonomies' path)`);
    const owner = this.locationByCode(tenant, code);
    if (owner && owner.id !== id) throw new TallyError('duplicate_id', `code: location ${owner.id} already has code ${code}`, 'code');
  }
}
