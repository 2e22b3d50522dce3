/**
 * A coupon's static code names one campaign of a Company environment, whatever
 * its kind: carts, vouchers and `search_by=static_code` look campaigns up by it,
 * and discount, points and instant-win campaigns compile into one program.
 * Ids come from one sequence, so an id names one campaign across kinds too.
 */
import { invalidRequest } from '../http/errors.js';
import type { Tenant } from '../tenancy/types.js';

export interface StaticCodeHolders {
  byStaticCode(tenant: Tenant, staticCode: string): { id: string } | undefined;
}

/** Throws invalid_request when another campaign of any kind holds `code`. */
export function checkStaticCodeFree(holders: readonly StaticCodeHolders[], tenant: Tenant, code: string | null | undefined, ownId: string | undefined): void {
  if (code === null || code === undefined) return;
  for (const store of holders) {
    const holder = store.byStaticCode(tenant, code);
    if (holder && holder.id !== ownId) throw invalidRequest('coupon_params.static_code', `is already used by campaign ${holder.id}`);
  }
}
