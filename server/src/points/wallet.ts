/**
 * A customer's points as dated buckets: the pure bookkeeping behind the
 * ledger, on the part of the wallet an operation loaded (wallet-store.ts). Each grant is a bucket (pending until its available_from, gone
 * after its available_to); spends take from the buckets that expire first;
 * a spend beyond the available points is a debt that later activations repay
 * first. Every change is returned as a transaction line so the stored
 * transactions always add up to the balance.
 */
import { addToLocalDate } from '@tally/engine';
import type { Balance, ScoreLine } from './types.js';

export interface Bucket {
  /** The transaction that granted the points. */
  tx: string;
  campaign_id: string | null;
  campaign_name: string | null;
  from: string;
  to: string | null;
  /** Points this bucket was granted with (what a reversal takes back). */
  granted: number;
  remaining: number;
  active: boolean;
}

export interface Wallet {
  buckets: Bucket[];
  /** Points spent beyond what was available (a negative balance). */
  debt: number;
}

/** A change of the wallet: what one transaction records. */
export interface Movement {
  amount: number;
  pending_amount: number;
  scores: ScoreLine[];
}

export function balanceOf(wallet: Wallet): Balance {
  let available = -wallet.debt;
  let pending = 0;
  for (const b of wallet.buckets) {
    if (b.active) available += b.remaining;
    else pending += b.remaining;
  }
  return { score: available + pending, score_available: available, pending };
}

function scoreLine(b: Bucket, score: number): ScoreLine {
  return { loyalty_score_name: b.campaign_name, loyalty_score_id: b.campaign_id, score, available_from: b.from, available_to: b.to };
}


/** Activation of a bucket: its points count as available, repaying any debt first. */
function activate(wallet: Wallet, b: Bucket): void {
  b.active = true;
  const repaid = Math.min(wallet.debt, b.remaining);
  b.remaining -= repaid;
  wallet.debt -= repaid;
}

function clone(wallet: Wallet): Wallet {
  return { buckets: wallet.buckets.map((b) => ({ ...b })), debt: wallet.debt };
}

function prune(wallet: Wallet): void {
  wallet.buckets = wallet.buckets.filter((b) => !b.active || b.remaining > 0);
}

/** What a settlement records: one movement per day and kind, in date order. */
export interface Settled {
  wallet: Wallet;
  movements: { type: 'activation' | 'expiration'; movement: Movement }[];
  /** Points that expired, by bucketKey. */
  expired: Map<string, number>;
}

/**
 * Brings the wallet to `today`: buckets whose available_from has come are
 * activated, buckets whose available_to has passed expire (points available
 * through available_to inclusive). Events apply in date order, expirations
 * of a day before its activations.
 */
export function settle(current: Wallet, today: string): Settled {
  const wallet = clone(current);
  type Event = { day: string; kind: 0 | 1; bucket: Bucket };
  const events: Event[] = [];
  for (const b of wallet.buckets) {
    if (!b.active && b.from <= today) events.push({ day: b.from, kind: 1, bucket: b });
    if (b.to !== null && b.to < today) events.push({ day: addToLocalDate(b.to, 1, 'days'), kind: 0, bucket: b });
  }
  events.sort((x, y) => (x.day < y.day ? -1 : x.day > y.day ? 1 : x.kind - y.kind));
  const byDay = new Map<string, Movement>();
  const movements: Settled['movements'] = [];
  const expired = new Map<string, number>();
  for (const { day, kind, bucket } of events) {
    const key = `${day}/${kind}`;
    let movement = byDay.get(key);
    if (!movement) {
      byDay.set(key, (movement = { amount: 0, pending_amount: 0, scores: [] }));
      movements.push({ type: kind === 1 ? 'activation' : 'expiration', movement });
    }
    if (kind === 1) {
      if (bucket.to !== null && bucket.to < day) continue; // expired before it ever activated
      movement.amount += bucket.remaining;
      movement.pending_amount -= bucket.remaining;
      movement.scores.push(scoreLine(bucket, bucket.remaining));
      activate(wallet, bucket);
    } else if (bucket.remaining > 0) {
      if (bucket.active) movement.amount -= bucket.remaining;
      else movement.pending_amount -= bucket.remaining;
      movement.scores.push(scoreLine(bucket, -bucket.remaining));
      const key = bucketKey(bucket.tx, { loyalty_score_id: bucket.campaign_id, available_from: bucket.from, available_to: bucket.to });
      expired.set(key, (expired.get(key) ?? 0) + bucket.remaining);
      bucket.remaining = 0;
      bucket.active = true; // spent out: pruned below
    }
  }
  prune(wallet);
  return { wallet, movements: movements.filter((m) => m.movement.scores.length > 0), expired };
}

