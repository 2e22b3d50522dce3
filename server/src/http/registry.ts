/**
 * Every resource's routes. A resource folder exports a function building its
 * handlers; add it to RESOURCES (one import, one line). An operation claimed
 * twice is a start-up error. Writes are recorded in the audit log unless their
 * operation says `audit: false` (operations.ts).
 */
import type { ServerContext } from '../context.js';
import { cartsRoutes } from '../carts/routes.js';
import { checkRoutes } from '../check/routes.js';
import { companyRoutes } from '../tenancy/routes.js';
import { customersRoutes } from '../customers/routes.js';
import { associationsRoutes } from '../associations/routes.js';
import { mergesRoutes } from '../merges/routes.js';
import { audiencesRoutes } from '../audiences/routes.js';
import { tiersRoutes } from '../tiers/routes.js';
import { tierProgramRoutes } from '../tiers/program-routes.js';
import { utilitiesRoutes } from '../utilities/routes.js';
import { productRoutes } from '../products/routes.js';
import { taxonomyRoutes } from '../taxonomies/routes.js';
import { locationRoutes } from '../locations/routes.js';
import { promotionRoutes } from '../promotions/routes.js';
import { discountCampaignRoutes, pointsCampaignRoutes } from '../campaigns/routes.js';
import { voucherRoutes } from '../vouchers/routes.js';
import { voucherOperationRoutes } from '../vouchers/operation-routes.js';
import { couponRoutes } from '../coupons/routes.js';
import { pointsRoutes } from '../points/routes.js';
import { triggerRoutes } from '../triggers/routes.js';
import { customEventRoutes } from '../custom-events/routes.js';
import { gameRoutes } from '../games/routes.js';
import { instantWinRoutes } from '../instant-wins/routes.js';
import { rewardRoutes } from '../rewards/routes.js';
import { challengeRoutes } from '../challenges/routes.js';
import { openapiRoutes } from '../openapi/routes.js';
import { webhookRoutes } from '../webhooks/routes.js';
import { auditLogRoutes } from '../audit/routes.js';
import { auditRoutes } from '../audit/context.js';
import type { Routes } from './types.js';

const RESOURCES: ReadonlyArray<(ctx: ServerContext) => Routes> = [checkRoutes, companyRoutes, customersRoutes, associationsRoutes, mergesRoutes, audiencesRoutes, tiersRoutes, tierProgramRoutes, utilitiesRoutes, productRoutes, taxonomyRoutes, locationRoutes, promotionRoutes, discountCampaignRoutes, pointsCampaignRoutes, voucherRoutes, voucherOperationRoutes, couponRoutes, pointsRoutes, triggerRoutes, customEventRoutes, cartsRoutes, gameRoutes, instantWinRoutes, rewardRoutes, challengeRoutes, webhookRoutes, auditLogRoutes, openapiRoutes];

export function buildRoutes(ctx: ServerContext): Routes {
  const all: Record<string, unknown> = {};
  for (const resource of RESOURCES) {
    for (const [operation, handler] of Object.entries(resource(ctx))) {
      if (operation in all) throw new Error(`operation ${operation} has two handlers`);
      all[operation] = handler;
    }
  }
  // Audited operations' handlers run in their request's audit context (audit/context.ts).
  return Object.freeze(auditRoutes(all as Routes));
}
