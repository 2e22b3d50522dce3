/**
 * A campaign is accepted only if the engine compiles it: the same compiler
 * the workers run, so a campaign written now is never left out of its Company's program.
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

/**
 * A stored campaign's compile error (null when it compiles): what its single read answers, so a back office sees a
 * campaign carts leave out because it no longer compiles (stored before a stricter rule, or restored from another version).
 */
export function compileError(record: CampaignRecord, settings: CompanySettings): { code: string; message: string } | null {
  return compileErrorOf(() => checkCompiles(record, settings));
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
