/**
 * The points ledger: every change of a customer's points is a stored points
 * transaction, and the balance is always the sum of them (score_available =
 * Σ amount, pending = Σ pending_amount). Writers call these functions
 * synchronously inside `env.transact(() => ...)`, so a cart and its points
 * commit together.
 *
 * Activation and expiration are settled lazily: before any change of a
 * customer's points (and on reads of the HTTP routes), the buckets whose
 * available_from has come or whose available_to has passed are settled and
 * recorded as `activation` / `expiration` transactions. `readBalance` computes
 * the same settlement without writing, so a balance read at any instant is
 * exact. Each operation touches only the buckets it needs (wallet-store.ts).
 */
import type { Effect, Id, PointsWrite } from '@tally/engine';
import { stringifyJson } from '../http/json.js';
import { wireDatetime, wireInt } from '../http/wire.js';
import { customerEntries } from '../store/customer-entries.js';
import type { StoreEnv } from '../store/env.js';
import { allocateId, lastAllocatedId } from '../store/ids.js';
import { idFromKey, idKey, tenantPrefix, under } from '../store/keys.js';
import type { Tenant } from '../tenancy/types.js';
import { localDate } from '../calendar/company-days.js';
import type { Balance, LedgerClock, OriginCart, PointsTransaction, PointsTransactionType, ScoreLine } from './types.js';
import { availableIn, bucketKey, combine, giveBack, grant, NOTHING_RETURNED, plainPoints, reverse, settle, slicePoints, spend, takeBack, type Bucket, type Movement, type Returns } from './wallet.js';
import { moveBuckets, removeWallet, WalletView } from './wallet-store.js';
import { CartStore } from '../carts/store.js';
import { raiseEvent } from '../webhooks/outbox.js';
import { originText, transactionView } from './transaction-view.js';

/** Points granted by one campaign with one pair of dates. */
export interface PointsGrant {
  campaign_id: Id | null;
  campaign_name?: string | null;
  /** Positive integer. */
  amount: number;
  /** Local date; absent = today (available at once). */
  available_from?: string | null;
  /** Local date, last day the points are available; absent = never expire. */
  available_to?: string | null;
}

export interface PointsEntry {
  type: PointsTransactionType;
  customer_id: Id;
  customer_code?: string | null;
  location_id?: Id | null;
  /** ISO datetime. */
  created_at: string;
  /**
   * The contract's origin_info for the type (spec part 2, Points transaction), ids as wire values (wireInt);
   * or its JSON text, when the caller has it already serialized (a realtime cart's response).
   */
  origin_info?: Record<string, unknown> | string;
  /** Instead of origin_info: the cart (realtime, or a cancellation's mirror), written in the same transaction, whose answer it is. */
  origin_cart?: OriginCart;
  grants?: readonly PointsGrant[];
  /** Points spent (positive), taken from the points that expire first; beyond the available points the balance goes negative. */
  spend?: number;
  /** Restricts which points a spend may take (transfers: transferable points only). */
  spendable?: (bucket: Bucket) => boolean;
  /** Email of the request's author (common rule 9). */
  author?: string;
  /** What the cart's returns move, after its grants and spend. */
  returns?: readonly ReturnMove[];
  /** The merged customer a cart named, recorded for the customer it was merged into (as the cart's associate_id). */
  associate_id?: string;
}

/** One return of an earlier ticket (carts/returns.ts). */
export interface ReturnMove {
  /** The ticket's points transaction (null: it had none). */
  ticket_transaction: string | null;
  /** Points taken back: first from what the ticket's transaction granted. */
  take_back: number;
  /** Points given back, from what the ticket's transaction took, with their dates. */
  give_back: number;
  /** What earlier returns of the ticket gave back (this one continues after it). */
  given_before: number;
  /** The ticket's POST /points/redeem_cart spends (their transactions, as the cart record lists them). */
  redemptions: readonly string[];
  /** Points given back from what those spends took, one after the other, with their dates. */
  redeemed_give_back: number;
  /** What earlier returns of the ticket gave back of them. */
  redeemed_before: number;
}

