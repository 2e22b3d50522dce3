/**
 * Which schema of `schemas/` describes the request body and the 200 answer of
 * an operation. A request schema whose `$id` is the operation id needs no
 * entry; the others are named here. Every operation has an answer schema but
 * GET /openapi.json (the document itself: "a JSON object").
 */
import type { OperationId } from '../http/operations.js';

/**
 * An answer: one schema, or an array of it as `{list}`, as `{data}` (all
 * items at once) or as a page `{data, next_token_starts_after}`.
 */
export interface ResponseBody {
  schema: string;
  wrap?: 'list' | 'data' | 'page';
}

export const REQUEST_SCHEMAS: Partial<Record<OperationId, string>> = {
  'carts.simulate': 'carts.cart',
  'carts.realtime': 'carts.cart',
  'carts.create': 'carts.cart',
  'merges.transfer_new': 'merges.transfer',
  'discounts.create': 'campaigns.create',
  'discounts.update': 'campaigns.update',
  'points.create': 'campaigns.create',
  'points.update': 'campaigns.update',
  'products.create': 'product.create',
  'products.update': 'product.update',
  'taxonomies.create': 'taxonomy.create',
  'taxonomies.update': 'taxonomy.update',
  'location_taxonomies.create': 'taxonomy.create',
  'location_taxonomies.update': 'taxonomy.update',
  'features.create': 'feature.create',
  'features.update': 'feature.update',
  'location_features.create': 'feature.create',
  'location_features.update': 'feature.update',
  'locations.create': 'location.create',
  'locations.update': 'location.update',
  'promotions.create': 'promotion.create',
  'promotions.update': 'promotion.update',
  'vouchers.rollback': 'vouchers.many',
  'vouchers.print': 'vouchers.many',
  'vouchers.print_put': 'vouchers.many',
  'vouchers.select_many': 'vouchers.many',
  'vouchers.deselect_many': 'vouchers.many',
  'vouchers.select': 'vouchers.one',
  'vouchers.deselect': 'vouchers.one',
  'vouchers.freeze': 'vouchers.one',
  'vouchers.unfreeze': 'vouchers.one',
};

const SUCCESS: ResponseBody = { schema: 'responses.success' };
const CART: ResponseBody = { schema: 'responses.cart' };
const CAMPAIGN: ResponseBody = { schema: 'responses.campaign' };
const CAMPAIGNS: ResponseBody = { schema: 'responses.campaign', wrap: 'page' };
const POINTS_REDEMPTION: ResponseBody = { schema: 'responses.points_redemption' };

const VOUCHER_ACTION: ResponseBody = { schema: 'responses.voucher_action' };
const VOUCHER_ACTIONS: ResponseBody = { schema: 'responses.voucher_actions' };

