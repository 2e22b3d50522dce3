/**
 * A campaign is accepted only if the engine compiles it: the same compiler
 * the workers run, so a stored campaign can never break a Company's program.
 */
import { compileCampaigns, TallyError } from '@tally/engine';
import type { CompanySettings } from '../tenancy/types.js';
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