export interface Grant {
  tx: string;
  campaign_id: string | null;
  campaign_name: string | null;
  amount: number;
  from: string;
  to: string | null;
}

/** Adds granted points (the wallet must be settled to `today`). */
export function grant(wallet: Wallet, grants: readonly Grant[], today: string): Movement {
  const movement: Movement = { amount: 0, pending_amount: 0, scores: [] };
  const granted: Bucket[] = [];
  for (const g of grants) {
    if (g.amount <= 0) continue;
    // One bucket per transaction, campaign and dates.
    let b = wallet.buckets.find((x) => x.tx === g.tx && x.campaign_id === g.campaign_id && x.from === g.from && x.to === g.to);
    if (!b) wallet.buckets.push((b = { tx: g.tx, campaign_id: g.campaign_id, campaign_name: g.campaign_name, from: g.from, to: g.to, granted: 0, remaining: 0, active: false }));
    b.granted += g.amount;
    b.remaining += g.amount;
    if (g.from <= today) {
      movement.amount += g.amount;
      b.active = true;
      // Points already expired (a back-dated event's) expire whole at the next settlement: they repay no debt,
      // which may be younger than they are (the wallet does not date its debt).
      if (g.to === null || g.to >= today) granted.push(b);
    } else {
      movement.pending_amount += g.amount;
    }
    movement.scores.push(scoreLine(b, g.amount));
  }
  // A debt is repaid as a spend takes points: from the granted points that expire first.
  if (wallet.debt > 0) wallet.debt = takeInSpendOrder(granted, wallet.debt);
  prune(wallet);
  return movement;
}

/** Order of spending: the points that expire first (never-expiring last), then the oldest. */
function spendOrder(a: Bucket, b: Bucket): number {
  const ato = a.to ?? '9999-12-31';
  const bto = b.to ?? '9999-12-31';
  if (ato !== bto) return ato < bto ? -1 : 1;
  if (a.from !== b.from) return a.from < b.from ? -1 : 1;
  return a.tx.length - b.tx.length || (a.tx < b.tx ? -1 : a.tx > b.tx ? 1 : 0);
}

/** Takes up to `points` from `buckets`, those that expire first first (`spendOrder`), telling `took` each part; returns what they did not cover. */
function takeInSpendOrder(buckets: Bucket[], points: number, took: (b: Bucket, part: number) => void = () => {}): number {
  let left = points;
  for (const b of buckets.sort(spendOrder)) {
    if (left === 0) break;
    const part = Math.min(left, b.remaining);
    if (part === 0) continue;
    b.remaining -= part;
    left -= part;
    took(b, part);
  }
  return left;
}

/** Available points that `eligible` buckets hold (for transfers of transferable points); the wallet holds every available bucket. */
export function availableIn(wallet: Wallet, eligible: (b: Bucket) => boolean): number {
  let sum = 0;
  for (const b of wallet.buckets) if (b.active && eligible(b)) sum += b.remaining;
  return Math.max(0, sum - wallet.debt);
}

/**
 * Takes `points` from the available buckets that expire first; what they do
 * not cover becomes debt (a negative balance). Returns the movement and what
 * was taken from each bucket (`scores` list those; debt shows in `amount`
 * only). The wallet must be settled to today.
 */
export function spend(wallet: Wallet, points: number, eligible: (b: Bucket) => boolean = () => true): { movement: Movement; taken: ScoreLine[] } {
  const taken: ScoreLine[] = [];
  const candidates = wallet.buckets.filter((b) => b.active && b.remaining > 0 && eligible(b));
  wallet.debt += takeInSpendOrder(candidates, points, (b, part) => taken.push(scoreLine(b, part)));
  prune(wallet);
  const scores = taken.map((line) => ({ ...line, score: -line.score }));
  return { movement: { amount: -points, pending_amount: 0, scores }, taken };
}

/** What a reversal needs of the original transaction. */
export interface Reversed {
  tx: string;
  /** The points it granted, one line per bucket. */
  granted: readonly ScoreLine[];
  /** The points it took. */
  taken: readonly ScoreLine[];
}

/** The identity of a bucket: its transaction, campaign and dates. */
export function bucketKey(tx: string, line: { loyalty_score_id: string | null; available_from: string; available_to: string | null }): string {
  return `${tx}/${line.loyalty_score_id ?? ''}/${line.available_from}/${line.available_to ?? ''}`;
}

/**
 * Reverses a transaction: takes back the points it granted that did not
 * expire (from their own bucket while it holds them, else from the points
 * that expire first, else as debt) and gives back, with their original
 * dates, the points it took. The wallet must be settled to `today`;
 * `expired` tells how many points of a bucket expired; `returned`, what
 * returns of the transaction's cart already took back and gave back.
 */
