/**
 * Test helpers for vouchers that expire once issued: POST /discounts/trigger refuses a voucher already expired
 * (voucher_expired), so an expired one is issued with a coupon that ends a few seconds later, then waited out.
 */

/** A coupon's available_to three seconds from now, to the second (at least two seconds to issue its vouchers). */
export function endingSoon(): string {
  return new Date(Date.now() + 3000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** Resolves once `instant` (an ISO datetime) has passed. */
export async function passed(instant: string): Promise<void> {
  const wait = Date.parse(instant) + 50 - Date.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
}
