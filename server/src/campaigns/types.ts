/**
 * A stored discount or points campaign. `rule_params` keeps the rule objects
 * parsed (they travel as JSON strings on the wire only); ids are int64
 * decimal strings.
 */
import type { CouponParams, RuleParams } from '@tally/engine';

export type CampaignKind = 'discount' | 'points';

export interface CampaignRecord {
  id: string;
  type: CampaignKind;
  rule_params: RuleParams;
  /** Present for campaigns created with a coupon (targeted campaigns always have one). */
  coupon_params?: CouponParams;
  /** The coupon created with the campaign (int64 decimal string). */
  coupon_id?: string;
  created_at: string;
  updated_at: string;
}
