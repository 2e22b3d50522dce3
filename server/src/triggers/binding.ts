/**
 * Which event runs a points campaign (rule_params.when and
 * custom_entity_definition_id): a cart (`when` absent or
 * `after_create_activity`), a custom event (custom_entity_definition_id set:
 * the events of that definition), or a trigger (`when` = the trigger's slug,
 * e.g. `refer_a_friend`). Carts must evaluate only cart campaigns.
 */
import type { RuleParams } from '@tally/engine';
import type { CampaignRecord } from '../campaigns/types.js';

export const CART_EVENT = 'after_create_activity';

export function isCustomEventCampaign(params: RuleParams): boolean {
  return params.custom_entity_definition_id !== undefined && params.custom_entity_definition_id !== null;
}

/** Whether a campaign acts on carts (the program of the cart path keeps only these). */
export function isCartCampaign(params: RuleParams): boolean {
  if (isCustomEventCampaign(params)) return false;
  return params.when === undefined || params.when === null || params.when === '' || params.when === CART_EVENT;
}

export function isBoundToTrigger(record: CampaignRecord, slug: string): boolean {
  return record.type === 'points' && !isCustomEventCampaign(record.rule_params) && record.rule_params.when === slug;
}

export function isBoundToCustomEvent(record: CampaignRecord, definitionId: string): boolean {
  return record.type === 'points' && String(record.rule_params.custom_entity_definition_id) === definitionId;
}