const TRANSACTIONS = 'points_transactions';
const EXPIRED = 'points_expired';
const BY_ASSOCIATE = 'points_by_associate';

/** Every database of the ledger, opened when the routes are built (docs/storage.md). */
export const LEDGER_DATABASES = [TRANSACTIONS, EXPIRED, BY_ASSOCIATE];

/** The customer's wallet with its due activations and expirations applied (nothing written). */
function settledView(env: StoreEnv, tenant: Tenant, customerId: Id, clock: LedgerClock) {
  const today = localDate(clock.now, clock.timezone);
  const view = new WalletView(env, tenant, String(customerId)).loadDue(today);
  const settled = settle(view.wallet, today);
  view.wallet = settled.wallet;
  return { view, settled, today };
}

/** The customer's balance at `clock.now` (activations and expirations included, nothing written). */
export function readBalance(env: StoreEnv, tenant: Tenant, customerId: Id, clock: LedgerClock): Balance {
  return settledView(env, tenant, customerId, clock).view.balance();
}

/** Available points by bucket expiring from today through `until` (a date), at `clock.now`. */
export function readExpiring(env: StoreEnv, tenant: Tenant, customerId: Id, clock: LedgerClock, until: string): Bucket[] {
  const { view, today } = settledView(env, tenant, customerId, clock);
  return view.expiring(today, until);
}

/**
 * Available points of the buckets `eligible` accepts (transfers: transferable points), at `clock.now`, counted
 * until they reach `wanted`: the answer is exact below it, and at least `wanted` otherwise (a transfer of a few
 * points reads the first buckets in spending order, not a long history).
 */
export function readAvailableIn(env: StoreEnv, tenant: Tenant, customerId: Id, clock: LedgerClock, eligible: (b: Bucket) => boolean, wanted: number): number {
  const { view } = settledView(env, tenant, customerId, clock);
  // Debt is repaid first: the buckets must hold it besides what is wanted.
  return availableIn(view.loadSpendable(wanted + view.wallet.debt, eligible).wallet, eligible);
}

/** The key range of a customer's transactions, or of those a merge moved from an associate. */
export function transactionIndex(env: StoreEnv, tenant: Tenant, by: 'customer' | 'associate', customerId: string) {
  return { db: by === 'customer' ? byCustomer(env) : env.db(BY_ASSOCIATE), prefix: [tenantPrefix(tenant), idKey(customerId)] };
}

export function getTransaction(env: StoreEnv, tenant: Tenant, id: string): PointsTransaction | undefined {
  return env.db(TRANSACTIONS).get([tenantPrefix(tenant), idKey(id)]) as PointsTransaction | undefined;
}

/** A customer's points transactions: [tenant, customer, tx] -> the type (a kind of customer entries). */
function byCustomer(env: StoreEnv) {
  return customerEntries(env, 'points_by_customer');
}

function store(env: StoreEnv, tenant: Tenant, tx: PointsTransaction): void {
  const prefix = tenantPrefix(tenant);
  env.db(TRANSACTIONS).putSync([prefix, idKey(tx.id)], tx);
  byCustomer(env).putSync([prefix, idKey(tx.customer_id), idKey(tx.id)], tx.type);
  if (tx.associate_id !== undefined) env.db(BY_ASSOCIATE).putSync([prefix, idKey(tx.associate_id), idKey(tx.id)], tx.type);
}

interface Who {
  customer_id: string;
  customer_code: string | null;
  location_id: string | null;
}

