/**
 * Every kind of customer-owned record (owned-records.ts). A resource whose
 * records belong to a customer (carts, points ledger, vouchers, redemptions)
 * adds its kind here: one import, one entry. Merges move them, unmerges give
 * them back, deletes check and remove them.
 */
import { relativesKind } from '../associations/relatives.js';
import { cartsKind } from '../carts/owned-kind.js';
import { cardsKind } from './cards.js';
import { discountRedemptionsKind, vouchersKind } from '../vouchers/owned.js';
import { pointsKind } from '../points/owned-kind.js';
import { customEventsKind } from '../custom-events/owned-kind.js';
import { gameDeliveriesKind } from '../games/owned-kind.js';
import { rewardRedemptionsKind } from '../rewards/owned-kind.js';
import { challengeMetricsKind, challengeProgressKind } from '../challenges/owned-kind.js';
import type { CustomerOwnedKind } from './owned-records.js';

export const OWNED_KINDS: readonly CustomerOwnedKind[] = [cardsKind, relativesKind, vouchersKind, discountRedemptionsKind, pointsKind, customEventsKind, gameDeliveriesKind, rewardRedemptionsKind, cartsKind, challengeProgressKind, challengeMetricsKind];
