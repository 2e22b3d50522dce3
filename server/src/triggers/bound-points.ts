/**
 * Points of the campaigns an event (a trigger, a custom event) is bound to,
 * decided by the engine: each campaign is compiled as it is, except that its
 * effect becomes a fixed number of points (score_overwrite, else the sum of
 * its direct_value effects) and it applies to an event standing in for a
 * cart (one line of 1.00, the event's data as cart attributes). So targeting,
 * dates, recurrence, customer conditions, once limits and budgets work
 * exactly as on carts. Limits and budgets are checked again inside the
 * write transaction: a campaign whose counters moved meanwhile grants nothing.
 */
import { compileCampaigns, evaluateCart, type Campaign, type Effect, type Outcome, type Program } from '@tally/engine';
import { engineSettings } from '../campaigns/engine-settings.js';
import type { CampaignRecord } from '../campaigns/types.js';
import { buildContext, customerCounterKey, type ContextSources } from '../carts/context.js';
import type { CachedProgram } from '../carts/programs.js';
import type { CounterStore } from '../counters/store.js';
import type { CustomerRecord } from '../customers/types.js';
import type { CompanySettings, Tenant } from '../tenancy/types.js';
import { wireInt } from '../http/wire.js';
import type { StoreEnv } from '../store/env.js';
import { grantsFromCart, recordPoints, type PointsEntry } from '../points/ledger.js';
import { clockOf } from '../points/request.js';
import type { PointsTransaction } from '../points/types.js';

/** The points a campaign grants on its own: its direct_value effects (a ratio has no amount to apply to). */
export function campaignPoints(record: CampaignRecord): number {
  const effects = record.rule_params.rule_effects;
  const list = Array.isArray(effects) ? effects : [];
  let sum = 0;
  for (const e of list as { type?: unknown; value?: unknown }[]) {
    if (e && e.type === 'direct_value' && typeof e.value === 'number' && Number.isSafeInteger(e.value)) sum += e.value;
  }
  return sum;
}

function asFixedPoints(record: CampaignRecord, points: number): Campaign {
  const { rule_application: _application, ...params } = record.rule_params;
  return {
    // The engine echoes the id as given: a wire int answers as a JSON number.
    id: wireInt(record.id),
    type: 'points',
    rule_params: { ...params, rule_effects: [{ type: 'direct_value', value: points, distribution: 'total' }] },
  };
}

/** Flat scalar properties of the event's data, readable by campaign conditions as `attributes.<name>`. */
function flatAttributes(data: Record<string, unknown> | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(data ?? {})) {
    if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) out[name] = value;
  }
  return out;
}

export interface BoundEvent {
  customer: CustomerRecord;
  campaigns: readonly CampaignRecord[];
  /** Points instead of each campaign's own (score_overwrite). */
  overwrite?: number;
  /** When the event happened (points dates follow it). */
  at: string;
  data?: Record<string, unknown>;
}

export interface BoundOutcome {
  outcome: Outcome | null;
  program: Program | null;
}

/** Who and when: a request, or a background consumer of raised events. */
export interface EventScope {
  tenant: Tenant;
  settings: CompanySettings;
  now: Date;
}

export interface BoundDeps {
  env: StoreEnv;
  counters: CounterStore;
  sources: ContextSources;
}

export function evaluateBound(deps: BoundDeps, scope: EventScope, event: BoundEvent): BoundOutcome {
  const campaigns = event.campaigns
    .map((record) => ({ record, points: event.overwrite ?? campaignPoints(record) }))
    .filter((c) => c.points > 0)
    .map((c) => asFixedPoints(c.record, c.points));
  if (campaigns.length === 0) return { outcome: null, program: null };
  const program = compileCampaigns(campaigns, engineSettings(scope.settings));
  const cached: CachedProgram = {
    campaignVersion: 0,
    settingsVersion: scope.settings.version,
    program,
    counted: program.points
      .filter((c) => c.once !== null || c.budget !== null)
      .map((c) => ({ id: c.id, once: c.once, budget: c.budget, prizes: [] })),
  };
  const customer = { id: event.customer.id, code: event.customer.code ?? null, record: event.customer };
  const context = buildContext(deps.sources, scope.tenant, scope.settings, cached, customer, scope.now, 'realtime', `event:${event.customer.id}:${event.at}`);
  const cart = {
    creation_date: event.at,
    total: 1,
    customer_id: event.customer.id,
    lines: [{ order: 1, total: 1, quantity: 1 }],
    attributes: flatAttributes(event.data),
  };
  return { outcome: evaluateCart(program, cart, context), program };
}

/** Campaigns whose limit or budget no longer allows what the evaluation granted (checked inside the transaction). */
function overdrawn(deps: BoundDeps, scope: EventScope, outcome: Outcome, customerKey: string): Set<string> {
  const refused = new Set<string>();
  for (const limit of outcome.writes.limits) {
    const uses = deps.counters.uses(scope.tenant, String(limit.campaign_id), limit.period_key, customerKey);
    if (uses + limit.increment > limit.limit) refused.add(String(limit.campaign_id));
  }
  for (const budget of outcome.writes.budgets) {
    const spent = deps.counters.budgetSpent(scope.tenant, String(budget.campaign_id), budget.period_key);
    if (spent + budget.amount_cents > budget.budget_cents) refused.add(String(budget.campaign_id));
  }
  return refused;
}

export interface Granted {
  transaction: PointsTransaction | null;
  effects: Effect[];
}

/**
 * Inside `env.transact`: re-checks limits and budgets, consumes them and
 * records the points as one ledger transaction (`entry` gives its type and
 * its origin_info, built from the points granted). Returns the transaction (null when nothing was granted) and the
 * effects that held.
 */
export function grantInTransaction(
  deps: BoundDeps,
  scope: EventScope,
  customer: CustomerRecord,
  outcome: Outcome | null,
  entry: Pick<PointsEntry, 'type' | 'created_at' | 'location_id' | 'author'> & { origin: (points: number) => Record<string, unknown> },
): Granted {
  if (outcome === null) return { transaction: null, effects: [] };
  const key = customerCounterKey({ id: customer.id, code: customer.code ?? null })!;
  const refused = overdrawn(deps, scope, outcome, key);
  const holds = (campaignId: unknown) => !refused.has(String(campaignId));
  const effects = outcome.response.effects.filter((e) => holds(e.rule_id));
  for (const limit of outcome.writes.limits.filter((l) => holds(l.campaign_id))) {
    deps.counters.addUsesInTransaction(scope.tenant, String(limit.campaign_id), limit.period_key, key, limit.increment);
  }
  for (const budget of outcome.writes.budgets.filter((b) => holds(b.campaign_id))) {
    deps.counters.addBudgetInTransaction(scope.tenant, String(budget.campaign_id), budget.period_key, budget.amount_cents);
  }
  const grants = grantsFromCart(outcome.writes.points.filter((p) => holds(p.campaign_id)), effects);
  if (grants.length === 0) return { transaction: null, effects };
  const { origin, ...rest } = entry;
  const transaction = recordPoints(deps.env, scope.tenant, clockOf(scope), {
    ...rest,
    origin_info: origin(grants.reduce((sum, g) => sum + g.amount, 0)),
    customer_id: customer.id,
    customer_code: customer.code ?? null,
    grants,
  });
  return { transaction, effects };
}
