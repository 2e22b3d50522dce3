/**
 * POST /trigger (+ /scores/trigger): grants the points of the campaigns
 * bound to the trigger slug (binding.ts) whose conditions hold for the
 * customer, as one `trigger` points transaction.
 * - loyalty_rule_id (or its deprecated name loyalty_score_id) runs that one
 *   campaign; it must be a points campaign bound to the slug. Both may be
 *   sent when they name the same campaign.
 * - Without it, engine version 2 runs every bound campaign; version 1 runs
 *   one: the first, in priority then id order, that grants points.
 * - The instant wins bound to the slug are drawn on every trigger.
 * - Version 1 requires country; version 2 defaults it to the customer's.
 *   Campaigns' customer_registration_countries are checked against it.
 * - score_overwrite replaces the campaign's points and needs loyalty_rule_id.
 * The answer's customer is the balance the transaction left, read inside it
 * after the grant and the prizes (not after the commit, which may count later writes).
 */
import { TallyError, type Outcome } from '@tally/engine';
import type { CampaignStore } from '../campaigns/store.js';
import type { CustomerStore } from '../customers/store.js';
import { findCustomer } from '../customers/lookup.js';
import { invalidRequest, requiredWith } from '../http/errors.js';
import { ok, type Reply, type TallyRequest } from '../http/types.js';
import { validate } from '../http/validation.js';
import { wireDatetime, wireInt } from '../http/wire.js';
import type { InstantWinStore } from '../instant-wins/store.js';
import type { LocationStore } from '../locations/store.js';
import { registrationOf } from '../locations/registration.js';
import { customerPoints } from '../points/balance.js';
import { authorOf } from '../points/author.js';
import { readBalance } from '../points/ledger.js';
import { pointsAsMoney } from '../points/money.js';
import { clockOf, locationOf, requireUnmerged } from '../points/request.js';
import { CART_EVENT, isBoundToTrigger } from './binding.js';
import { answeredEffects, evaluateEvent, grantInTransaction, type Bound, type BoundDeps, type Evaluated } from './bound-points.js';

export interface TriggerStores {
  customers: CustomerStore;
  campaigns: CampaignStore;
  instantWins: InstantWinStore;
  locations: LocationStore;
}

/**
 * Keeps one points campaign's effects and writes, and every instant win's (engine version 1: one rule runs): the
 * other points campaigns' points, limits, budgets and the vouchers they used are not written. Stock and draws are
 * instant wins' only, all of which run.
 */
function onlyCampaign(outcome: Outcome, campaignId: string): Outcome {
  const { writes, response } = outcome;
  const others = new Set(response.effects.filter((e) => e.type === 'points' && String(e.rule_id) !== campaignId).map((e) => String(e.rule_id)));
  const kept = (x: { campaign_id: unknown }) => !others.has(String(x.campaign_id));
  return {
    response: { ...response, effects: response.effects.filter((e) => !others.has(String(e.rule_id))) },
    writes: {
      ...writes,
      points: writes.points.filter(kept),
      limits: writes.limits.filter(kept),
      budgets: writes.budgets.filter(kept),
      vouchers_used: writes.vouchers_used.filter(kept),
    },
  };
}

