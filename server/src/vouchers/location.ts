/**
 * voucher_out_location: a voucher can be used only where its campaign's
 * conditions allow (the positive `location_id` / `location_code` leaves).
 * A location the request names is matched by id and by code (the code of a
 * known location id, the id of a known code).
 */
import { TallyError } from '@tally/engine';
import { ruleValues } from '../campaigns/rule-values.js';
import type { CampaignRecord } from '../campaigns/types.js';
import { cannotBeSentWith } from '../http/errors.js';
import type { LocationStore } from '../locations/store.js';
import type { Tenant } from '../tenancy/types.js';

export interface LocationRef {
  id?: string;
  code?: string;
}

/** The location of a request (location_id or location_code, at most one), completed from company data when known. */
export function requestLocation(locations: LocationStore, tenant: Tenant, ref: LocationRef): LocationRef | undefined {
  if (ref.id !== undefined && ref.code !== undefined) throw cannotBeSentWith('location_code', 'location_id');
  if (ref.id !== undefined) return { id: ref.id, code: locations.locationById(tenant, ref.id)?.code ?? undefined };
  if (ref.code !== undefined) return { id: locations.locationByCode(tenant, ref.code)?.id, code: ref.code };
  return undefined;
}

export function locationRefusal(campaign: CampaignRecord, location: LocationRef, code: string): TallyError | null {
  const ids = ruleValues(campaign.rule_params.rule_conditions, 'location_id');
  const codes = ruleValues(campaign.rule_params.rule_conditions, 'location_code');
  if (ids === null && codes === null) return null;
  const byId = location.id !== undefined && ids !== null && ids.includes(location.id);
  const byCode = location.code !== undefined && codes !== null && codes.includes(location.code);
  if (byId || byCode) return null;
  const where = location.code ?? location.id;
  return new TallyError('voucher_out_location', `voucher ${code}: cannot be used at location ${where}`);
}
