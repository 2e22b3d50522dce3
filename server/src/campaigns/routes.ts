/**
 * POST, GET, PATCH (PUT) and GET /{value} on /discounts and /points. Every
 * create or update is compiled by the engine inside the write transaction
 * that stores it, so a campaign that does not compile is never stored.
 */
import { auditTarget } from '../audit/context.js';
import { TallyError } from '@tally/engine';
import type { ServerContext } from '../context.js';
import { requireDefinition } from '../custom-events/definitions.js';
import { registrationOf } from '../locations/registration.js';
import { CustomerStore } from '../customers/store.js';
import { LocationStore } from '../locations/store.js';
import { readPage, requireInt64 } from '../http/params.js';
import { ok, success, type Handler, type Routes, type TallyRequest } from '../http/types.js';
import { validate } from '../http/validation.js';
import { wireDatetime, wireInt } from '../http/wire.js';
import { allocateId } from '../store/ids.js';
import { changesNothing } from '../store/unchanged.js';
import { optionalCustomer } from '../vouchers/customer.js';
import { requestLocation } from '../vouchers/location.js';
import { LmdbVoucherStore } from '../vouchers/store.js';
import { LmdbCounterStore } from '../counters/store.js';
import { CouponStore } from '../coupons/store.js';
import { GameStore } from '../games/store.js';
import { InstantWinStore } from '../instant-wins/store.js';
import type { CampaignsUpdate } from '../wire/types.js';
import { checkBinding, checkCompiles } from './compile-check.js';
import { customerScope, listMatch, type ListFilters } from './list.js';
import { findCampaign } from './lookup.js';
import { buildRecord } from './params.js';
import { readListQuery } from './query.js';
import { checkStaticCodeFree } from './static-codes.js';
import { LmdbCampaignStore } from './store.js';
import type { CampaignKind } from './types.js';
import { campaignView } from './view.js';

/** Stands for an id not yet allocated while a draft is checked (any valid int64 compiles the same). */
const PROVISIONAL_ID = '1';

interface CampaignHandlers {
  create: Handler;
  list: Handler;
  update: Handler;
  get: Handler;
}

function campaignHandlers({ env, duplicates }: ServerContext, kind: CampaignKind): CampaignHandlers {
  const campaigns = new LmdbCampaignStore(env);
  const vouchers = new LmdbVoucherStore(env);
  const customers = new CustomerStore(env);
  const locations = new LocationStore(env);
  const counters = new LmdbCounterStore(env);
  const coupons = new CouponStore(env, campaigns);
  const staticCodeHolders = [campaigns, new InstantWinStore(env), new GameStore(env)];

  /**
   * Builds, checks and stores the campaign in one transaction; returns its id.
   * Every check runs on a draft before the first write (lmdb keeps writes made
   * before a throw), then the ids are allocated.
   */
  const write = (req: TallyRequest, body: CampaignsUpdate, existingId?: string) =>
    env.transact(() => {
      const previous = existingId === undefined ? undefined : campaigns.get(req.tenant, existingId);
      if (existingId !== undefined && previous?.type !== kind) {
        throw new TallyError('campaign_not_found', `value: no ${kind} campaign ${existingId}`, 'value');
      }
      const input = { kind, body, previous, settings: req.settings, now: wireDatetime(req.now) };
      const draft = buildRecord({ ...input, id: existingId ?? PROVISIONAL_ID, couponId: PROVISIONAL_ID });
      checkStaticCodeFree(staticCodeHolders, req.tenant, draft.coupon_params?.static_code, existingId);
      checkBinding(draft, previous);
      checkCompiles(draft, req.settings);
      const definitionId = draft.rule_params.custom_entity_definition_id;
      if (definitionId !== undefined && definitionId !== null) {
        requireDefinition(env, req.tenant, String(definitionId), 'rule_params.custom_entity_definition_id');
      }
      const id = existingId ?? allocateId(env, req.tenant, 'campaigns');
      auditTarget(req, `campaign:${id}`);
      const needsCoupon = draft.coupon_params !== undefined && previous?.coupon_id === undefined;
      const couponId = needsCoupon ? allocateId(env, req.tenant, 'coupons') : PROVISIONAL_ID;
      return campaigns.putInTransaction(req.tenant, buildRecord({ ...input, id, couponId }), previous).id;
    });

  return {
    create: (req) =>
      duplicates.suppress(req, `${kind}_campaign:create`, async () => {
        const body = validate('campaigns.create', req.body, req.settings);
        const id = await write(req, body);
        return success({ id: wireInt(id) });
      }),

    update: (req) => {
      const id = requireInt64(req.params.value, 'value');
      return duplicates.suppress(req, `campaign:${id}`, async () => {
        const body = validate('campaigns.update', req.body, req.settings);
        // An update of the values held writes nothing (no new version, no audit entry), judged on the campaign as read now.
        const previous = campaigns.get(req.tenant, id);
        const unchanged = previous?.type === kind
          && changesNothing(buildRecord({ kind, id, body, previous, settings: req.settings, now: wireDatetime(req.now), couponId: PROVISIONAL_ID }), previous);
        if (!unchanged) await write(req, body, id);
        return success();
      });
    },

    get: async (req) => {
      const found = findCampaign({ campaigns, vouchers }, req.tenant, kind, req.params.value, req.query.get('search_by'));
      // A voucher of a coupon deleted since: its own coupon, not the one the campaign has now.
      const couponId = found.voucher?.coupon_id;
      const voucherCoupon = couponId && couponId !== found.campaign.coupon_id ? coupons.find(req.tenant, couponId, found.campaign.id) : undefined;
      return ok(campaignView(found.campaign, { tenant: req.tenant, counters, language: req.language, settings: req.settings, voucher: found.voucher, voucherCoupon, now: wireDatetime(req.now), single: true }));
    },

    list: async (req) => {
      const query = readListQuery(req.query, kind);
      const customer = optionalCustomer(customers, req.tenant, { customer_id: query.customerId, customer_code: query.customerCode });
      const filters: ListFilters = { ...query.filters, location: requestLocation(locations, req.tenant, query.location) };
      if (customer) {
        const { country } = registrationOf(locations, req.tenant, customer.profile, req.settings);
        filters.customer = customerScope(country, vouchers.ofCustomer(req.tenant, customer.id), query.selected, req.now, req.settings.timezone);
      }
      const page = readPage(req.query);
      return ok(
        campaigns.page(req.tenant, page, (record) => {
          const match = listMatch(record, filters);
          if (match === null) return undefined;
          return campaignView(record, { tenant: req.tenant, counters, language: req.language, settings: req.settings, voucher: match.voucher, now: wireDatetime(req.now), single: false });
        }),
      );
    },
  };
}

export function discountCampaignRoutes(ctx: ServerContext): Routes {
  const handlers = campaignHandlers(ctx, 'discount');
  return {
    'discounts.create': handlers.create,
    'discounts.list': handlers.list,
    'discounts.update': handlers.update,
    'discounts.get': handlers.get,
  };
}

export function pointsCampaignRoutes(ctx: ServerContext): Routes {
  const handlers = campaignHandlers(ctx, 'points');
  return {
    'points.create': handlers.create,
    'points.list': handlers.list,
    'points.update': handlers.update,
    'points.get': handlers.get,
  };
}
