/** A Company environment's settings in the engine's shape (compileCampaigns, evaluateCart). */
import type { Settings } from '@tally/engine';
import type { CompanySettings } from '../tenancy/types.js';

export function engineSettings(settings: CompanySettings): Settings {
  return {
    currency: settings.currency,
    timezone: settings.timezone,
    point_value: settings.point_value,
    cashback_cap: settings.cashback_cap,
    score_threshold_cashback: settings.cashback_threshold,
  };
}
