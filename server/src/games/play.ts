/**
 * POST /games/{id}/play. Eligibility, limits, the seeded draw, the stock and
 * the prize's delivery all happen in one write transaction: LMDB serialises
 * write transactions, so the counters a play reads are the ones it updates
 * and a stock of 5 gives exactly 5 prizes however many plays run at once.
 * A customer who may not play gets 200 with no effects; a play raises game.played.
 */
import { randomUUID } from 'node:crypto';
import { compileGame, periodKey, playGame, TallyError, type GamePlay } from '@tally/engine';
import { auditMention } from '../audit/context.js';
import { CompiledCache, versionOf } from '../campaigns/compiled.js';
import { engineSettings } from '../campaigns/engine-settings.js';
import type { DrawSeeds } from '../carts/seed.js';
import { prizeStockLeft, type CounterStore } from '../counters/store.js';
import type { CustomerStore } from '../customers/store.js';
import type { CustomerRecord } from '../customers/types.js';
import type { TallyRequest } from '../http/types.js';
import type { LocationStore } from '../locations/store.js';
import type { StoreEnv } from '../store/env.js';
import { allocateId } from '../store/ids.js';
import { tenantPrefix } from '../store/keys.js';
import { customerTier } from '../tiers/customer-tier.js';
import type { TierStore } from '../tiers/store.js';
import { optionalCustomer } from '../vouchers/customer.js';
import type { GamesPlay } from '../wire/types.js';
import { deliverable, deliverGamePrize, type PrizeDelivery } from './prize.js';
import { playerState } from './player.js';
import { engineGame } from './record.js';
import type { GameStore } from './store.js';
import type { GameAssignment, GamePlayRecord, GameRecord } from './types.js';
import { playEffect } from './view.js';
import { stringifyJson } from '../http/json.js';
import { wireDatetime, wireInt } from '../http/wire.js';
import { raiseEvent } from '../webhooks/outbox.js';

export interface PlaySources {
  env: StoreEnv;
  games: GameStore;
  customers: CustomerStore;
  counters: CounterStore;
  seeds: DrawSeeds;
  tiers: TierStore;
  locations: LocationStore;
  delivery: Omit<PrizeDelivery, 'tenant' | 'settings' | 'now'>;
}

export interface PlayResult {
  game: GameRecord;
  play: GamePlayRecord;
}

const compiledGames = new CompiledCache<ReturnType<typeof compileGame>>();

/** A play refused inside its transaction (returned, not thrown: it wrote nothing, so the audit log records nothing). */
const NOT_PLAYED = new Error('not played');

/** The play, or null when the customer may not play (the reply is then 200 with no effects). */
export async function play(sources: PlaySources, req: TallyRequest, game: GameRecord, body: GamesPlay): Promise<PlayResult | null> {
  const { tenant, settings } = req;
  const customer = optionalCustomer(sources.customers, tenant, body)!;
  auditMention(req, customer.id);
  if (customer.status !== 'active') return null;
  const targeted = game.rule_params.select_customers === 'targeted';
  if (targeted && openAssignment(sources, req, game, customer, body) === null) return null;
  const compiled = compiledGames.get(`${tenantPrefix(tenant)}:${versionOf(game)}:${settings.version}`, () => compileGame(engineGame(game), engineSettings(settings)));
  const seed = await sources.seeds.seed(tenant, `game:${game.id}:${customer.id}:${randomUUID()}`);
  const now = wireDatetime(req.now);
  const once = compiled.campaign.once;
  const usesKey = once ? periodKey(once.period, now, settings.timezone) : null;
  const played = await sources.env.transact((): PlayResult | Error => {
    // Read again inside the transaction: a merge or delete may have committed since (a merged or deleted customer's
    // prize would be stranded), a concurrent play may have used the assignment, the limit or the stock.
    const current = sources.customers.get(tenant, customer.id);
    if (current?.status !== 'active' || current.deleted_at !== undefined) return NOT_PLAYED;
    const assignment = targeted ? openAssignment(sources, req, game, customer, body) : null;
    if (targeted && assignment === null) return NOT_PLAYED;
    const prizeStock: Record<string, number> = {};
    for (const prize of game.game.prizes) prizeStock[prize.id] = prizeStockLeft(sources.counters, tenant, game.id, prize);
    const uses = usesKey === null ? 0 : sources.counters.uses(tenant, game.id, usesKey, customer.id);
    const drawn = playGame(compiled, { now, seed, customer: playerState(customer, settings, sources.locations, tenant, customerTier(sources.tiers, tenant, settings, customer, req.now)), uses, prize_stock: prizeStock });
    if (!drawn.eligible) return NOT_PLAYED;
    // A prize that cannot be delivered is not won: the play counts as a draw of no prize and takes no stock.
    const prize = drawn.status === 'won' ? game.game.prizes.find((p) => p.id === String(drawn.prize_id)) : undefined;
    const result = prize && !deliverable(sources.delivery.campaigns, tenant, prize)
      ? { ...drawn, status: 'no_prize' as const, prize_id: null, prize_index: null, stock: null }
      : drawn;
    if (result.limit) sources.counters.addUsesInTransaction(tenant, game.id, result.limit.period_key, customer.id, 1);
    if (result.stock) sources.counters.addStockConsumedInTransaction(tenant, game.id, String(result.stock.prize_id), 1);
    if (assignment) sources.games.putAssignmentInTransaction(tenant, { ...assignment, played_at: now });
    const record = playRecord(sources, req, game, customer, assignment, result, now);
    sources.games.putPlayInTransaction(tenant, record);
    // The play's answer, in the Company's default language, with the player (the answer does not name them).
    raiseEvent(sources.env, tenant, 'game.played', () => stringifyJson({
      customer_id: wireInt(customer.id), customer_code: customer.code ?? null, code: 'success', effects: [playEffect(game, record, { language: undefined, settings })],
    }), () => [customer.id]);
    return { game, play: record };
  });
  return played instanceof Error ? null : played;
}

function playRecord(
  sources: PlaySources, req: TallyRequest, game: GameRecord, customer: CustomerRecord,
  assignment: GameAssignment | null, result: Extract<GamePlay, { eligible: true }>, now: string,
): GamePlayRecord {
  const prizeId = result.prize_id === null ? null : String(result.prize_id);
  const prize = game.game.prizes.find((p) => p.id === prizeId);
  const delivery = result.status === 'won' && prize
    ? deliverGamePrize({ ...sources.delivery, tenant: req.tenant, settings: req.settings, now: req.now }, game, prize, customer.id, customer.code ?? null)
    : null;
  return {
    id: allocateId(sources.env, req.tenant, 'game_plays'),
    game_id: game.id,
    customer_id: customer.id,
    loyalty_rule_history_id: assignment?.id ?? null,
    seed: result.draw.seed,
    drawn: result.draw.drawn,
    status: result.status,
    prize_id: prizeId,
    delivery,
    created_at: now,
  };
}

/** The customer's unplayed assignment the request names, or null. */
function openAssignment(sources: PlaySources, req: TallyRequest, game: GameRecord, customer: CustomerRecord, body: GamesPlay): GameAssignment | null {
  if (body.loyalty_rule_history_id === undefined) return null;
  const assignment = sources.games.assignment(req.tenant, body.loyalty_rule_history_id);
  const matches = assignment && assignment.game_id === game.id && assignment.customer_id === customer.id && assignment.played_at === null;
  return matches ? assignment : null;
}

export function gameNotFound(field: string, value: string): TallyError {
  return new TallyError('game_not_found', `${field}: no game ${value}`, field);
}