export function reverse(wallet: Wallet, original: Reversed, newTx: string, today: string, expired: (key: string) => number, returned: Returns = NOTHING_RETURNED): Movement {
  const movement: Movement = { amount: 0, pending_amount: 0, scores: [] };
  let owed = 0;
  // Points returns took back are missing from the buckets like spent ones, but are not owed again.
  let takenBack = returned.taken_back;
  for (const line of original.granted) {
    const key = bucketKey(original.tx, line);
    const b = wallet.buckets.find((x) => bucketKey(x.tx, { loyalty_score_id: x.campaign_id, available_from: x.from, available_to: x.to }) === key);
    const back = b ? b.remaining : 0;
    const missing = line.score - back - expired(key);
    const excused = Math.min(takenBack, Math.max(0, missing));
    takenBack -= excused;
    const spent = missing - excused;
    if (b && !b.active) movement.pending_amount -= back;
    else movement.amount -= back;
    if (b) {
      b.remaining = 0;
      b.active = true; // emptied: pruned below
    }
    owed += spent;
    if (back + spent > 0) movement.scores.push({ ...line, score: -(back + spent) });
  }
  prune(wallet);
  if (owed > 0) {
    spend(wallet, owed);
    movement.amount -= owed;
  }
  return combine(movement, giveBack(wallet, slicePoints(original.taken, returned.given_back, Infinity), newTx, today));
}

/** What returns of a transaction's cart moved so far (carts/returns.ts). */
export interface Returns {
  /** Points of the transaction's grants taken back. */
  taken_back: number;
  /** Points of what the transaction took given back. */
  given_back: number;
}

export const NOTHING_RETURNED: Returns = { taken_back: 0, given_back: 0 };

/** Two movements of one transaction as one. */
export function combine(a: Movement, b: Movement): Movement {
  return { amount: a.amount + b.amount, pending_amount: a.pending_amount + b.pending_amount, scores: [...a.scores, ...b.scores] };
}

/** Gives back points a transaction took, with their own dates, as buckets of `newTx`. */
export function giveBack(wallet: Wallet, lines: readonly ScoreLine[], newTx: string, today: string): Movement {
  return grant(
    wallet,
    lines.map((t) => ({ tx: newTx, campaign_id: t.loyalty_score_id, campaign_name: t.loyalty_score_name, amount: t.score, from: t.available_from, to: t.available_to })),
    today,
  );
}

/** The points from `skip` to `skip + take` of the lines, in their order (what one of several returns gives back). */
export function slicePoints(lines: readonly ScoreLine[], skip: number, take: number): ScoreLine[] {
  const slice: ScoreLine[] = [];
  let toSkip = skip;
  let toTake = take;
  for (const line of lines) {
    const skipped = Math.min(line.score, toSkip);
    toSkip -= skipped;
    const part = Math.min(line.score - skipped, toTake);
    toTake -= part;
    if (part > 0) slice.push({ ...line, score: part });
  }
  return slice;
}

/**
 * What `returned` points given back from several transactions' points, one after the other (slicePoints over
 * them all), gave back of each: the first's points first, never more than each took.
 */
export function spreadReturned(taken: readonly number[], returned: number): number[] {
  let left = returned;
  return taken.map((points) => {
    const part = Math.min(points, Math.max(0, left));
    left -= part;
    return part;
  });
}

/**
 * Takes back `points` that transaction `tx` granted (a return of its cart; null: none): from its own buckets while
 * they hold them (pending ones too), then from the points that expire first, then as debt. The wallet
 * must be settled to today. What the debt took is listed in `taken` as points of today that never
 * expire, so that a reversal gives it back (repaying the debt first).
 */
export function takeBack(wallet: Wallet, tx: string | null, points: number, today: string): { movement: Movement; taken: ScoreLine[] } {
  const taken: ScoreLine[] = [];
  const movement: Movement = { amount: 0, pending_amount: 0, scores: [] };
  const left = takeInSpendOrder(wallet.buckets.filter((x) => x.tx === tx && x.remaining > 0), points, (b, part) => {
    if (b.active) movement.amount -= part;
    else movement.pending_amount -= part;
    if (b.remaining === 0) b.active = true; // emptied: pruned below
    taken.push(scoreLine(b, part));
    movement.scores.push(scoreLine(b, -part));
  });
  prune(wallet);
  if (left === 0) return { movement, taken };
  const rest = spend(wallet, left);
  const owed = left - rest.taken.reduce((sum, line) => sum + line.score, 0);
  return { movement: combine(movement, rest.movement), taken: [...taken, ...rest.taken, ...(owed > 0 ? [plainPoints(owed, today)] : [])] };
}

/** Points of no campaign, available from today, that never expire (what a debt took, or gives back). */
export function plainPoints(score: number, today: string): ScoreLine {
  return { loyalty_score_name: null, loyalty_score_id: null, score, available_from: today, available_to: null };
}
