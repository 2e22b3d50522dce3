/**
 * A customer's registration country and currency, as carts, triggers and
 * campaign lists read it (customer_registration_countries, `international`).
 */
import { currencyOf } from '@tally/engine';
import { invalidRequest } from '../http/errors.js';
import type { CompanySettings, Tenant } from '../tenancy/types.js';
import type { LocationStore } from './store.js';

/** The customer's own country (its profile's), else the Company's. */
export function ownCountry(profile: Record<string, unknown>, settings: CompanySettings): string {
  return typeof profile.country === 'string' ? profile.country : settings.country;
}

/**
 * The customer's registration country and its currency (customer_registration_countries,
 * `international`): the registration location's, else the customer's country, else the Company's.
 */
export function registrationOf(locations: Pick<LocationStore, 'locationById' | 'locationByCode'>, tenant: Tenant, profile: Record<string, unknown>, settings: CompanySettings) {
  const { registration_location_id: id, registration_location_code: code } = profile;
  const location =
    typeof id === 'string' ? locations.locationById(tenant, id)
    : typeof code === 'string' ? locations.locationByCode(tenant, code)
    : undefined;
  if (location) return { country: location.country, currency: location.currency };
  const country = ownCountry(profile, settings);
  return { country, currency: currencyOf(country) ?? settings.currency };
}

/**
 * A registration location sent both ways must be one location when company data has it (400 naming
 * registration_location_code, as a trigger's location pair); a location not stored is taken as sent.
 */
export function checkRegistrationPair(locations: Pick<LocationStore, 'locationById'>, tenant: Tenant, body: { registration_location_id?: string | null; registration_location_code?: string | null }): void {
  const { registration_location_id: id, registration_location_code: code } = body;
  if (typeof id !== 'string' || typeof code !== 'string') return;
  const location = locations.locationById(tenant, id);
  if (location && location.code !== code) throw invalidRequest('registration_location_code', `is not the code of location ${location.id}`);
}
