/**
 * Challenge progress. A realtime cart calls `advanceChallenges` inside its
 * write transaction, after its points and before instant wins (the contract's
 * order): the cart is added to the customer's daily metrics on the day of
 * its sale, then each challenge the customer takes part in (enrolled, or open
 * to all) that is running that day or today in its country is measured again, and every level newly
 * reached grants its points through the ledger (a `challenge` transaction).
 * A level is rewarded once per customer and challenge. Nothing here throws:
 * it runs after the cart's writes.
 */
import { countedAt } from '@tally/engine';
import { Decimal } from 'decimal.js';
import type { CustomerRecord } from '../customers/types.js';
import { localize } from '../http/language.js';
import { wireDatetime, wireInt } from '../http/wire.js';
import { recordPoints } from '../points/ledger.js';
import { customerCountry } from '../rewards/eligibility.js';
import { localDate } from '../calendar/company-days.js';
import type { LedgerClock } from '../points/types.js';
import type { StoreEnv } from '../store/env.js';
import type { CompanySettings, Tenant } from '../tenancy/types.js';
import { attributeValue, isCartMetric, reachedLevel } from './measure.js';
import { ChallengeStore } from './store.js';
import type { AddedMetrics, ChallengeRecord, DailyMetrics } from './types.js';

export interface CartProgress {
  customer: CustomerRecord;
  /** What the cart adds to `total_spent`, in cents: its total as answered (after the evaluation's discounts), `totalCents`. */
  total_spent_cents: number;
  /** Points the cart granted. */
  points: number;
  location_id: string | null;
  /** The cart's lines as sent: whether it counts in the `carts` metric (isSale). */
  lines: unknown;
  /** The local day of the sale (salesDay): the day its metrics count on. */
  day: string;
}

export interface ProgressClock extends LedgerClock {
  settings: CompanySettings;
}

/** Whether the challenge is running on `today` for a customer of `country`. */
export function isRunning(challenge: ChallengeRecord, today: string, country: string): boolean {
  return (
    challenge.status === 'active' &&
    (challenge.available_from === null || challenge.available_from <= today) &&
    (challenge.available_to === null || today <= challenge.available_to) &&
    (challenge.countries.length === 0 || challenge.countries.includes(country))
  );
}

/**
 * The local day a cart's metrics count on: its sale's (creation_date), as its counters' periods are (`countedAt`: a
 * till's back-dated backlog counts on the days it sold; a creation_date ahead of the clock, today).
 */
export function salesDay(creationDate: string, now: string, timezone: string): string {
  return localDate(new Date(countedAt(creationDate, now)), timezone);
}

/**
 * Call inside the realtime cart's `env.transact`, after its points. The cart counts on its sale's day; the challenges
 * running that day are measured at it (a sale made before a challenge ended counts in it, sent after the end), then
 * those running today (a back-dated sale may count in a window that goes on).
 */
export function advanceChallenges(env: StoreEnv, tenant: Tenant, clock: ProgressClock, cart: CartProgress): void {
  const store = new ChallengeStore(env);
  store.addCartInTransaction(tenant, cart.customer.id, cart.day, cartMetrics(cart));
  const today = localDate(clock.now, clock.timezone);
  if (cart.day !== today) advanceTakenPart(env, tenant, clock, cart.customer, cart.location_id, () => true, cart.day);
  advanceTakenPart(env, tenant, clock, cart.customer, cart.location_id, () => true, today);
}

/**
 * Call inside the transaction that writes a customer's attributes (create, update), `previous` the record before it
 * (none on create): the challenges over a custom attribute whose value the write changed are measured again, so a
 * level the new value reaches grants its points now, not at the customer's next cart. Merged and merging customers
 * are skipped (their points would sit on an account nobody reads). Returns the level points granted.
 */
export function advanceAttributeChallenges(env: StoreEnv, tenant: Tenant, clock: ProgressClock, customer: CustomerRecord, previous?: CustomerRecord): number {
  if (customer.status === 'merged' || customer.status === 'merging') return 0;
  const changed = (attribute: string) => !isCartMetric(attribute) && customer.attributes[attribute] !== previous?.attributes[attribute];
  return advanceTakenPart(env, tenant, clock, customer, null, (challenge) => changed(challenge.attribute), localDate(clock.now, clock.timezone));
}

