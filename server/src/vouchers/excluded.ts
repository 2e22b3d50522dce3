/**
 * GET /vouchers/excluded_products: the products and categories (product
 * features, `<taxonomy_slug>:<feature_id>`) a voucher's campaign leaves out:
 * the values of its negative leaves (`not_in`, `neq`) in rule_conditions and
 * rule_application.
 */
import { NEGATIVE, ruleValues } from '../campaigns/rule-values.js';
import type { CampaignRecord } from '../campaigns/types.js';
import { wireInt } from '../http/wire.js';

function excluded(campaign: CampaignRecord, field: string): string[] {
  const { rule_conditions: conditions, rule_application: application } = campaign.rule_params;
  const values = [...(ruleValues(conditions, field, NEGATIVE) ?? []), ...(ruleValues(application, field, NEGATIVE) ?? [])];
  return [...new Set(values)];
}

export function excludedProducts(campaign: CampaignRecord): Record<string, unknown> {
  return {
    loyalty_rule_id: wireInt(campaign.id),
    product_ids: excluded(campaign, 'product_id').map((id) => wireInt(id)),
    product_codes: excluded(campaign, 'product_code'),
    product_eans: excluded(campaign, 'product_ean'),
    categories: excluded(campaign, 'feature').map((feature) => {
      const split = feature.indexOf(':');
      const id = feature.slice(split + 1);
      return { taxonomy_slug: feature.slice(0, split), id: /^[1-9]\d*$/.test(id) ? wireInt(id) : id };
    }),
  };
}
