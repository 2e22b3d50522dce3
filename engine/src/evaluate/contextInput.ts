/** Validates the evaluation context: clock, mode, seed, customer state, counters. */
import { invalidRequest } from '../errors.js';
import { idString } from '../ids.js';
import { parseInstant } from '../time/zonedDate.js';
import type { CampaignCounters, Context, CustomerState, HeldVoucher } from '../types.js';

export interface ContextInput {
  now: number;
  mode: 'simulate' | 'realtime';
  seed: string;
  customer: CustomerState | null;
  customerId: string | null;
  pointsAvailable: number;
  vouchers: readonly (HeldVoucher & { campaignId: string })[];
  counters: Readonly<Record<string, CampaignCounters>>;
  productFeatures: Readonly<Record<string, string[]>>;
}

const EMPTY = Object.freeze({});

export function readContext(context: Context): ContextInput {
  if (context === null || typeof context !== 'object') throw invalidRequest('context', 'must be an object');
  if (context.mode !== 'simulate' && context.mode !== 'realtime') throw invalidRequest('context.mode', "must be 'simulate' or 'realtime'");
  if (typeof context.seed !== 'string') throw invalidRequest('context.seed', 'must be a string');
  const customer = context.customer ?? null;
  const points = customer?.points_available ?? 0;
  if (!Number.isSafeInteger(points)) throw invalidRequest('context.customer.points_available', 'must be an integer');
  return {
    now: parseInstant(context.now, 'context.now'),
    mode: context.mode,
    seed: context.seed,
    customer,
    customerId: customer?.id === undefined || customer.id === null ? null : idString(customer.id, 'context.customer.id'),
    pointsAvailable: points,
    vouchers: (customer?.vouchers ?? []).map((voucher, i) => ({
      ...voucher,
      campaignId: idString(voucher.campaign_id, `context.customer.vouchers[${i}].campaign_id`),
    })),
    counters: context.counters ?? EMPTY,
    productFeatures: context.product_features ?? EMPTY,
  };
}

/** An identified customer: one the caller resolved to an id or a code. */
export function isIdentified(input: ContextInput): boolean {
  return input.customer !== null && (input.customerId !== null || typeof input.customer.code === 'string');
}
