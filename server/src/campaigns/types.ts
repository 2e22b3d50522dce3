/**
 * A stored discount or points campaign. `rule_params` keeps the rule objects
 * parsed (they travel as JSON strings on the wire only) and names in the
 * Company's default language (what the engine reports); the other languages
 * are kept in `texts`. Ids are int64 decimal strings.
 */
import type { CouponParams, RuleParams } from '@tally/engine';

export type CampaignKind = 'discount' | 'points';

/** Text in several languages, keyed by two-letter language code. */
export type Translations = Record<string, string>;

export type TextField = 'name' | 'description' | 'coupon_name' | 'coupon_description';

/** Multi-language texts of campaigns, by campaign id (only campaigns that have some). */
export type CampaignTexts = ReadonlyMap<string, CampaignRecord['texts']>;

export interface CampaignRecord {
  id: string;
  type: CampaignKind;
  rule_params: RuleParams;
  /** Present for campaigns created with a coupon (targeted campaigns always have one). */
  coupon_params?: CouponParams;
  /** The coupon created with the campaign (int64 decimal string). */
  coupon_id?: string;
  /** The id of this version of the campaign (campaign_history_id), given by the store on every write. */
  history_id?: string;
  /** Multi-language names and descriptions, when they were sent as objects. */
  texts: Partial<Record<TextField, Translations>>;
  created_at: string;
  updated_at: string;
}
