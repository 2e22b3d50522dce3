/**
 * Rewards: the back office (POST, PATCH /rewards) and the contract's GET
 * /rewards, GET /rewards/{id}, POST /rewards/{id}/redeem, GET
 * /rewards/transactions and POST /rewards/transactions/{id}/rollback (with
 * their /redemptions aliases, in the routing table).
 */
import { AssociationStore } from '../associations/store.js';
import { auditMention, auditTarget } from '../audit/context.js';
import { TallyError } from '@tally/engine';
import { LmdbCampaignStore } from '../campaigns/store.js';
import type { ServerContext } from '../context.js';
import { findAccountHolder, findCustomer } from '../customers/lookup.js';
import { CustomerStore } from '../customers/store.js';
import type { CustomerRecord } from '../customers/types.js';
import { cannotBeSentWith, requiredOr, requiredWith } from '../http/errors.js';
import { atMostOne, exactlyOne, optionalCode, optionalEnum, optionalInt64, readPage, requireInt64 } from '../http/params.js';
import { ok, success, type Routes, type TallyRequest } from '../http/types.js';
import { validate } from '../http/validation.js';
import { wireDatetime, wireInt } from '../http/wire.js';
import { LocationStore } from '../locations/store.js';
import type { LocationRecord } from '../locations/types.js';
import { customerPoints } from '../points/balance.js';
import { readBalance } from '../points/ledger.js';
import { clockOf, foundLocation, locationOf, requireActive } from '../points/request.js';
import { allocateId } from '../store/ids.js';
import { changesNothing } from '../store/unchanged.js';
import { TierStore } from '../tiers/store.js';
import { LmdbVoucherStore } from '../vouchers/store.js';
import type { RewardsRedeem } from '../wire/types.js';
import { customerCountry, missingConditions } from './eligibility.js';
import { passes, readFilters, type Scope } from './list.js';
import { buildReward, type RewardWrite } from './record.js';
import { redeemReward } from './redeem.js';
import { rollbackRedemption } from './rollback.js';
import { RewardStore } from './store.js';
import { REDEMPTION_STATUSES, type RewardRecord } from './types.js';
import { redemptionView, rewardView, type ViewContext } from './view.js';

