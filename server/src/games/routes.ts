/**
 * Games: the back office (POST, PATCH /games, POST /games/{id}/assignments)
 * and the contract's GET /games, GET /games/{id} and POST /games/{id}/play.
 */
import { auditMention, auditTarget } from '../audit/context.js';
import { LmdbCampaignStore } from '../campaigns/store.js';
import { CartStore } from '../carts/store.js';
import { DrawSeeds } from '../carts/seed.js';
import type { ServerContext } from '../context.js';
import { LmdbCounterStore } from '../counters/store.js';
import { customerOwner } from '../customers/lookup.js';
import { CustomerStore } from '../customers/store.js';
import { ownedTarget } from '../http/duplicates.js';
import { invalidRequest } from '../http/errors.js';
import { InstantWinStore } from '../instant-wins/store.js';
import { optionalEnum, readPage, requireInt64 } from '../http/params.js';
import { ok, success, type Routes, type TallyRequest } from '../http/types.js';
import { validate } from '../http/validation.js';
import { wireDatetime, wireInt } from '../http/wire.js';
import { LocationStore } from '../locations/store.js';
import { customerNamedBy, requireUnmerged } from '../points/request.js';
import { allocateId } from '../store/ids.js';
import { changesNothing, unnumbered } from '../store/unchanged.js';
import { TierStore } from '../tiers/store.js';
import { customerOfQuery, optionalCustomer } from '../vouchers/customer.js';
import { LmdbVoucherStore } from '../vouchers/store.js';
import { passesFilters, readCampaignFilters, SEARCH_BY } from './list.js';
import { playerState } from './player.js';
import { gameNotFound, play, type PlaySources } from './play.js';
import { buildGame, type GameWrite } from './record.js';
import { GameStore } from './store.js';
import type { GameRecord } from './types.js';
import { gameView, playEffect } from './view.js';

