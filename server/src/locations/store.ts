/**
 * Locations: records with features and an optional unique code
 * (taxonomies/coded-records.ts keeps them; each write is one transaction).
 *
 * Read by carts (`international`), GET /cashbacks, customers and rewards:
 * `locationById` and `locationByCode` give the location with its currency.
 */
import { currencyOf, TallyError } from '@tally/engine';
import { invalidRequest } from '../http/errors.js';
import type { StoreEnv } from '../store/env.js';
import { updateUnlessUnchanged } from '../store/unchanged.js';
import { CodedRecords } from '../taxonomies/coded-records.js';
import type { TaxonomyStore } from '../taxonomies/store.js';
import type { Tenant } from '../tenancy/types.js';
import type { LocationPatch, LocationRecord, LocationSearchParam } from './types.js';

/** `/locations/taxonomies` is the location taxonomies' path: a location with this code could never be read by code. */
export const RESERVED_CODE = 'taxonomies';

/**
 * A country's currency (the schema has checked it is a country), or 400 naming the field for a country without
 * one (Antarctica): a location's currency is its country's.
 */
export function currencyFor(country: string, field = 'country'): string {
  const currency = currencyOf(country);
  if (currency === undefined) throw invalidRequest(field, `${country} has no currency of its own (a location's currency is its country's)`);
  return currency;
}

function assertNotReserved(code: string | null | undefined): void {
  if (code === RESERVED_CODE) throw invalidRequest('code', `'${RESERVED_CODE}' is reserved (/locations/taxonomies is the location taxonomies' path)`);
}

export class LocationStore {
  private readonly records: CodedRecords<LocationRecord>;
  readonly taxonomies: TaxonomyStore;

  constructor(private readonly env: StoreEnv) {
    this.records = new CodedRecords(env, 'location');
    this.taxonomies = this.records.taxonomies;
  }

  locationById(tenant: Tenant, id: string): LocationRecord | undefined {
    return this.records.byId(tenant, id);
  }

  locationByCode(tenant: Tenant, code: string): LocationRecord | undefined {
    const id = this.records.idByCode(tenant, code);
    return id === undefined ? undefined : this.locationById(tenant, id);
  }

  /** The location named by a path value, or 404 location_not_found. */
  getOrThrow(tenant: Tenant, by: LocationSearchParam, value: string): LocationRecord {
    const location = by === 'id' ? this.locationById(tenant, value) : this.locationByCode(tenant, value);
    if (!location) throw new TallyError('location_not_found', `value: no location with ${by} ${value}`, 'value');
    return location;
  }

  create(tenant: Tenant, record: LocationRecord): Promise<void> {
    assertNotReserved(record.code);
    return this.env.transact(() => this.records.insert(tenant, record));
  }

  /** A patch of the values held writes nothing (updated_at kept, no audit entry). */
  update(tenant: Tenant, by: LocationSearchParam, value: string, patch: LocationPatch, now: string): Promise<void> {
    assertNotReserved(patch.code);
    const updated = (current: LocationRecord): LocationRecord => {
      const next: LocationRecord = { ...current, ...patch, updated_at: now };
      if (patch.country !== undefined) next.currency = currencyFor(patch.country);
      return next;
    };
    return updateUnlessUnchanged(this.env, () => this.getOrThrow(tenant, by, value), updated, (current, next) => this.records.replace(tenant, current, next));
  }

  /**
   * Deletes the location and its feature links; its id and code can be used
   * again. Carts and customers keep the id they recorded.
   */
  delete(tenant: Tenant, by: LocationSearchParam, value: string): Promise<void> {
    return this.env.transact(() => this.records.remove(tenant, this.getOrThrow(tenant, by, value)));
  }
}