export const RESPONSE_BODIES: Partial<Record<OperationId, ResponseBody>> = {
  'check': { schema: 'responses.check' },
  'messages.print': { schema: 'responses.messages_print' },
  'company.get': { schema: 'responses.company' },
  'company.update': { schema: 'responses.company' },
  'customers.create': SUCCESS,
  'customers.update': SUCCESS,
  'customers.delete': SUCCESS,
  'customers.get': { schema: 'responses.customer' },
  'customers.search': { schema: 'responses.customer' },
  'customers.list': { schema: 'responses.customer', wrap: 'list' },
  'customers.attributes': { schema: 'responses.customer_attribute', wrap: 'page' },
  'customers.tiers': { schema: 'responses.program_tier', wrap: 'data' },
  'customers.audience_validation': { schema: 'responses.audience_validation' },
  'customers.audiences': { schema: 'responses.audience', wrap: 'list' },
  'customers.cards': SUCCESS,
  'customers.export': { schema: 'responses.customer_export' },
  'associations.create': { schema: 'responses.association' },
  'associations.list': { schema: 'responses.association', wrap: 'list' },
  'associations.update': SUCCESS,
  'associations.delete': SUCCESS,
  'merges.transfer': SUCCESS,
  'merges.transfer_new': SUCCESS,
  'merges.unmerge': SUCCESS,
  'carts.simulate': CART,
  'carts.realtime': CART,
  'carts.create': CART,
  'carts.cancellation': CART,
  'carts.get': { schema: 'responses.cart_read' },
  'carts.list': { schema: 'responses.cart_read', wrap: 'page' },
  'custom_events.create': { schema: 'responses.custom_event' },
  'custom_events.get': { schema: 'responses.custom_event' },
  'custom_events.list': { schema: 'responses.custom_event', wrap: 'page' },
  'custom_event_definitions.create': SUCCESS,
  'custom_event_definitions.list': { schema: 'responses.custom_event_definition', wrap: 'page' },
  'audit_log.list': { schema: 'responses.audit_entry', wrap: 'page' },
  'webhooks.create': { schema: 'responses.webhook' },
  'webhooks.list': { schema: 'responses.webhook', wrap: 'page' },
  'webhooks.get': { schema: 'responses.webhook' },
  'webhooks.update': { schema: 'responses.webhook' },
  'webhooks.delete': SUCCESS,
  'webhooks.rotate_secret': { schema: 'responses.webhook' },
  'webhooks.deliveries': { schema: 'responses.webhook_delivery', wrap: 'page' },
  'webhooks.retry_delivery': { schema: 'responses.webhook_delivery' },
  'triggers.trigger': { schema: 'responses.trigger' },
  'discounts.create': SUCCESS,
  'discounts.update': SUCCESS,
  'discounts.get': CAMPAIGN,
  'discounts.list': CAMPAIGNS,
  'discounts.redeem': { schema: 'responses.effect' },
  'discounts.trigger': SUCCESS,
  'discounts.transactions': { schema: 'responses.discount_transaction', wrap: 'page' },
  'points.create': SUCCESS,
  'points.update': SUCCESS,
  'points.get': CAMPAIGN,
  'points.list': CAMPAIGNS,
  'points.balance': { schema: 'responses.points_balance' },
  'points.transactions': { schema: 'responses.points_transaction', wrap: 'page' },
  'points.redeem': POINTS_REDEMPTION,
  'points.redeem_cart': POINTS_REDEMPTION,
  'points.cashbacks': { schema: 'responses.cashback' },
  'points.cashback_thresholds': { schema: 'responses.cashback_threshold', wrap: 'data' },
  'points.transfer': { schema: 'responses.points_transfer' },
  'points.expiring': { schema: 'responses.points_expiring', wrap: 'data' },
  'games.get': { schema: 'responses.game_campaign' },
  'games.list': { schema: 'responses.game_campaign', wrap: 'page' },
  'games.play': { schema: 'responses.game_play' },
  'games.create': SUCCESS,
  'games.update': SUCCESS,
  'games.assign': SUCCESS,
  'instant_wins.create': SUCCESS,
  'instant_wins.update': SUCCESS,
  'instant_wins.get': { schema: 'responses.instant_win_campaign' },
  'instant_wins.list': { schema: 'responses.instant_win_campaign', wrap: 'page' },
  'rewards.get': { schema: 'responses.reward' },
  'rewards.list': { schema: 'responses.reward', wrap: 'page' },
  'rewards.redeem': { schema: 'responses.reward_redemption' },
  'rewards.transactions': { schema: 'responses.redemption', wrap: 'page' },
  'rewards.rollback': { schema: 'responses.redemption_rollback' },
  'rewards.create': SUCCESS,
  'rewards.update': SUCCESS,
  'challenges.create': SUCCESS,
  'challenges.update': SUCCESS,
  'challenges.enroll': SUCCESS,
  'challenges.get': { schema: 'responses.challenge' },
  'challenges.list': { schema: 'responses.challenge', wrap: 'page' },
  'challenges.customer_list': { schema: 'responses.challenge', wrap: 'page' },
  'challenges.customer_get': { schema: 'responses.challenge' },
  'tier_programs.create': SUCCESS,
  'tier_programs.update': SUCCESS,
  'products.create': SUCCESS,
  'products.get': { schema: 'responses.product' },
  'products.update': SUCCESS,
  'products.delete': SUCCESS,
  'taxonomies.create': SUCCESS,
  'taxonomies.update': SUCCESS,
  'taxonomies.delete': SUCCESS,
  'features.create': SUCCESS,
  'features.update': SUCCESS,
  'features.delete': SUCCESS,
  'locations.create': SUCCESS,
  'locations.get': { schema: 'responses.location' },
  'locations.update': SUCCESS,
  'locations.delete': SUCCESS,
  'location_taxonomies.create': SUCCESS,
  'location_taxonomies.update': SUCCESS,
  'location_taxonomies.delete': SUCCESS,
  'location_features.create': SUCCESS,
  'location_features.update': SUCCESS,
  'location_features.delete': SUCCESS,
  'promotions.create': SUCCESS,
  'promotions.update': SUCCESS,
  'promotions.delete': SUCCESS,
  'vouchers.get': { schema: 'responses.voucher' },
  'vouchers.list': { schema: 'responses.voucher', wrap: 'page' },
  'vouchers.selected': { schema: 'responses.voucher', wrap: 'data' },
  'vouchers.excluded_products': { schema: 'responses.excluded_products' },
  'vouchers.select': VOUCHER_ACTION,
  'vouchers.deselect': VOUCHER_ACTION,
  'vouchers.freeze': VOUCHER_ACTION,
  'vouchers.unfreeze': VOUCHER_ACTION,
  'vouchers.redeem': VOUCHER_ACTIONS,
  'vouchers.rollback': VOUCHER_ACTIONS,
  'vouchers.print': VOUCHER_ACTIONS,
  'vouchers.print_put': VOUCHER_ACTIONS,
  'vouchers.select_many': VOUCHER_ACTIONS,
  'vouchers.deselect_many': VOUCHER_ACTIONS,
  'coupons.create': SUCCESS,
  'coupons.update': SUCCESS,
  'coupons.delete': SUCCESS,
};

/**
 * The JSON Schema of an answer, referring to schemas by `$id` (so ajv can
 * check a real answer with it; the OpenAPI document rewrites the references).
 */
export function responseBodySchema(body: ResponseBody): Record<string, unknown> {
  const item = { $ref: body.schema };
  if (body.wrap === 'list' || body.wrap === 'data') {
    return { type: 'object', required: [body.wrap], properties: { [body.wrap]: { type: 'array', items: item } } };
  }
  if (body.wrap === 'page') {
    return {
      type: 'object',
      required: ['data'],
      properties: {
        data: { type: 'array', items: item },
        next_token_starts_after: { description: 'Absent on the last page; send it as starting_after for the next one.', type: 'string' },
      },
    };
  }
  return item;
}