function write(env: StoreEnv, tenant: Tenant, id: string, type: PointsTransactionType, who: Who, createdAt: string, origin: Record<string, unknown> | string, m: Movement, extra: Partial<PointsTransaction> = {}): PointsTransaction {
  const tx: PointsTransaction = {
    id, type, created_at: createdAt, amount: m.amount, pending_amount: m.pending_amount,
    location_id: who.location_id, customer_id: who.customer_id, customer_code: who.customer_code,
    origin_info: typeof origin === 'string' ? origin : stringifyJson(origin), scores: m.scores, taken: [], reverses: null, ...extra,
  };
  store(env, tenant, tx);
  // Names as recorded: an event has no Accept-Language (and its cart, written later in the transaction, is there by the time it renders).
  raiseEvent(env, tenant, 'points_transaction.created', () => stringifyJson(transactionView(tx, originText(new CartStore(env), tenant, tx), (_id, recorded) => recorded)), () => [tx.customer_id]);
  return tx;
}

/**
 * Settles the customer's wallet to today, writing the activation and
 * expiration transactions it observes. Call inside `env.transact`; returns
 * the settled view (saved by the caller once its own change is applied).
 */
function settleInTransaction(env: StoreEnv, tenant: Tenant, who: Who, clock: LedgerClock): WalletView {
  const { view, settled } = settledView(env, tenant, who.customer_id, clock);
  const at = wireDatetime(clock.now);
  const system = { ...who, location_id: null };
  for (const { type, movement } of settled.movements) write(env, tenant, allocateId(env, tenant, 'points_transaction'), type, system, at, {}, movement);
  const expiredDb = env.db(EXPIRED);
  for (const [key, points] of settled.expired) {
    const k = [tenantPrefix(tenant), key];
    expiredDb.putSync(k, ((expiredDb.get(k) as number | undefined) ?? 0) + points);
  }
  return view;
}

/** Persists activations and expirations due today (reads of the HTTP routes call this before listing transactions). */
export function settleCustomer(env: StoreEnv, tenant: Tenant, customerId: Id, customerCode: string | null, clock: LedgerClock): void {
  settleInTransaction(env, tenant, { customer_id: String(customerId), customer_code: customerCode, location_id: null }, clock).save();
}

/** Whether the customer has activations or expirations not yet recorded. */
export function needsSettlement(env: StoreEnv, tenant: Tenant, customerId: Id, clock: LedgerClock): boolean {
  const { settled } = settledView(env, tenant, customerId, clock);
  return settled.movements.length > 0;
}

function mergeGrants(grants: readonly PointsGrant[], tx: string, today: string) {
  const merged = new Map<string, { tx: string; campaign_id: string | null; campaign_name: string | null; amount: number; from: string; to: string | null }>();
  for (const g of grants) {
    if (!Number.isSafeInteger(g.amount) || g.amount <= 0) continue;
    const campaign = g.campaign_id === null || g.campaign_id === undefined ? null : String(g.campaign_id);
    const from = g.available_from ?? today;
    const to = g.available_to ?? null;
    const key = `${campaign}/${from}/${to}`;
    const found = merged.get(key);
    if (found) found.amount += g.amount;
    else merged.set(key, { tx, campaign_id: campaign, campaign_name: g.campaign_name ?? null, amount: g.amount, from, to });
  }
  return [...merged.values()];
}

/**
 * Records one points transaction: its grants, then its spend. Call inside
 * `env.transact`. Returns the stored transaction (its id identifies it for a
 * later reversal).
 */
export function recordPoints(env: StoreEnv, tenant: Tenant, clock: LedgerClock, entry: PointsEntry): PointsTransaction {
  return recordPointsWithBalance(env, tenant, clock, entry).transaction;
}

/**
 * recordPoints, with the customer's balance right after the transaction (from the wallet it wrote, no read): the
 * balance a cart answers, unless more points transactions follow it in the same write (`isLastTransaction`).
 */
