/** The contract's Challenge and customer challenge shapes, texts in the request's language. */
import { attributeDefinition } from '../customers/attribute-definitions.js';
import type { CustomerRecord } from '../customers/types.js';
import { localize } from '../http/language.js';
import { wireDatetime, wireInt } from '../http/wire.js';
import { endOfDay, localDate } from '../calendar/company-days.js';
import type { StoreEnv } from '../store/env.js';
import type { CompanySettings, Tenant } from '../tenancy/types.js';
import { attributeValue, isCartMetric, reachedLevel } from './measure.js';
import type { ChallengeStore } from './store.js';
import type { ChallengeRecord } from './types.js';

export interface ViewContext {
  env: StoreEnv;
  tenant: Tenant;
  language: string | undefined;
  settings: CompanySettings;
  now: Date;
  challenges: ChallengeStore;
}

export function challengeView(challenge: ChallengeRecord, ctx: ViewContext) {
  const text = (value: ChallengeRecord['name'] | null) => (value === null ? null : localize(value, ctx.language, ctx.settings));
  const definition = isCartMetric(challenge.attribute) ? undefined : attributeDefinition(ctx.env, ctx.tenant, challenge.attribute);
  return {
    ...challenge,
    id: wireInt(challenge.id),
    name: text(challenge.name),
    description: text(challenge.description),
    customer_attribute_id: definition === undefined ? null : wireInt(definition.id),
    current_enrollments: ctx.challenges.enrollments(ctx.tenant, challenge.id),
    structure: [...challenge.structure].sort((a, b) => a.level - b.level),
  };
}

/** The challenge with the customer's progress: value of the attribute over the period, level reached, enrolment. */
export function customerChallengeView(challenge: ChallengeRecord, customer: CustomerRecord, ctx: ViewContext) {
  const base = challengeView(challenge, ctx);
  const progress = ctx.challenges.progress(ctx.tenant, customer.id, challenge.id);
  const value = attributeValue(ctx.challenges, ctx.tenant, challenge, customer, localDate(ctx.now, ctx.settings.timezone));
  const level = reachedLevel(challenge, value);
  return {
    ...base,
    attribute_value: value,
    attribute_id: base.customer_attribute_id,
    current_level: level?.level ?? 0,
    current_level_name: level?.name ?? null,
    last_execution_time: progress.last_execution_time,
    expires_at: challenge.available_to === null ? null : wireDatetime(endOfDay(challenge.available_to, ctx.settings.timezone)),
    enrolled: progress.enrolled_at !== null,
  };
}
