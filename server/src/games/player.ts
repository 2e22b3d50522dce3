/**
 * The customer as a game's eligibility sees them: profile fields the rule
 * language reads (country, gender, kind, tier, attributes) and the
 * registration country customer_registration_countries is checked against,
 * read as carts read it. A play has no cart, so no points balance or vouchers
 * are needed.
 */
import type { CustomerState } from '@tally/engine';
import type { CustomerRecord } from '../customers/types.js';
import { ownCountry, registrationOf } from '../locations/registration.js';
import type { LocationStore } from '../locations/store.js';
import type { CompanySettings, Tenant } from '../tenancy/types.js';

export function playerState(
  record: CustomerRecord,
  settings: CompanySettings,
  locations: Pick<LocationStore, 'locationById' | 'locationByCode'>,
  tenant: Tenant,
  tier?: string,
): CustomerState {
  const profile = record.profile;
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  return {
    id: record.id,
    ...(record.code === undefined ? {} : { code: record.code }),
    country: ownCountry(profile, settings),
    registration_country: registrationOf(locations, tenant, profile, settings).country,
    gender: text(profile.gender),
    kind: text(profile.kind),
    tier,
    attributes: record.attributes,
  };
}
