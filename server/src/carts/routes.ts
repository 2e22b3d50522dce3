/**
 * Cart operations. The hot path (simulate, realtime, create and their
 * aliases) hands the body, unparsed, to the worker pool; reads and the
 * cancellation (Tier 3) run on the main thread.
 */
import { TallyError, type CartResponse } from '@tally/engine';
import { LmdbCampaignStore, translatedTexts } from '../campaigns/store.js';
import { parseJson } from '../http/json.js';
import type { ServerContext } from '../context.js';
import { LmdbCounterStore } from '../counters/store.js';
import { CustomerStore } from '../customers/store.js';
import { lookupTarget } from '../http/duplicates.js';
import { optionalEnum, optionalInt64, readPage } from '../http/params.js';
import type { Reply, Routes, TallyRequest } from '../http/types.js';
import { validate } from '../http/validation.js';
import { createCartPool, readPoolOptions } from '../pool/pool.js';
import { LocationStore } from '../locations/store.js';
import { LmdbVoucherStore } from '../vouchers/store.js';
import { cancelCart } from './cancellation.js';
import { LeftOutCampaigns } from './left-out.js';
import { cartFilter, readCartQuery } from './query.js';
import { cartJson, cartReadBody, localizedResponse } from './present.js';
import type { CartOperation } from './service.js';
import type { CartRecord } from './types.js';
import { CartStore } from './store.js';

export function cartsRoutes(ctx: ServerContext): Routes {
  const leftOut = new LeftOutCampaigns();
  const pool = createCartPool(readPoolOptions(), ctx.config.dataDir, ctx.env, ctx.log, leftOut);
  ctx.metrics?.readPools(() => pool.counters());
  ctx.metrics?.readLeftOut(() => leftOut.total());
  const carts = new CartStore(ctx.env);
  const customers = new CustomerStore(ctx.env);
  const locations = new LocationStore(ctx.env);
  const campaigns = new LmdbCampaignStore(ctx.env);
  const stores = { env: ctx.env, carts, counters: new LmdbCounterStore(ctx.env), vouchers: new LmdbVoucherStore(ctx.env) };

  const hot = (operation: CartOperation) => async (req: TallyRequest): Promise<Reply> => {
    const raw = await pool.run({
      operation,
      companyId: req.tenant.companyId,
      environment: req.tenant.environment,
      settingsVersion: req.settings.version,
      now: req.now.toISOString(),
      body: req.rawBody,
      // The engine's names are the default language's: only another language asks the worker to localize.
      ...(req.language !== undefined && req.language !== req.settings.default_language ? { language: req.language } : {}),
    });
    return { body: undefined, raw };
  };

  /**
   * A cancellation's answer with its campaigns' names in the Accept-Language language, as evaluations answer them
   * (the stored mirror keeps the default names): the texts of the campaigns it names, read now.
   */
  const inLanguage = (req: TallyRequest, json: string): string => {
    if (req.language === undefined || req.language === req.settings.default_language) return json;
    const response = parseJson(json) as CartResponse;
    const named = new Set([...response.effects, ...response.rejected_campaigns, ...response.vouchers].map((entry) => String(entry.rule_id)));
    const texts = translatedTexts([...named].flatMap((id) => campaigns.get(req.tenant, id) ?? []));
    return texts.size === 0 ? json : cartJson(localizedResponse(response, texts, req.language, req.settings));
  };

  return {
    'carts.simulate': hot('simulate'),
    'carts.realtime': hot('realtime'),
    'carts.create': hot('create'),

    'carts.get': async (req) => {
      const value = req.params.id;
      const by = optionalEnum(req.query.get('search_param'), 'search_param', ['id', 'code'] as const) ?? (/^\d+$/.test(value) ? 'id' : 'code');
      const cart = by === 'id' ? carts.get(req.tenant, optionalInt64(value, 'id')!) : carts.byCode(req.tenant, value);
      if (!cart) throw new TallyError('cart_not_found', `id: no cart with ${by} ${value}`, 'id');
      return { body: undefined, raw: cartJson(cartReadBody(cart)) };
    },

    'carts.list': async (req) => {
      const query = readCartQuery(req.query);
      const page = readPage(req.query);
      const keep = cartFilter(query, req.settings.timezone, query.location_code === undefined ? undefined : locations.locationByCode(req.tenant, query.location_code)?.id);
      let customerId = query.customer_id;
      if (query.customer_code !== undefined) {
        customerId = customers.findId(req.tenant, 'code', query.customer_code);
        if (customerId === undefined) return { body: { data: [] } };
      }
      // A cart not read through the customer's index is checked against the customer (customer_code's found above).
      const held = (cart: CartRecord) => keep(cart) && (customerId === undefined || cart.customer_id === customerId);
      if ((query.id !== undefined || query.code !== undefined) && page.startingAfter === undefined) {
        // One cart at most: read through its id or code, not by scanning every cart of the Company.
        const cart = query.id !== undefined ? carts.get(req.tenant, query.id) : carts.byCode(req.tenant, query.code!);
        return { body: undefined, raw: cartJson({ data: cart !== undefined && held(cart) ? [cartReadBody(cart)] : [] }) };
      }
      // An order has few carts, a customer maybe thousands: the order's index is read, and `held` checks the customer.
      const result =
        query.order_id !== undefined ? carts.pageOfOrder(req.tenant, query.order_id, page, held)
        : customerId !== undefined ? carts.pageOfCustomer(req.tenant, customerId, page, keep)
        : carts.page(req.tenant, page, keep);
      return { body: undefined, raw: cartJson({ ...result, data: result.data.map(cartReadBody) }) };
    },

    // Common rule 8: an identical retry within 5 minutes gets the first answer, not 409 "already cancelled". The target
    // is the cancelled cart's id however the request named it (the audit log's target too: `cart:501`).
    'carts.cancellation': (req) => {
      const request = validate('carts.cancellation', req.body);
      const [by, value] = request.cart_to_cancel_id !== undefined ? ['id', request.cart_to_cancel_id] : ['code', request.cart_to_cancel_code!];
      const named = by === 'id' ? carts.get(req.tenant, value) : carts.byCode(req.tenant, value);
      return ctx.duplicates.suppress(req, lookupTarget('cart', by, value, named?.id), async () => {
        const mirror = await cancelCart(stores, req.tenant, req.settings, request, req.now);
        return { body: undefined, raw: inLanguage(req, mirror.response_json) };
      });
    },
  };
}
