/**
 * A campaign is accepted only if the engine compiles it: the same compiler
 * the workers run, so a campaign written now is never left out of its Company's program.
 */
import { CART_EVENT, compileCampaigns, isCartCampaign, TallyError } from '@tally/engine';
import { invalidRequest } from '../http/errors.js';
import { stringifyJson } from '../http/json.js';
import { KEY_TEXT_MAX } from '../http/params.js';
import { toSlug, WIRE_DESCRIPTIONS } from '../http/wire.js';
import { fixedPoints } from '../instant-wins/points-prize.js';
import type { CompanySettings } from '../tenancy/types.js';
import { isCustomEventCampaign } from '../triggers/binding.js';
import { engineSettings } from './engine-settings.js';
import { toEngineCampaign } from './store.js';
import type { CampaignRecord } from './types.js';

/** Throws invalid_request naming the rule field (`rule_params.rule_conditions...`) the engine refused. */
export function checkCompiles(record: CampaignRecord, settings: CompanySettings): void {
  try {
    compileCampaigns([toEngineCampaign(record)], engineSettings(settings));
  } catch (error) {
    if (!(error instanceof TallyError)) throw error;
    // The engine names the field within the list it compiled; this request holds one campaign.
    const strip = (text: string) => text.replace(/^campaigns\[0\]\.?/, '');
    throw new TallyError(error.code, strip(error.message), error.field === undefined ? undefined : strip(error.field));
  }
}

/**
 * A campaign bound to an event other than carts (rule_params.when, custom_entity_definition_id: triggers/binding.ts)
 * must be able to act on it: a discount acts on carts only, a points campaign bound to a trigger names it by a slug
 * `POST /trigger` can send, and a points campaign bound to a trigger or a custom event grants a fixed number of points
 * (one direct_value effect; an event has no amount for a ratio to apply to). Such a
 * campaign was stored, read as valid, and granted nothing. Checked by a write that creates the campaign or changes
 * what binds it (`when`, `custom_entity_definition_id`, `rule_effects`): one stored before stays editable.
 */
/**
 * An event other than carts is named by a slug an event can send (`POST /trigger`'s `trigger`, a custom event's `slug`):
 * a `when` no event can send binds the campaign or instant win to nothing.
 */
export function checkEventSlug(when: unknown): void {
  if (when === undefined || when === null || when === CART_EVENT) return;
  if (toSlug(when) === undefined || String(when).length > KEY_TEXT_MAX) {
    throw invalidRequest('rule_params.when', `must be ${WIRE_DESCRIPTIONS.slug} of at most ${KEY_TEXT_MAX} characters: an event names what it runs by it`);
  }
}

export function checkBinding(record: CampaignRecord, previous?: CampaignRecord): void {
  const bindingOf = ({ rule_params: params }: CampaignRecord) => stringifyJson([params.when, params.custom_entity_definition_id, params.rule_effects]);
  if (previous !== undefined && bindingOf(previous) === bindingOf(record)) return;
  const params = record.rule_params;
  if (isCartCampaign(params)) return;
  if (record.type === 'discount') throw invalidRequest('rule_params.when', `must be ${CART_EVENT} or absent: a discount acts on carts only`);
  if (!isCustomEventCampaign(params)) checkEventSlug(params.when);
  if (fixedPoints(record) === null) {
    throw invalidRequest('rule_params.rule_effects', 'must be one direct_value effect: a campaign bound to a trigger or a custom event grants a fixed number of points');
  }
}

/**
 * A stored campaign's compile error (null when it compiles): what its single read answers, so a back office sees a
 * campaign carts leave out because it no longer compiles (stored before a stricter rule, or restored from another version).
 */
export function compileError(record: CampaignRecord, settings: CompanySettings): { code: string; message: string } | null {
  return compileErrorOf(() => {
    checkBinding(record);
    checkCompiles(record, settings);
  });
}

/** The error a write's compile check (`check`) throws, as a single read answers it; null when it passes. */
export function compileErrorOf(check: () => void): { code: string; message: string } | null {
  try {
    check();
    return null;
  } catch (error) {
    if (!(error instanceof TallyError)) throw error;
    return { code: error.code, message: error.message };
  }
}