export function recordPointsWithBalance(env: StoreEnv, tenant: Tenant, clock: LedgerClock, entry: PointsEntry): { transaction: PointsTransaction; balance: Balance } {
  const who: Who = {
    customer_id: String(entry.customer_id),
    customer_code: entry.customer_code ?? null,
    location_id: entry.location_id === null || entry.location_id === undefined ? null : String(entry.location_id),
  };
  const today = localDate(clock.now, clock.timezone);
  const view = settleInTransaction(env, tenant, who, clock);
  const id = allocateId(env, tenant, 'points_transaction');
  let movement = grant(view.wallet, mergeGrants(entry.grants ?? [], id, today), today);
  let taken: ScoreLine[] = [];
  if (entry.spend !== undefined && entry.spend > 0) {
    const spent = spend(view.loadSpendable(entry.spend, entry.spendable).wallet, entry.spend, entry.spendable);
    taken = spent.taken;
    movement = combine(movement, spent.movement);
  }
  for (const ret of entry.returns ?? []) {
    const ticket = ret.ticket_transaction === null ? undefined : getTransaction(env, tenant, ret.ticket_transaction);
    if (ret.take_back > 0) {
      if (ticket) view.loadTransaction(ticket.id);
      const back = takeBack(view.loadSpendable(ret.take_back).wallet, ticket?.id ?? null, ret.take_back, today);
      taken = [...taken, ...back.taken];
      movement = combine(movement, back.movement);
    }
    if (ret.give_back > 0) movement = combine(movement, giveBack(view.wallet, givenBack(ticket?.taken ?? [], ret.given_before, ret.give_back, today), id, today));
    if (ret.redeemed_give_back > 0) {
      const lines = givenBack(takenBy(env, tenant, ret.redemptions), ret.redeemed_before, ret.redeemed_give_back, today);
      movement = combine(movement, giveBack(view.wallet, lines, id, today));
    }
  }
  view.save();
  const extra = {
    taken,
    ...(entry.author === undefined ? {} : { author: entry.author }),
    ...(entry.origin_cart ? { origin_cart: entry.origin_cart } : {}),
    ...(entry.associate_id === undefined ? {} : { associate_id: entry.associate_id }),
  };
  const transaction = write(env, tenant, id, entry.type, who, entry.created_at, entry.origin_cart ? '' : (entry.origin_info ?? {}), movement, extra);
  // As a read after it answers: points granted already due (a back-dated cart's expired ones) settled, as
  // readBalance settles them (every other due bucket was settled before this transaction's grant).
  return { transaction, balance: view.balance(settle(view.wallet, today).wallet) };
}

/** Inside a transaction: whether `id` is the last points transaction allocated (none was recorded after it). */
export function isLastTransaction(env: StoreEnv, tenant: Tenant, id: string): boolean {
  return lastAllocatedId(env, tenant, 'points_transaction') === id;
}

/** The points a return gives back: the next of what the ticket took, else (a ticket without them) points available today. */
function givenBack(taken: readonly ScoreLine[], before: number, points: number, today: string): ScoreLine[] {
  const lines = slicePoints(taken, before, points);
  const short = points - lines.reduce((sum, line) => sum + line.score, 0);
  return short > 0 ? [...lines, plainPoints(short, today)] : lines;
}

/** What these transactions took, one after the other (a ticket's redeem_cart spends); a removed one took nothing. */
export function takenBy(env: StoreEnv, tenant: Tenant, txIds: readonly string[]): ScoreLine[] {
  return txIds.flatMap((id) => getTransaction(env, tenant, id)?.taken ?? []);
}

/**
 * Reverses an earlier transaction (cart cancellation): takes back the points
 * it granted that have not expired and gives back the points it took, less
 * what returns of the cart already moved. Call inside `env.transact`.
 * Returns undefined when the transaction does not exist.
 */