export function gameRoutes({ env, duplicates }: ServerContext): Routes {
  const games = new GameStore(env);
  const campaigns = new LmdbCampaignStore(env);
  const instantWins = new InstantWinStore(env);
  const customers = new CustomerStore(env);
  const locations = new LocationStore(env);
  const counters = new LmdbCounterStore(env);
  const vouchers = new LmdbVoucherStore(env);
  const sources: PlaySources = {
    env, games, customers, counters,
    seeds: new DrawSeeds(env, new CartStore(env)),
    tiers: new TierStore(env),
    locations,
    delivery: { env, campaigns, vouchers },
  };
  const writer = (req: TallyRequest): GameWrite => ({
    tenant: req.tenant, settings: req.settings, games, campaigns, instantWins, now: wireDatetime(req.now),
    newId: (sequence) => allocateId(env, req.tenant, sequence),
  });
  const viewOf = (req: TallyRequest, record: GameRecord, single: boolean, loyaltyRuleHistoryId?: string) =>
    gameView(record, { tenant: req.tenant, language: req.language, settings: req.settings, counters, single, loyaltyRuleHistoryId });
  const existing = (req: TallyRequest) => {
    const id = requireInt64(req.params.id, 'id');
    const game = games.get(req.tenant, id);
    if (!game) throw gameNotFound('id', id);
    return game;
  };

  return {
    'games.create': (req) =>
      duplicates.suppress(req, 'games:create', async () => {
        const body = validate('games.create', req.body, req.settings);
        const stored = await env.transact(() => {
          const id = allocateId(env, req.tenant, 'campaigns');
          auditTarget(req, `game:${id}`);
          return games.putInTransaction(req.tenant, buildGame(writer(req), id, body));
        });
        return success({ id: wireInt(stored.id) });
      }),

    'games.update': (req) =>
      duplicates.suppress(req, `game:${requireInt64(req.params.id, 'id')}`, async () => {
        const body = validate('games.update', req.body, req.settings);
        const previous = existing(req);
        // An update of the values held writes nothing (no new version, no audit entry), judged on the game as read now.
        if (changesNothing(buildGame({ ...writer(req), newId: unnumbered }, previous.id, body, previous), previous)) return success({ id: wireInt(previous.id) });
        await env.transact(() => {
          const current = games.get(req.tenant, previous.id)!;
          games.putInTransaction(req.tenant, buildGame(writer(req), current.id, body, current), current);
        });
        return success({ id: wireInt(previous.id) });
      }),

    'games.assign': (req) => {
      const body = validate('games.assign', req.body);
      // The delivery goes when its customer is deleted: an identical assignment then delivers again.
      const owner = body.customer_id !== undefined
        ? customerOwner(customers, req.tenant, 'id', body.customer_id, 'customer_id')
        : customerOwner(customers, req.tenant, 'code', body.customer_code!, 'customer_code');
      return duplicates.suppress(req, ownedTarget(`game_assignment:${requireInt64(req.params.id, 'id')}`, owner), async () => {
        const game = existing(req);
        if (game.rule_params.select_customers !== 'targeted') throw invalidRequest('id', 'only targeted games are delivered to customers');
        const customer = optionalCustomer(customers, req.tenant, body)!;
        auditMention(req, customer.id);
        const id = await env.transact(() => {
          // A merged customer's deliveries went to the customer it was merged into and it cannot play: one given to
          // it now would be played by nobody. A merging one is refused too, as for cards (its deliveries are moving).
          requireUnmerged(customers, req.tenant, customer.id, customerNamedBy(body));
          const assignment = { id: allocateId(env, req.tenant, 'game_assignments'), game_id: game.id, customer_id: customer.id, created_at: wireDatetime(req.now), played_at: null };
          games.putAssignmentInTransaction(req.tenant, assignment);
          return assignment.id;
        });
        return success({ id: wireInt(id) });
      });
    },

    'games.list': async (req) => {
      const filters = readCampaignFilters(locations, req.tenant, req.query);
      const customer = customerOfQuery(customers, req.tenant, req.query);
      const page = games.page(req.tenant, readPage(req.query), (game) => {
        if (!passesFilters(game, filters, customer ? playerState(customer, req.settings, locations, req.tenant).registration_country : undefined)) return undefined;
        if (game.rule_params.select_customers !== 'targeted' || !customer) return viewOf(req, game, false);
        const delivery = games.openAssignments(req.tenant, customer.id, game.id)[0];
        return delivery ? viewOf(req, game, false, delivery.id) : undefined;
      });
      return ok(page);
    },

    'games.get': async (req) => {
      const by = optionalEnum(req.query.get('search_by'), 'search_by', SEARCH_BY) ?? 'loyalty_rule_id';
      const value = req.params.id;
      if (by === 'static_code') return ok(viewOf(req, found(games.byStaticCode(req.tenant, value), 'id', value), true));
      const id = requireInt64(value, 'id');
      if (by === 'loyalty_rule_id') return ok(viewOf(req, found(games.get(req.tenant, id), 'id', id), true));
      if (by === 'campaign_history_id') return ok(viewOf(req, found(games.getHistory(req.tenant, id), 'id', id), true));
      const assignment = games.assignment(req.tenant, id);
      const game = found(assignment && games.get(req.tenant, assignment.game_id), 'id', id);
      if (game.rule_params.select_customers !== 'targeted') {
        throw invalidRequest('search_by', 'loyalty_rule_history_id is valid only for targeted games');
      }
      return ok(viewOf(req, game, true, id));
    },

    'games.play': async (req) => {
      const body = validate('games.play', req.body);
      const result = await play(sources, req, existing(req), body);
      const effects = result ? [playEffect(result.game, result.play, req)] : [];
      return ok({ code: 'success', effects });
    },
  };
}

function found(game: GameRecord | undefined, field: string, value: string): GameRecord {
  if (!game) throw gameNotFound(field, value);
  return game;
}


