/**
 * Instant wins: the back office (POST, PATCH /instant_wins) and the
 * contract's GET /instant_wins and GET /instant_wins/{id}. No call plays an
 * instant win: carts, triggers and custom events do (deliver.ts).
 */
import { auditTarget } from '../audit/context.js';
import { TallyError } from '@tally/engine';
import { LmdbCampaignStore } from '../campaigns/store.js';
import type { ServerContext } from '../context.js';
import { LmdbCounterStore } from '../counters/store.js';
import { CustomerStore } from '../customers/store.js';
import type { CustomerRecord } from '../customers/types.js';
import { invalidRequest } from '../http/errors.js';
import { passesFilters, readCampaignFilters, SEARCH_BY } from '../games/list.js';
import { playerState } from '../games/player.js';
import { GameStore } from '../games/store.js';
import { optionalEnum, readPage, requireInt64 } from '../http/params.js';
import { ok, success, type Routes, type TallyRequest } from '../http/types.js';
import { validate } from '../http/validation.js';
import { wireDatetime, wireInt } from '../http/wire.js';
import { LocationStore } from '../locations/store.js';
import { RewardStore } from '../rewards/store.js';
import { allocateId } from '../store/ids.js';
import { changesNothing, unnumbered } from '../store/unchanged.js';
import { customerOfQuery } from '../vouchers/customer.js';
import { LmdbVoucherStore } from '../vouchers/store.js';
import type { InstantWinsUpdate } from '../wire/types.js';
import { buildInstantWin, type InstantWinWrite } from './record.js';
import { InstantWinStore } from './store.js';
import type { InstantWinRecord } from './types.js';
import { instantWinView } from './view.js';

function notFound(field: string, value: string): TallyError {
  return new TallyError('instant_win_not_found', `${field}: no instant win ${value}`, field);
}

