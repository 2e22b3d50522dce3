/**
 * The facts an audience rule reads: the customer part of the evaluator's
 * CartFacts, filled from the stored customer as carts and game plays fill it
 * (its country, else the Company's; the tier it holds), so an audience selects
 * the customers a campaign with the same conditions would. Audiences are
 * about customers, so the cart part is empty (no lines, totals 0) and
 * creation_date is the time of the evaluation in the Company's timezone.
 */
import type { CartFacts } from '@tally/engine';
import type { CustomerRecord } from '../customers/types.js';
import { ownCountry } from '../locations/registration.js';
import type { CompanySettings } from '../tenancy/types.js';

const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

function zoned(at: Date, timezone: string): { weekday: number; hour: number } {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone: timezone, weekday: 'short', hour: 'numeric', hourCycle: 'h23' }).formatToParts(at);
  const part = (type: string) => parts.find((p) => p.type === type)!.value;
  return { weekday: WEEKDAYS.indexOf(part('weekday')) + 1, hour: Number(part('hour')) };
}

const text = (value: unknown) => (typeof value === 'string' ? value : undefined);

/** `tier`: the level the customer holds (`customerTier`), undefined without one. */
export function audienceFacts(customer: CustomerRecord, settings: CompanySettings, at: Date, tier: string | undefined): CartFacts {
  return {
    total: 0,
    original_total: 0,
    location_features: [],
    currency: settings.currency,
    attributes: {},
    customer: {
      identified: true,
      id: customer.id,
      code: customer.code,
      country: ownCountry(customer.profile, settings),
      gender: text(customer.profile.gender),
      kind: text(customer.profile.kind),
      tier,
      attributes: customer.attributes,
    },
    creation_date: zoned(at, settings.timezone),
    lines: [],
  };
}
