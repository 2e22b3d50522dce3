/**
 * voucher_out_location: a voucher can be used only where its campaign's
 * conditions allow: its location leaves (`location_id`, `location_code`,
 * `location_feature`) tested as carts test them (`ruleAdmitsLocation`, as the
 * campaign lists by location do). A location the request names is completed
 * from company data: the code of a known id, the id of a known code, and its
 * features, from the one read.
 */
import { TallyError } from '@tally/engine';
import { ruleAdmitsLocation } from '../campaigns/rule-values.js';
import type { CampaignRecord } from '../campaigns/types.js';
import { cannotBeSentWith } from '../http/errors.js';
import type { LocationStore } from '../locations/store.js';
import type { LocationRecord } from '../locations/types.js';
import { featureKey } from '../taxonomies/types.js';
import type { Tenant } from '../tenancy/types.js';

export interface LocationRef {
  id?: string;
  code?: string;
  /** `<taxonomy_slug>:<feature_id>` of a location company data knows (none for one it does not). */
  features?: readonly string[];
}

/** A request's location completed from company data: `tenant` is whose (its campaigns' location rules are cached by it). */
export interface RequestLocation extends LocationRef {
  tenant: Tenant;
}

/** The location of a request (location_id or location_code, at most one), completed from company data when known. */
export function requestLocation(locations: LocationStore, tenant: Tenant, ref: LocationRef): RequestLocation | undefined {
  if (ref.id !== undefined && ref.code !== undefined) throw cannotBeSentWith('location_code', 'location_id');
  if (ref.id !== undefined) return { ...known(locations.locationById(tenant, ref.id)), id: ref.id, tenant };
  if (ref.code !== undefined) return { ...known(locations.locationByCode(tenant, ref.code)), code: ref.code, tenant };
  return undefined;
}

function known(location: LocationRecord | undefined): LocationRef {
  return location ? { id: location.id, code: location.code ?? undefined, features: location.features.map(featureKey) } : {};
}

export function locationRefusal(campaign: CampaignRecord, location: RequestLocation, code: string): TallyError | null {
  if (ruleAdmitsLocation(campaign, location)) return null;
  const where = location.code ?? location.id;
  return new TallyError('voucher_out_location', `voucher ${code}: cannot be used at location ${where}`);
}
