/**
 * What an event (a trigger, a custom event) grants: the points of the points
 * campaigns bound to it and the draws of the instant wins bound to it,
 * decided by the engine. Each points campaign is compiled as it is, except
 * that its effect becomes a fixed number of points (score_overwrite, else its
 * direct_value points: a ratio has nothing to apply to), and the event stands
 * in for a cart (one line of 1.00, the event's flat data as cart attributes,
 * its location when it has one, every usable voucher of the customer
 * desired). So targeting (a targeted campaign or instant win takes part with
 * the customer's voucher, which it spends), dates, recurrence, location and
 * customer conditions, once limits, budgets and prize stock work exactly as
 * on carts.
 *
 * The evaluation runs on a snapshot; inside the write transaction the
 * campaigns' version and every budget, limit and stock (a reward won as a
 * prize included) it relied on are checked again and, if a campaign changed
 * (switched off, ended, its budget or limit lowered) or a counter moved, the
 * bound campaigns are read and the event evaluated again on the transaction's
 * own view (as realtime carts do), so concurrent events never overspend and
 * a campaign changed meanwhile grants only as it is now. Checks come before
 * any write.
 */
import { compileEachCampaign, evaluateCart, type Campaign, type Effect, type Outcome } from '@tally/engine';
import { CompiledCache, versionOf } from '../campaigns/compiled.js';
import { engineSettings } from '../campaigns/engine-settings.js';
import { programCampaign, toEngineCampaign, translatedTexts, type CampaignStore } from '../campaigns/store.js';
import type { CampaignRecord } from '../campaigns/types.js';
import { buildContext, customerCounterKey, type ContextSources } from '../carts/context.js';
import { localizedEffects } from '../carts/present.js';
import { describeProgram, type CountedCampaign, type OnCompile } from '../carts/programs.js';
import type { DrawSeeds } from '../carts/seed.js';
import { countersStillAllow } from '../counters/recheck.js';
import type { CounterStore } from '../counters/store.js';
import type { CustomerRecord } from '../customers/types.js';
import { wireInt } from '../http/wire.js';
import { deliverPrizes } from '../instant-wins/deliver.js';
import { fixedPoints } from '../instant-wins/points-prize.js';
import { toEngineInstantWin } from '../instant-wins/store.js';
import type { InstantWinRecord } from '../instant-wins/types.js';
import { grantsFromCart, recordPoints, type PointsEntry } from '../points/ledger.js';
import { clockOf } from '../points/request.js';
import type { PointsTransaction } from '../points/types.js';
import type { StoreEnv } from '../store/env.js';
import { tenantPrefix } from '../store/keys.js';
import type { CompanySettings, Tenant } from '../tenancy/types.js';
import { isUsable } from '../vouchers/status.js';
import { raiseVoucherEvent } from '../vouchers/events.js';
import { afterUse } from '../vouchers/use.js';

/**
 * The effects as a trigger or custom event answers them: campaign, instant-win and coupon names in the request's
 * language (common rule 7), as cart answers give them; the points transaction keeps the default names.
 */
export function answeredEffects(effects: Effect[], bound: Bound, request: { language: string | undefined; settings: CompanySettings }): Effect[] {
  const { language, settings } = request;
  if (language === undefined || language === settings.default_language) return effects;
  const texts = translatedTexts([...bound.campaigns, ...bound.instantWins]);
  return texts.size === 0 ? effects : localizedEffects(effects, texts, language, settings);
}

/** Who and when: a request, or a background consumer of raised events. */
export interface EventScope {
  tenant: Tenant;
  settings: CompanySettings;
  now: Date;
}

export interface BoundDeps {
  env: StoreEnv;
  /** Its version, bumped by any campaign or instant-win change, tells the transaction whether the evaluation's campaigns are still current. */
  campaigns: CampaignStore;
  counters: CounterStore;
  sources: ContextSources;
  seeds: DrawSeeds;
  /** Told of the bound campaigns left out of a program because they no longer compile (carts/programs.ts logLeftOut). */
  onCompile: OnCompile;
}

/** The points campaigns and instant wins bound to an event. */
export interface Bound {
  campaigns: readonly CampaignRecord[];
  instantWins: readonly InstantWinRecord[];
}