export function instantWinRoutes({ env, duplicates }: ServerContext): Routes {
  const instantWins = new InstantWinStore(env);
  const campaigns = new LmdbCampaignStore(env);
  const games = new GameStore(env);
  const customers = new CustomerStore(env);
  const locations = new LocationStore(env);
  const counters = new LmdbCounterStore(env);
  const vouchers = new LmdbVoucherStore(env);
  const rewards = new RewardStore(env);
  const writer = (req: TallyRequest): InstantWinWrite => ({
    tenant: req.tenant, settings: req.settings, instantWins, campaigns, games, rewards, now: wireDatetime(req.now),
    newId: (sequence) => allocateId(env, req.tenant, sequence),
  });
  /**
   * Writes a version and bumps the campaigns' version in the same transaction: the cart workers recompile. An update
   * that changes nothing writes neither (the store answers `previous`).
   */
  const save = (req: TallyRequest, id: string, body: InstantWinsUpdate, previous?: InstantWinRecord) => {
    const stored = instantWins.putInTransaction(req.tenant, buildInstantWin(writer(req), id, body, previous), previous);
    if (stored !== previous) campaigns.bumpVersionInTransaction(req.tenant);
    return stored;
  };
  /** The customer's usable voucher of a targeted instant win (that voucher, when `voucherId` names one): its delivery. */
  const deliveryOf = (req: TallyRequest, record: InstantWinRecord, customer: CustomerRecord, voucherId?: string) =>
    vouchers.held(req.tenant, customer.id, req.now.toISOString(), req.settings.timezone)
      .find((v) => String(v.campaign_id) === record.id && (voucherId === undefined || String(v.voucher_id) === voucherId));
  const viewOf = (req: TallyRequest, record: InstantWinRecord, single: boolean, customer: CustomerRecord | undefined, loyaltyRuleHistoryId?: string) =>
    instantWinView(record, {
      tenant: req.tenant, language: req.language, settings: req.settings, counters, now: req.now,
      customerId: customer?.id, loyaltyRuleHistoryId, single,
    });

  const find = (req: TallyRequest, by: (typeof SEARCH_BY)[number], value: string): InstantWinRecord => {
    if (by === 'static_code') return instantWins.byStaticCode(req.tenant, value) ?? fail(value);
    const id = requireInt64(value, 'id');
    if (by === 'loyalty_rule_id') return instantWins.get(req.tenant, id) ?? fail(id);
    if (by === 'campaign_history_id') return instantWins.getHistory(req.tenant, id) ?? fail(id);
    // A targeted instant win is delivered as a voucher of the campaign: the voucher's id names the delivery.
    const voucher = vouchers.get(req.tenant, id);
    const record = (voucher && instantWins.get(req.tenant, voucher.campaign_id)) ?? fail(id);
    if (record.rule_params.select_customers !== 'targeted') {
      throw invalidRequest('search_by', 'loyalty_rule_history_id is valid only for targeted instant wins');
    }
    return record;
  };

  return {
    'instant_wins.create': (req) =>
      duplicates.suppress(req, 'instant_wins:create', async () => {
        const body = validate('instant_wins.create', req.body, req.settings);
        const stored = await env.transact(() => {
          const id = allocateId(env, req.tenant, 'campaigns');
          auditTarget(req, `instant_win:${id}`);
          return save(req, id, body);
        });
        return success({ id: wireInt(stored.id) });
      }),

    'instant_wins.update': (req) => {
      const id = requireInt64(req.params.id, 'id');
      return duplicates.suppress(req, `instant_win:${id}`, async () => {
        const body = validate('instant_wins.update', req.body, req.settings);
        const previous = instantWins.get(req.tenant, id);
        if (!previous) throw notFound('id', id);
        // An update of the values held writes nothing (no new version, no audit entry), judged on the record as read now.
        if (changesNothing(buildInstantWin({ ...writer(req), newId: unnumbered }, id, body, previous), previous)) return success({ id: wireInt(id) });
        await env.transact(() => save(req, id, body, instantWins.get(req.tenant, id)));
        return success({ id: wireInt(id) });
      });
    },

    'instant_wins.list': async (req) => {
      const filters = readCampaignFilters(locations, req.tenant, req.query);
      const customer = customerOfQuery(customers, req.tenant, req.query);
      const country = customer ? playerState(customer, req.settings, locations, req.tenant).registration_country : undefined;
      const page = instantWins.page(req.tenant, readPage(req.query), (record) => {
        if (!passesFilters(record, filters, country)) return undefined;
        if (record.rule_params.select_customers !== 'targeted' || !customer) return viewOf(req, record, false, customer);
        const delivery = deliveryOf(req, record, customer);
        return delivery ? viewOf(req, record, false, customer, String(delivery.voucher_id)) : undefined;
      });
      return ok(page);
    },

    'instant_wins.get': async (req) => {
      const by = optionalEnum(req.query.get('search_by'), 'search_by', SEARCH_BY) ?? 'loyalty_rule_id';
      const filters = readCampaignFilters(locations, req.tenant, req.query);
      const customer = customerOfQuery(customers, req.tenant, req.query);
      const value = req.params.id;
      const record = find(req, by, value);
      // The location, country and tier filters ask whether the campaign runs there: one that does not is not found there.
      if (!passesFilters(record, filters, customer ? playerState(customer, req.settings, locations, req.tenant).registration_country : undefined)) {
        throw new TallyError('instant_win_not_found', `id: instant win ${value} does not run for the location, countries, tier or customer asked`, 'id');
      }
      // A targeted one runs for a customer only with the customer's delivery, as the list says (by history id: that one).
      const historyId = by === 'loyalty_rule_history_id' ? requireInt64(value, 'id') : undefined;
      const forCustomer = record.rule_params.select_customers === 'targeted' ? customer : undefined;
      const delivery = forCustomer && deliveryOf(req, record, forCustomer, historyId);
      if (forCustomer && !delivery) {
        throw new TallyError('instant_win_not_found', `id: instant win ${value} is targeted, and customer ${forCustomer.id} holds no usable delivery of it`, 'id');
      }
      return ok(viewOf(req, record, true, customer, historyId ?? (delivery ? String(delivery.voucher_id) : undefined)));
    },
  };
}


function fail(value: string): never {
  throw notFound('id', value);
}
