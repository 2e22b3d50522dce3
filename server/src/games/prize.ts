/**
 * Delivery of a won game prize, inside the play's transaction: points are
 * credited through the points ledger (a `trigger` transaction whose slug is
 * `game`), a discount is issued as a voucher of the prize's discount campaign.
 */
import type { CampaignStore } from '../campaigns/store.js';
import { recordPoints } from '../points/ledger.js';
import type { StoreEnv } from '../store/env.js';
import type { CompanySettings, Tenant } from '../tenancy/types.js';
import { couponTarget, type VoucherTarget } from '../vouchers/issue.js';
import { issueInTransaction } from '../vouchers/trigger.js';
import type { VoucherStore } from '../vouchers/store.js';
import type { GamePlayRecord, GamePrizeRecord, GameRecord } from './types.js';
import { wireDatetime } from '../http/wire.js';

export interface PrizeDelivery {
  env: StoreEnv;
  tenant: Tenant;
  campaigns: CampaignStore;
  vouchers: VoucherStore;
  settings: CompanySettings;
  now: Date;
}

export function deliverGamePrize(d: PrizeDelivery, game: GameRecord, prize: GamePrizeRecord, customerId: string, customerCode: string | null): GamePlayRecord['delivery'] {
  if (prize.outcome === 'points') {
    const tx = recordPoints(d.env, d.tenant, { now: d.now, timezone: d.settings.timezone }, {
      type: 'trigger',
      customer_id: customerId,
      customer_code: customerCode,
      created_at: wireDatetime(d.now),
      origin_info: { slug: 'game', comments: `${game.rule_params.name}: ${prize.name}` },
      grants: [{ campaign_id: game.id, campaign_name: String(game.rule_params.name), amount: prize.points! }],
    });
    return { points_transaction_id: tx.id };
  }
  if (prize.outcome === 'discount') {
    // play() draws a discount prize only while it is deliverable, checked in this same transaction.
    // Issued as every voucher of a coupon is (its priority too: it was 0, behind the same coupon's other vouchers).
    const target = prizeCoupon(d.campaigns, d.tenant, prize.promotion_id!)!;
    const voucher = issueInTransaction(d.env, d.vouchers, d.tenant, d.settings, target, { customer_id: customerId }, d.now);
    return { voucher_id: voucher.id, voucher_code: voucher.code };
  }
  return null;
}

/**
 * Whether a won prize can be delivered now: a discount prize needs its campaign to be a discount with a coupon
 * still (the game's write checked it, but DELETE /coupons or a change of the campaign may have come since).
 */
export function deliverable(campaigns: CampaignStore, tenant: Tenant, prize: GamePrizeRecord): boolean {
  return prize.outcome !== 'discount' || prizeCoupon(campaigns, tenant, prize.promotion_id!) !== undefined;
}

/** The coupon a discount prize issues a voucher of; undefined when the campaign is gone, no discount or without coupon. */
export function prizeCoupon(campaigns: CampaignStore, tenant: Tenant, promotionId: string): VoucherTarget | undefined {
  const campaign = campaigns.get(tenant, promotionId);
  return campaign?.type === 'discount' ? couponTarget(campaign) : undefined;
}