export interface BoundEvent extends Bound {
  customer: CustomerRecord;
  /** Points instead of each campaign's own (score_overwrite). */
  overwrite?: number;
  /** When the event happened: its points' dates, its targeting and its vouchers' dates follow it, as a cart's creation_date. */
  at: string;
  data?: Record<string, unknown>;
  /** Seed of the instant-win draws (DrawSeeds: a per-Company secret over the event). */
  seed: string;
  /** The country campaigns' customer_registration_countries are checked against (a trigger's `country`); default the customer's. */
  country?: string;
  /** Where the event happened (a trigger's location), for campaigns' location rules. */
  location?: { id: string; code?: string };
}

export interface Evaluation {
  outcome: Outcome;
  /** The campaigns with limits, budgets or stock, for the re-check. */
  counted: CountedCampaign[];
  /** The event's date, at which the vouchers it uses were judged (the re-check judges them there too). */
  at: string;
}

/** An event's evaluation with what it relied on: the campaigns' version and what is bound to the event, read in one snapshot. */
export interface Evaluated {
  version: number;
  bound: Bound;
  /** Null when nothing is bound to the event. */
  evaluation: Evaluation | null;
}

/**
 * Reads what is bound to the event (`select`) with the campaigns' version, in one synchronous turn (one snapshot;
 * inside a transaction, its view), and evaluates the event with it.
 */
export function evaluateEvent(deps: BoundDeps, scope: EventScope, event: Omit<BoundEvent, keyof Bound>, select: () => Bound): Evaluated {
  const version = deps.campaigns.version(scope.tenant);
  const bound = select();
  return { version, bound, evaluation: evaluateBound(deps, scope, { ...event, ...bound }) };
}

function asFixedPoints(record: CampaignRecord, points: number, settings: CompanySettings): Campaign {
  // Compiled as carts compile it (toEngineCampaign): coupon_info names its coupon, and an inactive coupon is no coupon.
  const campaign = toEngineCampaign(record);
  const { rule_application: _application, ...params } = campaign.rule_params;
  const fixed = { ...campaign, rule_params: { ...params, rule_effects: [{ type: 'direct_value', value: points, distribution: 'total' }] } };
  return programCampaign(fixed, record.texts, settings);
}

/** Flat scalar properties of the event's data, readable by campaign conditions as `attributes.<name>`. */
function flatAttributes(data: Record<string, unknown> | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(data ?? {})) {
    // bigint: an integer beyond 2^53, kept exact (conditions compare it exactly).
    if (value === null || ['string', 'number', 'bigint', 'boolean'].includes(typeof value)) out[name] = value;
  }
  return out;
}

const programs = new CompiledCache<ReturnType<typeof describeProgram>>();

/** Evaluates the event; null when nothing is bound to it. Reads counters and balance where it runs (inside a transaction: its view). */
function evaluateBound(deps: BoundDeps, scope: EventScope, event: BoundEvent): Evaluation | null {
  const amounts = event.campaigns.map((record) => event.overwrite ?? fixedPoints(record) ?? 0);
  if (event.instantWins.length === 0 && !amounts.some((amount) => amount > 0)) return null;
  // The points (score_overwrite) are part of the program: an overwrite compiles once per value.
  const key = [tenantPrefix(scope.tenant), scope.settings.version, event.overwrite ?? '', ...event.campaigns.map(versionOf), '|', ...event.instantWins.map(versionOf)].join(':');
  const cached = programs.get(key, () => {
    const points = event.campaigns.flatMap((record, i) => (amounts[i] > 0 ? [asFixedPoints(record, amounts[i], scope.settings)] : []));
    const instantWins = event.instantWins.map((record) => ({ ...toEngineInstantWin(record), id: wireInt(record.id) }));
    const campaigns = [...points, ...instantWins];
    // Campaign by campaign, as a cart's program: one stored before a stricter rule is left out, the others still apply.
    const { program, failures } = compileEachCampaign(campaigns, engineSettings(scope.settings));
    deps.onCompile(tenantPrefix(scope.tenant), 0, failures);
    return describeProgram(program, campaigns, { campaignVersion: 0, settingsVersion: scope.settings.version });
  });
  const customer = { id: event.customer.id, code: event.customer.code ?? null, record: event.customer };
  const built = buildContext(deps.sources, scope.tenant, scope.settings, cached, customer, scope.now, 'realtime', event.seed, { saleAt: event.at });
  const context = event.country === undefined || !built.customer ? built : { ...built, customer: { ...built.customer, registration_country: event.country } };
  const cart = {
    creation_date: event.at,
    total: 1,
    customer_id: event.customer.id,
    lines: [{ order: 1, total: 1, quantity: 1 }],
    ...(event.location && { location_id: event.location.id, location_code: event.location.code }),
    attributes: flatAttributes(event.data),
    // An event names no coupon: the customer's vouchers of the bound targeted campaigns take part.
    coupons_desired: 'all' as const,
  };
  return { outcome: evaluateCart(cached.program, cart, context), counted: cached.counted, at: event.at };
}