export function rewardRoutes({ env, duplicates }: ServerContext): Routes {
  const rewards = new RewardStore(env);
  const campaigns = new LmdbCampaignStore(env);
  const tiers = new TierStore(env);
  const customers = new CustomerStore(env);
  const associations = new AssociationStore(env);
  const locations = new LocationStore(env);
  const vouchers = new LmdbVoucherStore(env);
  const stores = { env, rewards, campaigns, tiers, vouchers, customers };

  const writer = (req: TallyRequest): RewardWrite => ({ tenant: req.tenant, campaigns, tiers, now: wireDatetime(req.now) });
  const viewContext = (req: TallyRequest): ViewContext => ({ tenant: req.tenant, language: req.language, settings: req.settings, rewards, campaigns });
  const existing = (req: TallyRequest): RewardRecord => {
    const id = requireInt64(req.params.id, 'id');
    const reward = rewards.get(req.tenant, id);
    if (!reward) throw new TallyError('reward_not_found', `id: no reward ${id}`, 'id');
    return reward;
  };
  /** can_redeem and missing_redeem_conditions of rewards for a customer (its balance read once). */
  const missingFor = (req: TallyRequest, customer: CustomerRecord) => {
    const available = readBalance(env, req.tenant, customer.id, clockOf(req)).score_available;
    return (reward: RewardRecord) => missingConditions(stores, reward, { tenant: req.tenant, settings: req.settings, now: req.now, customer, available, cost: reward.points });
  };

  return {
    'rewards.create': (req) =>
      duplicates.suppress(req, 'rewards:create', async () => {
        const body = validate('rewards.create', req.body, req.settings);
        const draft = buildReward(writer(req), '0', body);
        const id = await env.transact(() => {
          const reward = { ...draft, id: allocateId(env, req.tenant, 'rewards') };
          auditTarget(req, `reward:${reward.id}`);
          rewards.putInTransaction(req.tenant, reward);
          return reward.id;
        });
        return success({ id: wireInt(id) });
      }),

    'rewards.update': (req) =>
      duplicates.suppress(req, `reward:${requireInt64(req.params.id, 'id')}`, async () => {
        const body = validate('rewards.update', req.body, req.settings);
        const previous = existing(req);
        const reward = buildReward(writer(req), previous.id, body, previous);
        // An update of the values held writes nothing (no updated_at moved, no audit entry), as campaigns' do.
        if (!changesNothing(reward, previous)) await env.transact(() => rewards.putInTransaction(req.tenant, reward));
        return success({ id: wireInt(reward.id) });
      }),

    'rewards.list': async (req) => {
      const filters = readFilters(req.query);
      const scope = listScope(req, filters.countries !== undefined);
      if (filters.restricted_by.length > 0 && !scope.customer) throw requiredWith(['customer_id', 'customer_code'], 'restricted_by');
      if (filters.store && !scope.customer) throw requiredWith(['customer_id', 'customer_code'], 'store');
      const missingOf = scope.customer && missingFor(req, scope.customer);
      const page = rewards.pageRewards(req.tenant, readPage(req.query), (reward) => {
        const missing = missingOf?.(reward);
        return passes(reward, filters, scope, missing) ? rewardView(reward, viewContext(req), missing) : undefined;
      });
      return ok(page);
    },

    'rewards.get': async (req) => {
      const reward = existing(req);
      const customer = queryCustomer(req);
      return ok(rewardView(reward, viewContext(req), customer && missingFor(req, customer)(reward)));
    },

    'rewards.redeem': async (req) => {
      const body = validate('rewards.redeem', req.body);
      const rewardId = requireInt64(req.params.id, 'id');
      const { customer, field: customerField } = redeemer(req, body);
      requireActive(customer, customerField);
      const location = redeemLocation(req, body);
      const { record, balance } = await redeemReward(stores, req, rewardId, { customer, customerField, location: { id: location.id, code: location.code, country: location.country }, body });
      return ok({
        customer: customerPoints(customer, balance),
        score_used: record.score_expense,
        score: balance.score,
        score_available: balance.score_available,
        redemption_id: wireInt(record.id),
        code: record.code,
      });
    },

    'rewards.transactions': async (req) => {
      const customer = queryCustomer(req, true);
      const location = queryLocation(req, true);
      const status = optionalEnum(req.query.get('status'), 'status', REDEMPTION_STATUSES);
      const scope = customer ? { customer_id: customer.id } : location ? { location_id: location.id } : {};
      const page = rewards.page(req.tenant, scope, readPage(req.query), (r) =>
        (status === undefined || r.status === status) && (location === undefined || r.location_id === location.id) ? redemptionView(r) : undefined,
      );
      return ok(page);
    },

    // Common rule 8 (an update of the redemption): an identical retry within 5 minutes gets the first answer, not 409.
    'rewards.rollback': (req) => {
      const { status_detail } = validate('rewards.rollback', req.body);
      const id = requireInt64(req.params.id, 'id');
      return duplicates.suppress(req, `redemption:${id}`, async () => {
        const reverted = await rollbackRedemption(stores, req, id, status_detail);
        return ok({ redemption_id: wireInt(reverted.id), status: reverted.status, status_detail: reverted.status_detail });
      });
    },
  };

  /** The customer of a query (customer_id or customer_code); with `idWins`, customer_id decides when both are sent. */
  function queryCustomer(req: TallyRequest, idWins = false): CustomerRecord | undefined {
    const id = optionalInt64(req.query.get('customer_id') || undefined, 'customer_id');
    const code = optionalCode(req.query.get('customer_code'), 'customer_code');
    if (id !== undefined && code !== undefined && !idWins) throw cannotBeSentWith('customer_code', 'customer_id');
    if (id !== undefined) return findCustomer(customers, req.tenant, 'id', id, 'customer_id');
    return code === undefined ? undefined : findCustomer(customers, req.tenant, 'code', code, 'customer_code');
  }

  /** The location of a query (location_id or location_code); with `idWins`, location_id decides when both are sent. */
  function queryLocation(req: TallyRequest, idWins = false): LocationRecord | undefined {
    const id = optionalInt64(req.query.get('location_id') || undefined, 'location_id');
    const code = optionalCode(req.query.get('location_code'), 'location_code');
    if (id !== undefined && code !== undefined && !idWins) throw cannotBeSentWith('location_code', 'location_id');
    if (id !== undefined) return foundLocation(locations.locationById(req.tenant, id), 'location_id', id);
    return code === undefined ? undefined : foundLocation(locations.locationByCode(req.tenant, code), 'location_code', code);
  }

  /** The list's scope: a customer, a location or countries, at most one (contract: mutually exclusive). */
  function listScope(req: TallyRequest, byCountries: boolean): Scope {
    const sent = atMostOne(['customer_id', 'customer_code', 'location_id', 'location_code'], (name) => Boolean(req.query.get(name)));
    if (sent !== undefined && byCountries) throw cannotBeSentWith('countries', sent);
    const customer = queryCustomer(req);
    if (customer) return { customer, customerCountry: customerCountry(customer, req.settings) };
    const location = queryLocation(req);
    return location ? { location } : {};
  }

  /** The redeeming customer and the field the request named it by, which its refusals name. */
  function redeemer(req: TallyRequest, body: RewardsRedeem): { customer: CustomerRecord; field: string } {
    const field = exactlyOne(['customer_id', 'customer_code', 'associate_id'] as const, (name) => body[name] !== undefined);
    const value = body[field]!;
    if (field === 'customer_code') {
      const customer = findCustomer(customers, req.tenant, 'code', value, field);
      auditMention(req, customer.id);
      return { customer, field };
    }
    // The customer the body names, by a canonical id: for an associate_id the associate, not its holder.
    auditMention(req, value);
    if (field === 'customer_id') return { customer: findCustomer(customers, req.tenant, 'id', value, field), field };
    // An associate redeems with the points of the customer it was merged into (the end of merged_to).
    return { customer: findAccountHolder(customers, associations, req.tenant, 'id', value, field), field };
  }

  function redeemLocation(req: TallyRequest, body: RewardsRedeem): LocationRecord {
    const location = locationOf(locations, req, body);
    if (!location) throw requiredOr('location_id', 'location_code');
    return location;
  }
}