export async function trigger(deps: BoundDeps, stores: TriggerStores, req: TallyRequest): Promise<Reply> {
  const { customers, campaigns, instantWins, locations } = stores;
  const body = validate('triggers.trigger', req.body);
  if (body.trigger === CART_EVENT) throw invalidRequest('trigger', `${CART_EVENT} is the event of a cart: send the cart`);
  const version = req.settings.trigger_engine_version;
  if (version === 1 && body.country === undefined) throw invalidRequest('country', 'is required (trigger engine version 1)');
  const location = locationOf(locations, req, body);
  // A migrating integration may send both names: silently running one of two different campaigns would grant the wrong points.
  if (body.loyalty_rule_id !== undefined && body.loyalty_score_id !== undefined && body.loyalty_score_id !== body.loyalty_rule_id) {
    throw invalidRequest('loyalty_score_id', `is not loyalty_rule_id ${body.loyalty_rule_id} (send one of them)`);
  }
  const ruleId = body.loyalty_rule_id ?? body.loyalty_score_id;
  const ruleField = body.loyalty_rule_id !== undefined ? 'loyalty_rule_id' : 'loyalty_score_id';
  if (body.score_overwrite !== undefined && ruleId === undefined) throw requiredWith('loyalty_rule_id', 'score_overwrite');
  const author = authorOf(req);
  const customer = findCustomer(customers, req.tenant, 'id', body.customer_id, 'customer_id');
  // Read where it runs: inside the transaction, a campaign changed or deleted since is seen (and refused as it is now).
  const select = (): Bound => {
    const boundWins = instantWins.all(req.tenant).filter((record) => isBoundToTrigger(record.rule_params, body.trigger));
    if (ruleId === undefined) {
      return { campaigns: campaigns.all(req.tenant).filter((record) => record.type === 'points' && isBoundToTrigger(record.rule_params, body.trigger)), instantWins: boundWins };
    }
    const record = campaigns.get(req.tenant, ruleId);
    if (!record || record.type !== 'points') throw new TallyError('loyalty_rule_not_found', `${ruleField}: no points campaign ${ruleId}`, ruleField);
    if (!isBoundToTrigger(record.rule_params, body.trigger)) throw invalidRequest(ruleField, `campaign ${ruleId} is not bound to trigger ${body.trigger}`);
    return { campaigns: [record], instantWins: boundWins };
  };
  const at = wireDatetime(req.now);
  const event = {
    customer,
    overwrite: body.score_overwrite,
    at,
    // The request and its instant: a repeated trigger draws again; a replay (Idempotency-Key) answers the stored response.
    seed: await deps.seeds.seed(req.tenant, `${at}\n${req.rawBody}`),
    country: body.country,
    // Both identifiers, as carts give the rules (a location_code rule holds for a trigger sent by id).
    location: location === null ? undefined : { id: location.id, code: location.code ?? undefined },
  };
  // Engine version 1 without a campaign: only one rule runs, the first that grants points.
  const runOne = version === 1 && ruleId === undefined;
  const evaluate = (): Evaluated => {
    const evaluated = evaluateEvent(deps, req, event, select);
    const { evaluation } = evaluated;
    const first = evaluation?.outcome.response.effects.find((e) => e.type === 'points');
    return evaluation && runOne && first ? { ...evaluated, evaluation: { ...evaluation, outcome: onlyCampaign(evaluation.outcome, String(first.rule_id)) } } : evaluated;
  };
  const evaluation = evaluate();
  // The country the evaluation applied (version 2: the registration location's by default), recorded as applied.
  const country = body.country ?? registrationOf(locations, req.tenant, customer.profile, req.settings).country;
  const { granted, balance } = await deps.env.transact(() => {
    requireUnmerged(customers, req.tenant, customer.id, { field: 'customer_id', value: body.customer_id });
    const granted = grantInTransaction(deps, req, customer, evaluate, evaluation, {
      type: 'trigger',
      created_at: at,
      location_id: location?.id ?? null,
      origin_info: { comments: body.comments ?? null, slug: body.trigger, country },
      author,
    });
    return { granted, balance: readBalance(deps.env, req.tenant, customer.id, clockOf(req)) };
  });
  const scores = granted.transaction?.scores ?? [];
  const score = scores.reduce((sum, s) => sum + s.score, 0);
  const campaignId = scores[0]?.loyalty_score_id ?? ruleId ?? null;
  return ok({
    customer_code: customer.code ?? null,
    loyalty_score_id: campaignId === null ? null : wireInt(campaignId),
    score,
    score_as_money: pointsAsMoney(score, req.settings),
    customer: customerPoints(customer, balance),
    scores: scores.map((s) => ({
      score: s.score,
      loyalty_score_id: s.loyalty_score_id === null ? null : wireInt(s.loyalty_score_id),
      available_from: s.available_from,
      available_to: s.available_to,
    })),
    effects: answeredEffects(granted.effects, granted.bound, req),
  });
}
