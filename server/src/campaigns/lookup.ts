/**
 * GET /discounts/{value} and GET /points/{value}: `search_by` says what the
 * value is: the campaign id (default; `loyalty_rule_id` is the same), a
 * voucher code or id, the coupon's static code, or a campaign_history_id
 * (that version of the campaign, as it was).
 */
import { TallyError } from '@tally/engine';
import { optionalEnum, requireInt64 } from '../http/params.js';
import type { Tenant } from '../tenancy/types.js';
import type { VoucherStore } from '../vouchers/store.js';
import type { VoucherRecord } from '../vouchers/types.js';
import type { CampaignStore } from './store.js';
import type { CampaignKind, CampaignRecord } from './types.js';

export const SEARCH_BY = ['id', 'loyalty_rule_id', 'voucher_code', 'voucher_id', 'static_code', 'campaign_history_id'] as const;

export interface Found {
  campaign: CampaignRecord;
  voucher?: VoucherRecord;
}

export function findCampaign(
  stores: { campaigns: CampaignStore; vouchers: VoucherStore },
  tenant: Tenant,
  kind: CampaignKind,
  value: string,
  searchBy: string | null,
): Found {
  const by = optionalEnum(searchBy, 'search_by', SEARCH_BY) ?? 'id';
  let found: Found | undefined;
  if (by === 'voucher_code' || by === 'voucher_id') {
    const voucher =
      by === 'voucher_code' ? stores.vouchers.byCode(tenant, value) : stores.vouchers.get(tenant, requireInt64(value, 'value'));
    const campaign = voucher && stores.campaigns.get(tenant, voucher.campaign_id);
    if (voucher && campaign) found = { campaign, voucher };
  } else {
    const campaign =
      by === 'static_code' ? stores.campaigns.byStaticCode(tenant, value)
      : by === 'campaign_history_id' ? stores.campaigns.getHistory(tenant, requireInt64(value, 'value'))
      : stores.campaigns.get(tenant, requireInt64(value, 'value'));
    if (campaign) found = { campaign };
  }
  if (!found || found.campaign.type !== kind) {
    throw new TallyError('campaign_not_found', `value: no ${kind} campaign with ${by} ${value}`, 'value');
  }
  return found;
}
