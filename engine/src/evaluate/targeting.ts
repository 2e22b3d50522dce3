/** Targeting at the cart's creation date in the Company timezone: why a campaign is out of reach, or null. */
import type { CompiledCampaign } from '../compile/program.js';
import { outsideWindow } from '../time/dateWindow.js';
import { isIdentified } from './contextInput.js';
import { runsOn } from './recurrence.js';
import type { Run } from './run.js';

/** What targeting reads: the instant, its local date, the currency and the customer (a game play has no cart). */
export interface TargetingInput {
  input: Pick<Run['input'], 'createdAt' | 'currency'>;
  created: Run['created'];
  context: Run['context'];
}

export function targetingRefusal(run: TargetingInput, campaign: CompiledCampaign): string | null {
  const t = campaign.targeting;
  if (!t.active) return 'the campaign is not active';
  const outside = outsideWindow(t.dates, run.input.createdAt, run.created.date);
  if (outside === 'before') return 'the campaign has not started at the cart date';
  if (outside === 'after') return 'the campaign has ended at the cart date';
  if (t.recurrence && !runsOn(t.recurrence, run.created)) {
    return t.recurrence.type === 'weekly' ? 'the campaign does not run on this weekday' : 'the campaign does not run on this day of the month';
  }
  if (t.currency !== null && t.currency !== run.input.currency) return `the campaign is in ${t.currency}, the cart in ${run.input.currency}`;
  if (t.selectCustomers !== 'all_customers' && !isIdentified(run.context)) return 'the campaign is for loyalty members';
  if (t.countries) {
    const customer = run.context.customer;
    const country = customer?.registration_country ?? customer?.country;
    if (country === undefined || !t.countries.has(country)) return 'the customer\'s registration country is not targeted';
  }
  return null;
}