export function reversePoints(
  env: StoreEnv,
  tenant: Tenant,
  clock: LedgerClock,
  originalId: string,
  entry: Pick<PointsEntry, 'type' | 'created_at' | 'origin_info' | 'origin_cart' | 'location_id'>,
  returned?: Returns,
): PointsTransaction | undefined {
  const original = getTransaction(env, tenant, originalId);
  if (!original) return undefined;
  const who: Who = {
    customer_id: original.customer_id,
    customer_code: original.customer_code,
    location_id: entry.location_id === null || entry.location_id === undefined ? original.location_id : String(entry.location_id),
  };
  const today = localDate(clock.now, clock.timezone);
  const granted = original.scores.filter((s) => s.score > 0);
  // What the reversal may take from other points is at most what the original granted.
  const view = settleInTransaction(env, tenant, who, clock)
    .loadTransaction(original.id)
    .loadSpendable(granted.reduce((sum, s) => sum + s.score, 0));
  const id = allocateId(env, tenant, 'points_transaction');
  const expiredDb = env.db(EXPIRED);
  const movement = reverse(
    view.wallet,
    { tx: original.id, granted, taken: original.taken },
    id,
    today,
    (key) => (expiredDb.get([tenantPrefix(tenant), key]) as number | undefined) ?? 0,
    returned,
  );
  view.save();
  return write(env, tenant, id, entry.type, who, entry.created_at, entry.origin_cart ? '' : (entry.origin_info ?? {}), movement, {
    reverses: original.id,
    ...(entry.origin_cart ? { origin_cart: entry.origin_cart } : {}),
    ...(original.associate_id === undefined ? {} : { associate_id: original.associate_id }),
  });
}

/**
 * Points a transaction granted that have not expired at `clock.now` (expirations recorded, or due and not
 * yet recorded): the most that returns of its cart may take back in all.
 */
export function unexpiredGrants(env: StoreEnv, tenant: Tenant, clock: LedgerClock, txId: string): number {
  const tx = getTransaction(env, tenant, txId);
  if (!tx) return 0;
  const { settled } = settledView(env, tenant, tx.customer_id, clock);
  const expiredDb = env.db(EXPIRED);
  let unexpired = 0;
  for (const line of tx.scores) {
    if (line.score <= 0) continue;
    const key = bucketKey(tx.id, line);
    unexpired += line.score - ((expiredDb.get([tenantPrefix(tenant), key]) as number | undefined) ?? 0) - (settled.expired.get(key) ?? 0);
  }
  return Math.max(0, unexpired);
}

/** What reversing a transaction moves: the points it takes back and gives back. */
export interface Reversal {
  take_back: number;
  give_back: number;
}

/** What `reversePoints` would take back and give back now (a cancellation's score_returned_from/to_customer; null: no transaction). */
export function reversalOf(env: StoreEnv, tenant: Tenant, clock: LedgerClock, txId: string | null, returned: Returns = NOTHING_RETURNED): Reversal {
  const tx = txId === null ? undefined : getTransaction(env, tenant, txId);
  if (!tx) return { take_back: 0, give_back: 0 };
  return {
    take_back: Math.max(0, unexpiredGrants(env, tenant, clock, tx.id) - returned.taken_back),
    give_back: Math.max(0, tx.taken.reduce((sum, line) => sum + line.score, 0) - returned.given_back),
  };
}

/** The grants of an evaluated cart: its points writes, named by their effects. */
export function grantsFromCart(points: readonly PointsWrite[], effects: readonly Effect[]): PointsGrant[] {
  const names = new Map(effects.filter((e) => e.type === 'points').map((e) => [String(e.rule_id), e.rule_name]));
  return points.map((p) => ({
    campaign_id: p.campaign_id,
    campaign_name: names.get(String(p.campaign_id)) ?? null,
    amount: p.amount,
    available_from: p.available_from,
    available_to: p.available_to,
  }));
}


/** Records the activations and expirations due today, in their own commit, when there are any (before a read lists transactions). */
export async function settleIfDue(env: StoreEnv, tenant: Tenant, customerId: Id, customerCode: string | null, clock: LedgerClock): Promise<void> {
  if (!needsSettlement(env, tenant, customerId, clock)) return;
  await env.transact(() => settleCustomer(env, tenant, customerId, customerCode, clock));
}

