/**
 * A POST or PATCH /challenges body → the challenge to store. Each field sent
 * replaces the stored one. The attribute is a cart metric or a numeric custom
 * attribute of the Company's schema; levels are distinct with thresholds that
 * rise with the level; a relative_months period needs its months and a fixed
 * one its dates.
 */
import { invalidRequest } from '../http/errors.js';
import type { CompanySettings } from '../tenancy/types.js';
import type { ChallengesCreate, ChallengesUpdate } from '../wire/types.js';
import type { ChallengeRecord } from './types.js';
import { checkLevels, checkMeasuredAttribute } from './measure-checks.js';

const DEFAULTS = {
  description: null, status: 'active', countries: [], available_from: null, available_to: null, display_from: null, display_to: null,
  challenge_type: null, image_file_name: null, open_to_all: false, max_enrollments: null, partner: null,
  attribute_data_period_type: 'challenge_dates', attribute_period_from: null, attribute_period_to: null, attribute_relative_value: null,
} as const;

export function buildChallenge(id: string, body: ChallengesCreate | ChallengesUpdate, settings: CompanySettings, now: string, previous?: ChallengeRecord): ChallengeRecord {
  const { structure, ...plain } = body;
  const base = previous ?? { ...DEFAULTS, created_at: now };
  const challenge = { ...base, ...plain, id, updated_at: now } as ChallengeRecord;
  if (structure !== undefined) challenge.structure = structure.map((l) => ({ ...l, points: l.points ?? 0 }));
  if (body.attribute !== undefined) checkMeasuredAttribute(body.attribute, settings);
  if (structure !== undefined) checkLevels(challenge.structure);
  checkDates(challenge, 'available');
  checkDates(challenge, 'display');
  checkDates(challenge, 'attribute_period');
  if (challenge.attribute_data_period_type === 'relative_months' && challenge.attribute_relative_value === null) {
    throw invalidRequest('attribute_relative_value', 'is required for a relative_months period');
  }
  if (challenge.attribute_data_period_type === 'fixed' && challenge.attribute_period_from === null) {
    throw invalidRequest('attribute_period_from', 'is required for a fixed period');
  }
  return challenge;
}

function checkDates(challenge: ChallengeRecord, prefix: 'available' | 'display' | 'attribute_period'): void {
  const from = challenge[`${prefix}_from`];
  const to = challenge[`${prefix}_to`];
  if (from !== null && to !== null && from > to) throw invalidRequest(`${prefix}_to`, `is before ${prefix}_from`);
}
