/**
 * The level a customer holds in a tier program (docs/rewards-challenges-tiers.md, "Retention"). In a program with
 * `validity_days` a level won is held until its `expires_at` even when the measured value falls below its threshold;
 * at `expires_at` the level the value measured at that instant gives is won again for `validity_days` (none below the
 * first threshold), once for every expiry passed; a higher measured level is held at once. Without `validity_days`
 * the level held is the measured one. Applied when read, so every reader (GET /customers/{id}/tiers, `customer.tier`
 * in carts, triggers, games and audiences, the tiers of rewards) sees the level of the same instant with no sweep;
 * the writes that measure the customer (recalculate.ts) store the membership it gives.
 */
import type { CustomerRecord } from '../customers/types.js';
import { daysLater, localDate } from '../calendar/company-days.js';
import { wireDatetime } from '../http/wire.js';
import type { Tenant } from '../tenancy/types.js';
import { programStanding } from './measured.js';
import { withLevel, type Standing } from './standing.js';
import type { TierStore } from './store.js';
import type { TierLevel, TierMembership, TierProgram } from './types.js';

export interface Held {
  /** The standing at the level held (`current`), the next level being the one above it. */
  standing: Standing;
  /** The level the measured value gives now. */
  measured?: TierLevel;
  /** The membership stored. */
  stored?: TierMembership;
  /** The membership in force now: the stored one, or the level won again at each expiry passed since (none once a lapse left no level). */
  inForce?: TierMembership;
  /** The record (won_at, expires_at) of the level held; undefined when no write recorded that level. */
  membership?: TierMembership;
}

/**
 * `now`: the instant read; cart metrics are measured up to its local date in `timezone`. `before`: in a write that
 * changes the customer's attributes, the record before it, whose values the expiries passed were measured with.
 */
export function heldStanding(tiers: TierStore, tenant: Tenant, program: TierProgram, customer: CustomerRecord, now: Date, timezone: string, before = customer): Held {
  const measure = (record: CustomerRecord, at: Date) => programStanding(tiers.env, tenant, program, record, localDate(at, timezone));
  const measuredNow = measure(customer, now);
  const stored = tiers.membership(tenant, customer.id, program.id);
  const days = program.validity_days;
  const inForce = days === undefined ? stored : renewedAtExpiries(stored, days, (at) => measure(before, at).current?.level, now, timezone);
  const level = retainedLevel(program, inForce, measuredNow.current);
  const standing = level === measuredNow.current ? measuredNow : withLevel(program, measuredNow.value, level);
  return {
    standing,
    measured: measuredNow.current,
    stored,
    inForce,
    membership: inForce !== undefined && inForce.level === level?.level ? inForce : undefined,
  };
}

/**
 * Each expiry passed: the level measured at that instant, won then for `days` more. The writes that change the
 * measured value store the membership in force (recalculate.ts), so a stored membership that has expired saw no such
 * write since: the value at its expiry is the one the stored metrics and attributes give for that instant.
 */
function renewedAtExpiries(stored: TierMembership | undefined, days: number, levelAt: (at: Date) => number | undefined, now: Date, timezone: string): TierMembership | undefined {
  let membership = stored;
  while (membership?.expires_at !== undefined && Date.parse(membership.expires_at) <= now.getTime()) {
    const expiry = new Date(membership.expires_at);
    const level = levelAt(expiry);
    membership = level === undefined ? undefined : { level, won_at: membership.expires_at, expires_at: wireDatetime(daysLater(expiry, days, timezone)) };
  }
  return membership;
}

/** A level won and not expired is held above the measured one; a membership without expires_at (none was set when it was won) retains nothing. */
function retainedLevel(program: TierProgram, inForce: TierMembership | undefined, measured: TierLevel | undefined): TierLevel | undefined {
  if (program.validity_days === undefined || inForce?.expires_at === undefined) return measured;
  const won = program.levels.find((level) => level.level === inForce.level);
  return won !== undefined && (measured === undefined || won.level > measured.level) ? won : measured;
}