/** Every challenge running on `day` for the customer that it takes part in (enrolled, or open to all) and `which` keeps, measured at `day`. */
function advanceTakenPart(env: StoreEnv, tenant: Tenant, clock: ProgressClock, customer: CustomerRecord, locationId: string | null, which: (challenge: ChallengeRecord) => boolean, day: string): number {
  const store = new ChallengeStore(env);
  const country = customerCountry(customer, clock.settings);
  let granted = 0;
  for (const challenge of store.all(tenant)) {
    if (!which(challenge) || !isRunning(challenge, day, country)) continue;
    const progress = store.progress(tenant, customer.id, challenge.id);
    if (challenge.open_to_all || progress.enrolled_at !== null) granted += rewardLevels(env, tenant, clock, challenge, customer, locationId, day);
  }
  return granted;
}

/** What a cancelled cart had added to its customer's metrics. */
export interface CancelledCart {
  customer_id: string;
  /** The customer the cart was stored for (a merge may have given it to customer_id since). */
  origin: string;
  /** When the cart was stored (ISO): the day its metrics were added to when `metrics_day` is absent. */
  stored_at: string;
  /** The local day its metrics were added to (CartRecord.metrics_day); absent on carts stored before it was recorded. */
  metrics_day?: string;
  /** What the cart added to `total_spent`, in cents. */
  total_spent_cents: number;
  points: number;
  /** Its lines as sent: a cart that only returned goods was not counted in `carts`. */
  lines: unknown;
}

/** What a cart adds to its customer's daily metrics. */
export function cartMetrics(cart: Pick<CartProgress, 'total_spent_cents' | 'points' | 'lines'>): DailyMetrics {
  return { total_spent_cents: cart.total_spent_cents, carts: isSale(cart.lines) ? 1 : 0, points_earned: cart.points };
}

/**
 * Call inside the cancellation's `env.transact`: takes the cart out of the
 * metrics of the day it was added to (its sale's; a cart stored before that
 * was recorded was added on the day it was stored), so challenges and tiers
 * stop counting it. Level points already granted stay (as a game prize won does).
 * Returns what it added to the metrics (negative), for the tier levels (recalculateTiers).
 */
export function retractCart(env: StoreEnv, tenant: Tenant, timezone: string, cart: CancelledCart): AddedMetrics {
  const day = cart.metrics_day ?? localDate(new Date(cart.stored_at), timezone);
  const added = cartMetrics(cart);
  const metrics = { total_spent_cents: -added.total_spent_cents, carts: -added.carts, points_earned: -added.points_earned };
  new ChallengeStore(env).addCartInTransaction(tenant, cart.customer_id, day, metrics, cart.origin);
  return { day, metrics };
}

/**
 * Whether a cart is a purchase in the `carts` metric: it sells something, a line of positive quantity (1 when not
 * sent). A cart that only returns goods (every line negative, the lines its returns name) is not one, so returning
 * goods does not progress a "make 5 purchases" challenge; an exchange (a return and a new line) is.
 */
export function isSale(lines: unknown): boolean {
  return Array.isArray(lines) && lines.some((line) => Number((line as { quantity?: unknown }).quantity ?? 1) > 0);
}

/** A cart total in integer cents (0 when not a finite number). */
export function totalCents(total: number | string): number {
  const value = new Decimal(String(total));
  return value.isFinite() ? value.times(100).toDecimalPlaces(0).toNumber() : 0;
}

/**
 * Inside `env.transact`: measures the customer's value at `day` (today unless
 * a back-dated cart's sale day) and grants now the points of every level
 * reached and not yet rewarded (also called on enrolment, so a customer who
 * enrols above a threshold gets its level). Returns the points granted.
 */
export function rewardLevels(env: StoreEnv, tenant: Tenant, clock: ProgressClock, challenge: ChallengeRecord, customer: CustomerRecord, locationId: string | null, day = localDate(clock.now, clock.timezone)): number {
  const store = new ChallengeStore(env);
  const progress = store.progress(tenant, customer.id, challenge.id);
  const at = wireDatetime(clock.now);
  const value = attributeValue(store, tenant, challenge, customer, day);
  const reached = reachedLevel(challenge, value)?.level ?? 0;
  const name = localize(challenge.name, undefined, clock.settings);
  const newly = challenge.structure.filter((l) => l.level > progress.level_rewarded && l.level <= reached && l.points > 0).sort((a, b) => a.level - b.level);
  for (const level of newly) {
    recordPoints(env, tenant, clock, {
      type: 'challenge',
      customer_id: customer.id,
      customer_code: customer.code ?? null,
      location_id: locationId,
      created_at: at,
      origin_info: { score: level.points, challenge: { id: wireInt(challenge.id), name }, level: level.level },
      grants: [{ campaign_id: null, campaign_name: name, amount: level.points }],
    });
  }
  store.putProgressInTransaction(tenant, customer.id, challenge.id, {
    ...progress,
    level_rewarded: Math.max(progress.level_rewarded, reached),
    last_execution_time: at,
  });
  return newly.reduce((sum, level) => sum + level.points, 0);
}
