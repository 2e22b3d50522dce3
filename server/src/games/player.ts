/**
 * The customer as a game's eligibility sees them: profile fields the rule
 * language reads (country, gender, kind, tier, attributes). A play has no
 * cart, so no points balance or vouchers are needed.
 */
import type { CustomerState } from '@tally/engine';
import type { CustomerRecord } from '../customers/types.js';
import type { CompanySettings } from '../tenancy/types.js';

export function playerState(record: CustomerRecord, settings: CompanySettings, tier?: string): CustomerState {
  const profile = record.profile;
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  const country = text(profile.country) ?? settings.country;
  return {
    id: record.id,
    ...(record.code === undefined ? {} : { code: record.code }),
    country,
    registration_country: country,
    gender: text(profile.gender),
    kind: text(profile.kind),
    tier,
    attributes: record.attributes,
  };
}
