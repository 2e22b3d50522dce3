/**
 * POST /points/transfer (+ /scores/transfer): moves available points from
 * one customer to another. Points of a campaign with `transferable: false`
 * never move; both customers must be active (customer_inactive), checked again
 * inside the write transaction (a merge committed meanwhile); asking more
 * than the transferable points is customer_not_enough_score, unless
 * allow_partial, which moves all of them. The receiver gets the points with
 * the dates they had, so they expire when they would have.
 */
import { TallyError } from '@tally/engine';
import { auditMention } from '../audit/context.js';
import type { CampaignStore } from '../campaigns/store.js';
import type { CustomerStore } from '../customers/store.js';
import { findCustomer } from '../customers/lookup.js';
import { invalidRequest } from '../http/errors.js';
import { ok, type Reply, type TallyRequest } from '../http/types.js';
import { validate } from '../http/validation.js';
import { wireDatetime, wireInt } from '../http/wire.js';
import type { StoreEnv } from '../store/env.js';
import type { Tenant } from '../tenancy/types.js';
import { authorOf } from './author.js';
import { readAvailableIn, recordPoints } from './ledger.js';
import { clockOf, requireActive, requireStillActive } from './request.js';
import type { Bucket } from './wallet.js';

/** Points of a campaign marked `transferable: false` stay with their customer; transferred points move again. */
export function transferableIn(campaigns: CampaignStore, tenant: Tenant): (b: Bucket) => boolean {
  const memo = new Map<string, boolean>();
  return (b) => {
    if (b.campaign_id === null) return true;
    let ok = memo.get(b.campaign_id);
    if (ok === undefined) memo.set(b.campaign_id, (ok = campaigns.get(tenant, b.campaign_id)?.rule_params.transferable !== false));
    return ok;
  };
}

export async function transfer(env: StoreEnv, customers: CustomerStore, campaigns: CampaignStore, req: TallyRequest): Promise<Reply> {
  const body = validate('points.transfer', req.body);
  if (body.from_customer_id === body.to_customer_id) throw invalidRequest('to_customer_id', 'must differ from from_customer_id');
  const author = authorOf(req);
  const from = findCustomer(customers, req.tenant, 'id', body.from_customer_id, 'from_customer_id');
  const to = findCustomer(customers, req.tenant, 'id', body.to_customer_id, 'to_customer_id');
  auditMention(req, from.id, to.id);
  requireActive(from, 'from_customer_id');
  requireActive(to, 'to_customer_id');
  const clock = clockOf(req);
  const at = wireDatetime(req.now);
  const eligible = transferableIn(campaigns, req.tenant);
  // An int64 (canonical digits): beyond 2^53 it is more than any balance holds (a balance is a safe integer).
  const asked = Math.min(Number(body.score), Number.MAX_SAFE_INTEGER);
  const origin = {
    comments: body.comments ?? null,
    from_customer_id: wireInt(from.id),
    to_customer_id: wireInt(to.id),
  };
  const moved = await env.transact(() => {
    requireStillActive(customers, req.tenant, from.id, { field: 'from_customer_id', value: body.from_customer_id });
    requireStillActive(customers, req.tenant, to.id, { field: 'to_customer_id', value: body.to_customer_id });
    const available = readAvailableIn(env, req.tenant, from.id, clock, eligible, asked);
    const score = asked <= available ? asked : body.allow_partial ? available : 0;
    if (score === 0) {
      throw new TallyError('customer_not_enough_score', `score: ${body.score} points asked, ${available} transferable`, 'score');
    }
    const out = recordPoints(env, req.tenant, clock, {
      type: 'transfer', customer_id: from.id, customer_code: from.code ?? null, created_at: at, origin_info: origin,
      spend: score, spendable: eligible, author,
    });
    recordPoints(env, req.tenant, clock, {
      type: 'transfer', customer_id: to.id, customer_code: to.code ?? null, created_at: at, origin_info: origin, author,
      grants: out.taken.map((t) => ({ campaign_id: t.loyalty_score_id, campaign_name: t.loyalty_score_name, amount: t.score, available_from: t.available_from, available_to: t.available_to })),
    });
    return score;
  });
  return ok({ from_customer_id: wireInt(from.id), to_customer_id: wireInt(to.id), score: moved, comments: body.comments ?? null, requested_scores: wireInt(body.score) });
}