/** Whether every counter and voucher the evaluation relied on still allows its writes. */
function stillAllowed(deps: BoundDeps, scope: EventScope, evaluation: Evaluation, customerKey: string, customerId: string): boolean {
  const { writes } = evaluation.outcome;
  if (!countersStillAllow(deps.env, deps.counters, scope, { key: customerKey, id: customerId }, evaluation.counted, writes)) return false;
  return writes.vouchers_used.every((used) => {
    const voucher = deps.sources.vouchers.byCode(scope.tenant, used.voucher_code);
    return voucher !== undefined && isUsable(voucher, evaluation.at, scope.settings.timezone);
  });
}

export interface Granted {
  transaction: PointsTransaction | null;
  effects: Effect[];
  /** The points campaigns and instant wins the grant was evaluated with (the answer names them). */
  bound: Bound;
}

/**
 * Inside `env.transact`: re-checks (re-evaluating with the campaigns as they are now when one changed or a
 * counter moved; `evaluate` reads them where it runs, so a trigger's loyalty_rule_id rebound meanwhile throws its error),
 * consumes budgets, limits and stock, records the points as one ledger
 * transaction (`entry` gives its type and origin_info) and delivers the
 * prizes won (their own transactions, of the same type and origin). Returns the transaction (null
 * when no points were granted) and the effects.
 */
export function grantInTransaction(
  deps: BoundDeps,
  scope: EventScope,
  customer: CustomerRecord,
  evaluate: () => Evaluated,
  first: Evaluated,
  entry: Pick<PointsEntry, 'type' | 'created_at' | 'location_id' | 'author'> & {
    origin_info: Record<string, unknown>;
    /** custom_entity: origin_info also holds the points granted (`score`). */
    scoreInOrigin?: boolean;
  },
): Granted {
  const key = customerCounterKey({ id: customer.id, code: customer.code ?? null })!;
  const current = deps.campaigns.version(scope.tenant) === first.version && (first.evaluation === null || stillAllowed(deps, scope, first.evaluation, key, customer.id));
  const { evaluation, bound } = current ? first : evaluate();
  if (evaluation === null) return { transaction: null, effects: [], bound };
  const { writes, response } = evaluation.outcome;
  const { counters } = deps;
  for (const limit of writes.limits) counters.addUsesInTransaction(scope.tenant, String(limit.campaign_id), limit.period_key, key, limit.increment);
  for (const budget of writes.budgets) counters.addBudgetInTransaction(scope.tenant, String(budget.campaign_id), budget.period_key, budget.amount_cents);
  for (const stock of writes.stock) counters.addStockConsumedInTransaction(scope.tenant, String(stock.campaign_id), String(stock.prize_id), stock.amount);
  for (const used of writes.vouchers_used) {
    const voucher = deps.sources.vouchers.byCode(scope.tenant, used.voucher_code);
    if (!voucher) continue;
    deps.sources.vouchers.putInTransaction(scope.tenant, afterUse(voucher));
    raiseVoucherEvent(deps.env, scope.tenant, scope.settings, scope.now, 'voucher.redeemed', voucher.id);
  }
  const grants = grantsFromCart(writes.points, response.effects);
  const { scoreInOrigin, ...rest } = entry;
  const who = { customer_id: customer.id, customer_code: customer.code ?? null };
  const score = grants.reduce((sum, g) => sum + g.amount, 0);
  const origin_info = scoreInOrigin ? { score, ...entry.origin_info } : entry.origin_info;
  const transaction = grants.length === 0 ? null : recordPoints(deps.env, scope.tenant, clockOf(scope), { ...rest, ...who, origin_info, grants });
  deliverPrizes(deps.env, {
    tenant: scope.tenant,
    settings: scope.settings,
    now: scope.now,
    customer: { id: customer.id, code: customer.code ?? null },
    origin: { type: entry.type, origin_info: entry.origin_info, scoreInOrigin, location_id: entry.location_id === undefined || entry.location_id === null ? null : String(entry.location_id) },
  }, writes.draws);
  return { transaction, effects: response.effects, bound };
}
