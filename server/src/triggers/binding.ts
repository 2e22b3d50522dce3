/**
 * Which event runs a points or instant-win campaign (rule_params.when and
 * custom_entity_definition_id): a cart (`when` absent or
 * `after_create_activity`), a custom event (custom_entity_definition_id set:
 * the events of that definition, whatever `when` says), or a trigger (any
 * other `when` = the trigger's slug, e.g. `refer_a_friend`). Instant wins have
 * no custom_entity_definition_id: their `when` names a trigger slug or a
 * custom event slug. Carts must evaluate only cart campaigns.
 */
import { isCartCampaign, type RuleParams } from '@tally/engine';

export { CART_EVENT, isCartCampaign } from '@tally/engine';

export function isCustomEventCampaign(params: RuleParams): boolean {
  return params.custom_entity_definition_id !== undefined && params.custom_entity_definition_id !== null;
}

/**
 * Bound to the event of this slug (a trigger; for instant wins, also a custom event); never a cart campaign, nor a
 * points campaign bound to a custom event definition (that binding wins over its `when`).
 */
export function isBoundToTrigger(params: RuleParams, slug: string): boolean {
  return !isCartCampaign(params) && !isCustomEventCampaign(params) && params.when === slug;
}

export function isBoundToCustomEvent(params: RuleParams, definitionId: string): boolean {
  return isCustomEventCampaign(params) && String(params.custom_entity_definition_id) === definitionId;
}