/** Inside `env.transact` (a soft delete): the customer's transactions record no code of it. */
export function forgetCustomerCode(env: StoreEnv, tenant: Tenant, customerId: string): void {
  for (const id of customerTransactionIds(env, tenant, customerId)) {
    const tx = getTransaction(env, tenant, id);
    if (tx && tx.customer_code !== null) store(env, tenant, { ...tx, customer_code: null });
  }
}

/** Ids of the customer's points transactions, in id order. */
export function customerTransactionIds(env: StoreEnv, tenant: Tenant, customerId: string): string[] {
  const prefix = [tenantPrefix(tenant), idKey(customerId)];
  return [...byCustomer(env).getKeys(under(prefix))].map((key) => idFromKey(String((key as string[])[2])));
}

/**
 * Inside `env.transact`: gives these transactions of `from` to `to` (a merge,
 * or an unmerge giving them back), with the points their buckets still hold;
 * the debt goes with the last of the customer's transactions. When the
 * points moved differ from what the moved transactions add up to (the other
 * customer spent or saw activate some of them meanwhile), a `transfer`
 * transaction on each side records the difference, so each balance stays
 * the sum of its transactions.
 */
export interface CustomerRef {
  id: string;
  code: string | null;
}

export function moveTransactions(env: StoreEnv, tenant: Tenant, ids: readonly string[], fromRef: CustomerRef, toRef: CustomerRef, now: Date): void {
  const prefix = tenantPrefix(tenant);
  const [from, to] = [fromRef.id, toRef.id];
  let amount = 0;
  let pending = 0;
  for (const id of ids) {
    const tx = getTransaction(env, tenant, id);
    if (!tx || tx.customer_id !== from) continue;
    amount += tx.amount;
    pending += tx.pending_amount;
    byCustomer(env).removeSync([prefix, idKey(from), idKey(id)]);
    // The first merge names the associate; an unmerge giving it back leaves it.
    const associate = tx.associate_id ?? from;
    env.db(TRANSACTIONS).putSync([prefix, idKey(id)], { ...tx, customer_id: to, customer_code: toRef.code, associate_id: associate });
    byCustomer(env).putSync([prefix, idKey(to), idKey(id)], tx.type);
    env.db(BY_ASSOCIATE).putSync([prefix, idKey(associate), idKey(id)], tx.type);
  }
  const moved = moveBuckets(env, tenant, new Set(ids), from, to, customerTransactionIds(env, tenant, from).length === 0);
  const diff = { amount: moved.score_available - amount, pending_amount: moved.pending - pending };
  if (diff.amount === 0 && diff.pending_amount === 0) return;
  const at = wireDatetime(now);
  const origin = { comments: 'points used or activated by the other customer while merged', from_customer_id: wireInt(from), to_customer_id: wireInt(to) };
  const id = () => allocateId(env, tenant, 'points_transaction');
  write(env, tenant, id(), 'transfer', { customer_id: to, customer_code: toRef.code, location_id: null }, at, origin, { ...diff, scores: [] });
  write(env, tenant, id(), 'transfer', { customer_id: from, customer_code: fromRef.code, location_id: null }, at, origin, { amount: -diff.amount, pending_amount: -diff.pending_amount, scores: [] });
}

/** Inside `env.transact`: removes the customer's ledger (a customer delete). */
export function removeCustomerLedger(env: StoreEnv, tenant: Tenant, customerId: string): void {
  const prefix = tenantPrefix(tenant);
  for (const id of customerTransactionIds(env, tenant, customerId)) {
    env.db(TRANSACTIONS).removeSync([prefix, idKey(id)]);
    byCustomer(env).removeSync([prefix, idKey(customerId), idKey(id)]);
  }
  removeWallet(env, tenant, customerId);
}
