/**
 * The routing table: every operation of the contract (parts 1 and 2) with its
 * method, path, rate tier and legacy aliases. An operation without a handler
 * in the registry answers 501 not_implemented, so coverage is countable here.
 *
 * Tiers are the contract's (Limits); operations whose tier it does not show
 * are Tier 3 (docs/decisions.md). `PATCH` operations also accept `PUT`.
 */
export type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
export type RateTier = 'tier_1' | 'tier_2' | 'tier_3';

export interface OperationSpec {
  method: Method;
  path: string;
  tier: RateTier;
  /** Legacy paths of the Versioning section that reach this operation. */
  aliases?: readonly string[];
  /** The contract requires `Content-Type: application/json` (common rule 2). */
  jsonContentType?: boolean;
  /** Answers without credentials (validates them when sent). */
  public?: boolean;
  /** An extra per-key limit on top of the tier (POST /discounts/trigger: 50 rps). */
  extraLimit?: 'discounts_trigger';
  /** The handler sends the body text to a worker that parses it (the cart hot path): the main thread does not parse it. */
  workerParsesBody?: boolean;
  /**
   * false: a write not recorded in the audit log (docs/audit-log.md), for the hot path whose own
   * records are its trail (carts, triggers, custom events). Every other POST, PATCH, PUT and DELETE is.
   */
  audit?: false;
}

export const OPERATIONS = {
  // Utilities
  'check': { method: 'GET', path: '/check', tier: 'tier_3', public: true },
  // Tally: this API's OpenAPI 3.1 document (docs/api.md)
  'openapi': { method: 'GET', path: '/openapi.json', tier: 'tier_3', public: true },
  'messages.print': { method: 'POST', path: '/messages/print', tier: 'tier_3' },
  // Tally's back office: the calling key's Company settings
  'company.get': { method: 'GET', path: '/company', tier: 'tier_3' },
  'company.update': { method: 'PATCH', path: '/company', tier: 'tier_3' },
  // Tally's back office: who changed what (docs/audit-log.md)
  'audit_log.list': { method: 'GET', path: '/audit_log', tier: 'tier_3' },

  // Customers
  'customers.create': { method: 'POST', path: '/customers', tier: 'tier_2' },
  'customers.list': { method: 'GET', path: '/customers', tier: 'tier_3' },
  'customers.search': { method: 'POST', path: '/customers/search', tier: 'tier_3' },
  'customers.get': { method: 'GET', path: '/customers/{value}', tier: 'tier_1' },
  'customers.update': { method: 'PATCH', path: '/customers/{value}', tier: 'tier_2' },
  'customers.delete': { method: 'DELETE', path: '/customers/{value}', tier: 'tier_3', jsonContentType: true },
  'customers.attributes': { method: 'GET', path: '/customers/{id}/attributes', tier: 'tier_3' },
  'customers.tiers': { method: 'GET', path: '/customers/{id}/tiers', tier: 'tier_3' },
  'customers.audience_validation': {
    method: 'GET', path: '/customers/{id}/audience_validation', tier: 'tier_3',
    aliases: ['/customers/{id}/segment_validation'],
  },
  'customers.audiences': {
    method: 'GET', path: '/customers/{id}/audiences', tier: 'tier_3', aliases: ['/customers/{id}/segments'],
  },
  'customers.cards': { method: 'POST', path: '/customers/{id}/cards', tier: 'tier_3' },
  // Tally: everything held about one customer, in one document (GDPR access and portability; docs/customers.md)
  'customers.export': { method: 'GET', path: '/customers/{value}/export', tier: 'tier_3' },

  // Associations
  'associations.create': { method: 'POST', path: '/associations', tier: 'tier_3' },
  'associations.update': { method: 'PATCH', path: '/associations', tier: 'tier_3' },
  'associations.delete': { method: 'DELETE', path: '/associations', tier: 'tier_3', jsonContentType: true },
  'associations.list': { method: 'GET', path: '/customers/{id}/associates', tier: 'tier_3', jsonContentType: true },

  // Merging
  'merges.transfer': { method: 'POST', path: '/customers/transfer', tier: 'tier_3' },
  'merges.transfer_new': { method: 'POST', path: '/customers/transfer-new', tier: 'tier_3' },
  'merges.unmerge': { method: 'POST', path: '/customers/{associate_id}/unmerge', tier: 'tier_3', jsonContentType: true },

  // Carts
  'carts.simulate': { method: 'POST', path: '/carts/simulate', tier: 'tier_1', aliases: ['/activities/simulate'], workerParsesBody: true, audit: false },
  'carts.realtime': { method: 'POST', path: '/carts/realtime', tier: 'tier_1', aliases: ['/activities/realtime'], workerParsesBody: true, audit: false },
  'carts.create': { method: 'POST', path: '/carts', tier: 'tier_3', aliases: ['/activities'], workerParsesBody: true, audit: false },
  'carts.list': { method: 'GET', path: '/carts', tier: 'tier_3', aliases: ['/activities'] },
  'carts.get': { method: 'GET', path: '/carts/{id}', tier: 'tier_3', aliases: ['/activities/{id}'] },
  'carts.cancellation': { method: 'POST', path: '/carts/cancellation', tier: 'tier_3' },

  // Custom events
  'custom_events.create': { method: 'POST', path: '/custom_events', tier: 'tier_2', aliases: ['/custom_entities'], audit: false },
  'custom_events.list': { method: 'GET', path: '/custom_events', tier: 'tier_3', aliases: ['/custom_entities'] },
  'custom_events.get': { method: 'GET', path: '/custom_events/{id}', tier: 'tier_3', aliases: ['/custom_entities/{id}'] },
  // Back-office resource (Tally): the definitions custom events are validated against.
  'custom_event_definitions.create': { method: 'POST', path: '/custom_event_definitions', tier: 'tier_3' },
  'custom_event_definitions.list': { method: 'GET', path: '/custom_event_definitions', tier: 'tier_3' },
  // Back-office resource (Tally): webhook subscriptions and their deliveries (docs/webhooks.md).
  'webhooks.create': { method: 'POST', path: '/webhooks', tier: 'tier_3' },
  'webhooks.list': { method: 'GET', path: '/webhooks', tier: 'tier_3' },
  'webhooks.get': { method: 'GET', path: '/webhooks/{id}', tier: 'tier_3' },
  'webhooks.update': { method: 'PATCH', path: '/webhooks/{id}', tier: 'tier_3' },
  'webhooks.delete': { method: 'DELETE', path: '/webhooks/{id}', tier: 'tier_3' },
  'webhooks.rotate_secret': { method: 'POST', path: '/webhooks/{id}/rotate_secret', tier: 'tier_3' },
  'webhooks.deliveries': { method: 'GET', path: '/webhooks/{id}/deliveries', tier: 'tier_3' },
  'webhooks.retry_delivery': { method: 'POST', path: '/webhooks/{id}/deliveries/{delivery_id}/retry', tier: 'tier_3' },

  // Triggers
  'triggers.trigger': { method: 'POST', path: '/trigger', tier: 'tier_1', aliases: ['/scores/trigger'], audit: false },

  // Discounts
  'discounts.create': { method: 'POST', path: '/discounts', tier: 'tier_3' },
  'discounts.list': { method: 'GET', path: '/discounts', tier: 'tier_3' },
  'discounts.update': { method: 'PATCH', path: '/discounts/{value}', tier: 'tier_3' },
  'discounts.get': { method: 'GET', path: '/discounts/{value}', tier: 'tier_3' },
  'discounts.redeem': { method: 'POST', path: '/discounts/redeem', tier: 'tier_2' },
  'discounts.transactions': { method: 'GET', path: '/discounts/transactions', tier: 'tier_3' },
  'discounts.trigger': { method: 'POST', path: '/discounts/trigger', tier: 'tier_1', extraLimit: 'discounts_trigger' },

  // Games
  'games.list': { method: 'GET', path: '/games', tier: 'tier_3' },
  'games.get': { method: 'GET', path: '/games/{id}', tier: 'tier_3' },
  'games.play': { method: 'POST', path: '/games/{id}/play', tier: 'tier_3' },
  // Tally's back office for games (docs/games.md)
  'games.create': { method: 'POST', path: '/games', tier: 'tier_3' },
  'games.update': { method: 'PATCH', path: '/games/{id}', tier: 'tier_3' },
  'games.assign': { method: 'POST', path: '/games/{id}/assignments', tier: 'tier_3' },

  // Instant wins
  'instant_wins.list': { method: 'GET', path: '/instant_wins', tier: 'tier_3' },
  'instant_wins.get': { method: 'GET', path: '/instant_wins/{id}', tier: 'tier_3' },
  // Tally's back office for instant wins (docs/games.md)
  'instant_wins.create': { method: 'POST', path: '/instant_wins', tier: 'tier_3' },
  'instant_wins.update': { method: 'PATCH', path: '/instant_wins/{id}', tier: 'tier_3' },

  // Points and wallet
  'points.create': { method: 'POST', path: '/points', tier: 'tier_3' },
  'points.list': { method: 'GET', path: '/points', tier: 'tier_3' },
  'points.update': { method: 'PATCH', path: '/points/{value}', tier: 'tier_3' },
  'points.get': { method: 'GET', path: '/points/{value}', tier: 'tier_3' },
  'points.transactions': { method: 'GET', path: '/points/transactions', tier: 'tier_3', aliases: ['/scores/transactions'] },
  'points.balance': { method: 'GET', path: '/customers/{value}/points', tier: 'tier_3', aliases: ['/customers/{value}/scores'] },
  'points.expiring': {
    method: 'GET', path: '/customers/{value}/points_expiring', tier: 'tier_3',
    aliases: ['/customers/{value}/scores_expiring'],
  },
  'points.redeem': { method: 'POST', path: '/points/redeem', tier: 'tier_3', aliases: ['/scores/subtract'] },
  'points.redeem_cart': { method: 'POST', path: '/points/redeem_cart', tier: 'tier_2', aliases: ['/scores/activity_redeem'] },
  'points.transfer': { method: 'POST', path: '/points/transfer', tier: 'tier_3', aliases: ['/scores/transfer'] },
  'points.cashbacks': { method: 'GET', path: '/cashbacks', tier: 'tier_3' },
  'points.cashback_thresholds': { method: 'GET', path: '/cashback_thresholds', tier: 'tier_3' },

  // Rewards
  'rewards.list': { method: 'GET', path: '/rewards', tier: 'tier_2' },
  'rewards.get': { method: 'GET', path: '/rewards/{id}', tier: 'tier_3' },
  'rewards.redeem': { method: 'POST', path: '/rewards/{id}/redeem', tier: 'tier_3' },
  'rewards.transactions': { method: 'GET', path: '/rewards/transactions', tier: 'tier_3', aliases: ['/redemptions'] },
  'rewards.rollback': {
    method: 'POST', path: '/rewards/transactions/{id}/rollback', tier: 'tier_3', aliases: ['/redemptions/{id}/rollback'],
  },
  // Tally's back office for rewards (docs/rewards-challenges-tiers.md)
  'rewards.create': { method: 'POST', path: '/rewards', tier: 'tier_3' },
  'rewards.update': { method: 'PATCH', path: '/rewards/{id}', tier: 'tier_3' },

  // Challenges
  'challenges.list': { method: 'GET', path: '/challenges', tier: 'tier_3' },
  'challenges.get': { method: 'GET', path: '/challenges/{id}', tier: 'tier_3' },
  'challenges.customer_list': { method: 'GET', path: '/customers/{value}/challenges', tier: 'tier_2' },
  'challenges.customer_get': { method: 'GET', path: '/customers/{value}/challenges/{id}', tier: 'tier_3' },
  'challenges.enroll': { method: 'POST', path: '/challenges/{id}/enroll', tier: 'tier_3' },
  // Tally's back office for challenges and tier programs (docs/rewards-challenges-tiers.md)
  'challenges.create': { method: 'POST', path: '/challenges', tier: 'tier_3' },
  'challenges.update': { method: 'PATCH', path: '/challenges/{id}', tier: 'tier_3' },
  'tier_programs.create': { method: 'POST', path: '/tier_programs', tier: 'tier_3' },
  'tier_programs.update': { method: 'PATCH', path: '/tier_programs/{id}', tier: 'tier_3' },

  // Coupons
  'coupons.create': { method: 'POST', path: '/coupons', tier: 'tier_3' },
  'coupons.update': { method: 'PATCH', path: '/coupons/{id}', tier: 'tier_3' },
  'coupons.delete': { method: 'DELETE', path: '/coupons/{id}', tier: 'tier_3' },

  // Vouchers
  'vouchers.list': { method: 'GET', path: '/vouchers', tier: 'tier_3' },
  'vouchers.selected': { method: 'GET', path: '/customers/{id}/vouchers/selected', tier: 'tier_3' },
  'vouchers.excluded_products': { method: 'GET', path: '/vouchers/excluded_products', tier: 'tier_3' },
  'vouchers.get': { method: 'GET', path: '/vouchers/{code}', tier: 'tier_3' },
  'vouchers.redeem': { method: 'POST', path: '/vouchers/redeem', tier: 'tier_3' },
  'vouchers.rollback': { method: 'POST', path: '/vouchers/rollback', tier: 'tier_3' },
  'vouchers.print': { method: 'POST', path: '/vouchers/print', tier: 'tier_3' },
  'vouchers.print_put': { method: 'PUT', path: '/vouchers/print', tier: 'tier_3' },
  'vouchers.select': { method: 'POST', path: '/vouchers/{code}/select', tier: 'tier_3' },
  'vouchers.deselect': { method: 'POST', path: '/vouchers/{code}/deselect', tier: 'tier_3' },
  'vouchers.select_many': { method: 'PUT', path: '/vouchers/select', tier: 'tier_3' },
  'vouchers.deselect_many': { method: 'PUT', path: '/vouchers/deselect', tier: 'tier_3' },
  'vouchers.freeze': { method: 'POST', path: '/vouchers/{code}/freeze', tier: 'tier_3' },
  'vouchers.unfreeze': { method: 'POST', path: '/vouchers/{code}/unfreeze', tier: 'tier_3' },

  // Company data: products, taxonomies and features
  'products.create': { method: 'POST', path: '/products', tier: 'tier_3' },
  'products.get': { method: 'GET', path: '/products/{id}', tier: 'tier_3' },
  'products.update': { method: 'PATCH', path: '/products/{id}', tier: 'tier_3' },
  'products.delete': { method: 'DELETE', path: '/products/{id}', tier: 'tier_3' },
  'taxonomies.create': { method: 'POST', path: '/taxonomies', tier: 'tier_3' },
  'taxonomies.update': { method: 'PATCH', path: '/taxonomies/{slug}', tier: 'tier_3' },
  'taxonomies.delete': { method: 'DELETE', path: '/taxonomies/{slug}', tier: 'tier_3' },
  'features.create': { method: 'POST', path: '/taxonomies/{taxonomy_slug}/features', tier: 'tier_3' },
  'features.update': { method: 'PATCH', path: '/taxonomies/{taxonomy_slug}/features/{id}', tier: 'tier_3' },
  'features.delete': { method: 'DELETE', path: '/taxonomies/{taxonomy_slug}/features/{id}', tier: 'tier_3' },

  // Company data: locations, location taxonomies and features
  'locations.create': { method: 'POST', path: '/locations', tier: 'tier_3' },
  'locations.get': { method: 'GET', path: '/locations/{value}', tier: 'tier_3' },
  'locations.update': { method: 'PATCH', path: '/locations/{value}', tier: 'tier_3' },
  'locations.delete': { method: 'DELETE', path: '/locations/{value}', tier: 'tier_3' },
  'location_taxonomies.create': { method: 'POST', path: '/locations/taxonomies', tier: 'tier_3' },
  'location_taxonomies.update': { method: 'PATCH', path: '/locations/taxonomies/{slug}', tier: 'tier_3' },
  'location_taxonomies.delete': { method: 'DELETE', path: '/locations/taxonomies/{slug}', tier: 'tier_3' },
  'location_features.create': { method: 'POST', path: '/locations/taxonomies/{taxonomy_slug}/features', tier: 'tier_3' },
  'location_features.update': {
    method: 'PATCH', path: '/locations/taxonomies/{taxonomy_slug}/features/{id}', tier: 'tier_3',
  },
  'location_features.delete': {
    method: 'DELETE', path: '/locations/taxonomies/{taxonomy_slug}/features/{id}', tier: 'tier_3',
  },

  // Company data: legacy promotions
  'promotions.create': { method: 'POST', path: '/promotions', tier: 'tier_3' },
  'promotions.update': { method: 'PATCH', path: '/promotions/{id}', tier: 'tier_3' },
  'promotions.delete': { method: 'DELETE', path: '/promotions/{id}', tier: 'tier_3' },
} as const satisfies Record<string, OperationSpec>;

export type OperationId = keyof typeof OPERATIONS;
/** Operations that answer without credentials. */
export type PublicOperationId = { [K in OperationId]: (typeof OPERATIONS)[K] extends { public: true } ? K : never }[OperationId];
