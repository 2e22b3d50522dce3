/**
 * The realtime transaction: one LMDB transaction stores the cart, its points
 * transaction (points ledger), the budget, limit and stock it consumed and
 * the vouchers it used. The evaluation ran before, on a snapshot; inside the
 * transaction every budget, limit, stock, voucher and points balance it relied
 * on is checked again, and if one no longer allows what was granted, or a
 * campaign changed meanwhile, the cart is evaluated again on the transaction's own view, so concurrent carts never
 * overspend (a reward won as a prize included: instant-wins/recheck.ts). Checks come before any write: lmdb-js batches the callbacks of
 * concurrent requests into one commit (group commit), and a callback that
 * failed half-way would leave its first writes in it.
 * The caller answers only once `env.transact` resolved (flushed to disk).
 * The transaction takes the evaluation as an `Evaluation`, the response
 * already serialized: both workers take turns on LMDB's one write lock, so
 * whatever does not need the transaction's view is done before it, in
 * parallel (bench/README.md, "Carts: the write lock").
 */
import { TallyError, type CartResponse, type Outcome, type ReturnedPoints, type Writes } from '@tally/engine';
import { advanceChallenges, cartMetrics, salesDay, totalCents } from '../challenges/progress.js';
import { deliverPrizes } from '../instant-wins/deliver.js';
import { raiseVoucherEvent } from '../vouchers/events.js';
import { afterUse } from '../vouchers/use.js';
import { recalculateTiers } from '../tiers/recalculate.js';
import { countersStillAllow } from '../counters/recheck.js';
import { movesPoints, type CounterStore } from '../counters/store.js';
import type { CustomerStore } from '../customers/store.js';
import { grantsFromCart, isLastTransaction, readBalance, recordPointsWithBalance, type PointsGrant, type ReturnMove } from '../points/ledger.js';
import type { StoreEnv } from '../store/env.js';
import { wireDatetime } from '../http/wire.js';
import { allocateIdFromTop } from '../store/ids.js';
import type { CompanySettings, Tenant } from '../tenancy/types.js';
import type { VoucherStore } from '../vouchers/store.js';
import { customerCounterKey, type CartCustomer } from './context.js';
import type { CachedProgram } from './programs.js';
import { cartCustomers, cartJson, cartReadBody, summaryAtBalance } from './present.js';
import type { Balance } from '../points/types.js';
import type { CartRequest } from './request.js';
import { readReturns, sameReturns } from './returns.js';
import type { CartStore } from './store.js';
import { MAX_DEFERRED_ERRORS, type CartKind, type CartRecord, type DeferredError } from './types.js';
import { raiseEvent } from '../webhooks/outbox.js';
import type { CartRepeats } from './repeats.js';

export interface RealtimeStores {
  env: StoreEnv;
  carts: CartStore;
  repeats: CartRepeats;
  counters: CounterStore;
  vouchers: VoucherStore;
  customers: CustomerStore;
}

/** What the transaction needs of an evaluation. */
export interface Evaluation {
  /** The response as answered; without `id` when the request had none (the transaction adds the one it allocates). */
  responseJson: string;
  total: number;
  writes: Writes;
  /** The points the cart earns, with their campaigns' names (the points transaction). */
  grants: PointsGrant[];
  /** The answer's customer summary (the balance the evaluation read, plus the cart's points); none without a customer. */
  summary: AnsweredSummary | undefined;
}

/** A customer summary and where its JSON text sits in the answer's, so that the answer is rebuilt around it. */
interface AnsweredSummary {
  evaluated: CustomerSummary;
  at: number;
  length: number;
}

type CustomerSummary = CartResponse['customer'][number];

export function evaluationOf(outcome: Outcome): Evaluation {
  const responseJson = cartJson(outcome.response);
  const [evaluated] = outcome.response.customer;
  // Found here, on the worker: under the write lock a changed balance only replaces these characters.
  const summaryJson = evaluated && cartJson(evaluated);
  const found = summaryJson === undefined ? -1 : responseJson.indexOf(`"customer":[${summaryJson}`);
  if (summaryJson !== undefined && found < 0) throw new Error('the customer summary is not in the answer as serialized');
  return {
    responseJson,
    total: outcome.response.total,
    writes: outcome.writes,
    grants: grantsFromCart(outcome.writes.points, outcome.response.effects),
    summary: evaluated && { evaluated, at: found + '"customer":['.length, length: summaryJson!.length },
  };
}

export interface PendingCart {
  tenant: Tenant;
  settings: CompanySettings;
  cached: CachedProgram;
  kind: Exclude<CartKind, 'cancellation'>;
  request: CartRequest;
  /** A cart sent without id and code: its request's `cartFingerprint` (common rule 8, repeats.ts). */
  fingerprint: string | undefined;
  customer: CartCustomer;
  /** The customers' status token (CustomerStore.statusVersion) when `customer` was resolved. */
  customerStatus: string | undefined;
  /** Resolves the cart's customer again (inside the transaction: its view). */
  resolveCustomer(): CartCustomer;
  now: Date;
  evaluation: Evaluation;
  /** The Company's program as the running transaction sees it: `cached` itself unless a campaign changed since (one get). */
  programNow(): CachedProgram;
  /** Evaluates the cart again for `customer` with `program` (its location completed for what it names), reading the context inside the running transaction. */
  reevaluate(customer: CartCustomer, program: CachedProgram): Evaluation;
}

/** A committed cart's answer, and the program it was evaluated with (its campaigns' names localize the answer). */
export interface Committed {
  json: string;
  program: CachedProgram;
}

/**
 * Commits the cart and resolves with its answer's JSON text, and the program it was evaluated with, once the commit is
 * durable (a duplicate sent to POST /carts answers its evaluation, and the stored cart records the deferred error).
 */
export async function commitCart(stores: RealtimeStores, pending: PendingCart): Promise<Committed> {
  const { env, carts } = stores;
  const { tenant, now } = pending;
  const { id, code } = pending.request;
  const answer = await env.transact((): Committed | TallyError => {
    const first = pending.fingerprint === undefined ? undefined : stores.repeats.first(carts, tenant, pending.fingerprint, now);
    if (first) return { json: first.response_json, program: pending.cached };
    const existing = (id !== undefined ? carts.get(tenant, id) : undefined) ?? (code !== undefined ? carts.byCode(tenant, code) : undefined);
    if (existing) {
      if (pending.kind === 'realtime') {
        const field = id !== undefined && existing.id === id ? 'id' : 'code';
        return new TallyError('duplicate_id', `${field}: a cart with ${field} ${field === 'id' ? id : code} already exists`, field);
      }
      // POST /carts does not check the id in real time: the duplicate is recorded on the stored cart.
      const message = `a cart with ${id !== undefined && existing.id === id ? `id ${id}` : `code ${code}`} was received again and ignored`;
      carts.putInTransaction(tenant, withDeferredError(existing, { code: 'duplicate_id', message, received_at: wireDatetime(now) }));
      // Nothing is written for it: its customer summary is the balance, not the balance plus its points again.
      const holder = pending.customer.id;
      const json = holder === null ? pending.evaluation.responseJson : withBalanceSummary(pending.evaluation.responseJson, pending.evaluation.summary, readBalance(env, tenant, holder, { now, timezone: pending.settings.timezone }), pending.settings);
      return { json, program: pending.cached };
    }
    const current = customerNow(stores, pending);
    if (current instanceof TallyError) return current;
    // A campaign changed since the evaluation (switched off, ended, its budget or limit lowered, a coupon deleted):
    // the cart is evaluated again, wholly with the campaigns as they are now, never the old ones against new counters.
    const program = pending.programNow();
    const unchanged = current === pending && program === pending.cached && stillAllowed(stores, pending, pending.evaluation.writes);
    const evaluation = unchanged ? pending.evaluation : pending.reevaluate(current.customer, program);
    const cart = id !== undefined ? write(stores, current, id, code ?? null, evaluation.responseJson, evaluation) : writeWithNewId(stores, current, code ?? null, evaluation);
    if (pending.fingerprint !== undefined) stores.repeats.remember(tenant, pending.fingerprint, cart.id, now);
    return { json: cart.response_json, program };
  });
  if (answer instanceof TallyError) throw answer;
  return answer;
}

/** The cart with one more deferred error: kept while fewer than MAX_DEFERRED_ERRORS are, else counted. */
function withDeferredError(cart: CartRecord, error: DeferredError): CartRecord {
  if (cart.deferred_errors.length < MAX_DEFERRED_ERRORS) return { ...cart, deferred_errors: [...cart.deferred_errors, error] };
  return { ...cart, deferred_errors_omitted: (cart.deferred_errors_omitted ?? 0) + 1 };
}

/**
 * The pending cart as this transaction sees its customer: unchanged unless a customer's status or merged_to
 * changed, or a customer was deleted, since it was resolved (one token get); then its customer resolved again,
 * so a merge completed between the evaluation and this transaction gives the cart to the customer merged into,
 * an unmerge gives it back to the customer it names, and a delete leaves it without customer (or the error of a
 * customer_code no longer found).
 */
function customerNow(stores: RealtimeStores, pending: PendingCart): PendingCart | TallyError {
  if (stores.customers.statusVersion(pending.tenant) === pending.customerStatus) return pending;
  try {
    return { ...pending, customer: pending.resolveCustomer() };
  } catch (err) {
    if (err instanceof TallyError) return err;
    throw err;
  }
}

/**
 * A cart sent without id gets the next free server id (counted down from the int64 maximum, away from the
 * ids clients choose); its response gains that id last, as the engine's response (which echoes only what
 * the request carried) spread with it would.
 */
function writeWithNewId(stores: RealtimeStores, pending: PendingCart, code: string | null, evaluation: Evaluation): CartRecord {
  const { env, carts } = stores;
  let id = allocateIdFromTop(env, pending.tenant, 'carts');
  while (carts.get(pending.tenant, id)) id = allocateIdFromTop(env, pending.tenant, 'carts');
  return write(stores, pending, id, code, `${evaluation.responseJson.slice(0, -1)},"id":${id}}`, evaluation);
}

/** Whether every counter, voucher and balance the evaluation relied on still allows its writes. */
export function stillAllowed(stores: RealtimeStores, pending: PendingCart, writes: Writes): boolean {
  const { counters, vouchers, env } = stores;
  const { tenant } = pending;
  const customer = { key: customerCounterKey(pending.customer), id: pending.customer.id };
  if (!countersStillAllow(env, counters, pending, customer, pending.cached.counted, writes)) return false;
  for (const used of writes.vouchers_used) {
    if (used.static_code) continue;
    const voucher = vouchers.byCode(tenant, used.voucher_code);
    if (!voucher || voucher.status !== 'active' || (voucher.max_redemptions !== null && voucher.redemptions >= voucher.max_redemptions)) return false;
  }
  if (writes.points_used && writes.points_used.amount > 0 && pending.customer.id !== null) {
    const balance = readBalance(env, tenant, pending.customer.id, { now: pending.now, timezone: pending.settings.timezone });
    if (balance.score_available < writes.points_used.amount) return false;
  }
  const { body } = pending.request;
  const clock = { now: pending.now, timezone: pending.settings.timezone };
  return body.returns === undefined || sameReturns(writes.returns, readReturns(stores, tenant, clock, pending.customer.id, body.returns));
}

function write(stores: RealtimeStores, pending: PendingCart, id: string, code: string | null, responseJson: string, evaluation: Evaluation): CartRecord {
  const { env, carts, counters, vouchers } = stores;
  const { tenant, request, customer, now } = pending;
  const { body } = request;
  const { writes } = evaluation;
  for (const budget of writes.budgets) counters.addBudgetInTransaction(tenant, String(budget.campaign_id), budget.period_key, budget.amount_cents);
  const customerKey = customerCounterKey(customer);
  if (customerKey !== null) {
    for (const limit of writes.limits) counters.addUsesInTransaction(tenant, String(limit.campaign_id), limit.period_key, customerKey, limit.increment);
  }
  for (const stock of writes.stock) counters.addStockConsumedInTransaction(tenant, String(stock.campaign_id), String(stock.prize_id), stock.amount);
  for (const used of writes.vouchers_used) {
    const voucher = used.static_code ? undefined : vouchers.byCode(tenant, used.voucher_code);
    if (!voucher) continue;
    vouchers.putInTransaction(tenant, afterUse(voucher));
    raiseVoucherEvent(env, tenant, pending.settings, now, 'voucher.redeemed', voucher.id);
  }
  const returns = countReturns(stores, tenant, writes.returns);
  const at = wireDatetime(now);
  let pointsTransactionId: string | null = null;
  const spend = writes.points_used?.amount ?? 0;
  let balanceAfterPoints: { transaction: string; balance: Balance } | undefined;
  if (customer.id !== null && (writes.points.length > 0 || spend > 0 || returns.length > 0)) {
    const recorded = recordPointsWithBalance(env, tenant, { now, timezone: pending.settings.timezone }, {
      type: 'activity',
      customer_id: customer.id,
      customer_code: customer.code,
      location_id: request.location_id ?? null,
      created_at: at,
      origin_cart: { cart_id: id, customer_id: customer.id },
      grants: evaluation.grants,
      ...(spend > 0 ? { spend } : {}),
      ...(returns.length > 0 ? { returns } : {}),
      ...(customer.associate_id === undefined ? {} : { associate_id: customer.associate_id }),
    });
    pointsTransactionId = recorded.transaction.id;
    balanceAfterPoints = { transaction: recorded.transaction.id, balance: recorded.balance };
  }
  // The contract's order: challenge progress after the cart's points, before instant wins; then tier levels over cart metrics.
  let spentCents: number | undefined;
  const metricsDay = customer.id === null ? undefined : salesDay(String(body.creation_date), at, pending.settings.timezone);
  if (customer.record) {
    const points = writes.points.reduce((sum, p) => sum + p.amount, 0);
    const location = request.location_id ?? null;
    // The spend is what the cart charges, its total as answered and read (after this evaluation's discounts), not the
    // total it sent; recorded on the cart so that its cancellation takes back exactly this.
    spentCents = totalCents(evaluation.total);
    const progress = { customer: customer.record, total_spent_cents: spentCents, points, location_id: location, lines: body.lines, day: metricsDay! };
    advanceChallenges(env, tenant, { now, timezone: pending.settings.timezone, settings: pending.settings }, progress);
    recalculateTiers(env, tenant, customer.record, at, pending.settings, { added: { day: progress.day, metrics: cartMetrics(progress) } });
  }
  // Then instant wins: a won prize (points, a reward, a game play) is delivered in the cart's transaction.
  const deliveries = customer.id === null ? [] : deliverPrizes(env, {
    tenant,
    settings: pending.settings,
    now,
    customer: { id: customer.id, code: customer.code },
    origin: { type: 'activity', origin_cart: { cart_id: id, customer_id: customer.id }, location_id: request.location_id ?? null },
  }, writes.draws);
  // The customer summary is the balance after this transaction. The evaluation's counts the balance it read and the
  // cart's own points: not level or prize points, not the ledger's choice of the buckets (available or pending) a
  // return takes back, nor what the customer's other carts and spends committed since that read (a burst of them,
  // or a spend in the app while the till evaluates). Taken from the wallet the cart's points wrote, or read again
  // when it wrote none or level or prize points followed; answered again only when it differs.
  let answered = responseJson;
  if (customer.id !== null && evaluation.summary) {
    const balance = balanceAfterPoints && isLastTransaction(env, tenant, balanceAfterPoints.transaction)
      ? balanceAfterPoints.balance
      : readBalance(env, tenant, customer.id, { now, timezone: pending.settings.timezone });
    const { evaluated } = evaluation.summary;
    if (balance.score !== evaluated.score || balance.score_available !== evaluated.score_available) {
      answered = withBalanceSummary(answered, evaluation.summary, balance, pending.settings);
    }
  }
  const cart: CartRecord = {
    id,
    code,
    kind: pending.kind,
    customer_id: customer.id,
    customer_code: customer.code,
    associate_id: customer.associate_id ?? null,
    origin_customer_id: customer.id,
    location_id: request.location_id ?? null,
    location_code: typeof body.location_code === 'string' ? body.location_code : null,
    order_id: typeof body.order_id === 'string' ? body.order_id : null,
    country: customer.id === null ? null : countryOf(customer, pending.settings),
    creation_date: String(body.creation_date),
    stored_at: at,
    request: body,
    response_json: answered,
    total: evaluation.total,
    writes,
    points_transaction_id: pointsTransactionId,
    cancelled_by: null,
    cancels: null,
    deferred_errors: [],
    ...(deliveries.length > 0 ? { prize_deliveries: deliveries.map((d) => d.id) } : {}),
    ...(metricsDay === undefined ? {} : { metrics_day: metricsDay }),
    ...(spentCents === undefined ? {} : { total_spent_cents: spentCents }),
    ...(customer.id !== null && !customer.record ? { metrics_added: false as const } : {}),
  };
  carts.putInTransaction(tenant, cart);
  raiseEvent(env, tenant, 'cart.created', () => cartJson(cartReadBody(cart)), () => cartCustomers(cart));
  return cart;
}

/** The response JSON with its customer summary at `balance`: the summary's characters replaced, nothing parsed (under the write lock). */
function withBalanceSummary(responseJson: string, summary: AnsweredSummary | undefined, balance: Balance, settings: CompanySettings): string {
  if (!summary) return responseJson;
  const { evaluated, at, length } = summary;
  return `${responseJson.slice(0, at)}${cartJson(summaryAtBalance(evaluated, balance, settings))}${responseJson.slice(at + length)}`;
}

/** Counts the returns against their ticket lines; returns what the points transaction moves for them. */
function countReturns(stores: RealtimeStores, tenant: Tenant, returned: readonly ReturnedPoints[]): ReturnMove[] {
  const moves: ReturnMove[] = [];
  for (const moved of returned) {
    const ticketId = String(moved.ticket_id);
    const redeemed = moved.redeemed_to_customer ?? 0;
    // What the ticket's earlier returns gave back, every line: this return gives back what comes next.
    const before = moved.score_to_customer === 0 && redeemed === 0 ? undefined : stores.counters.returnedOfTicket(tenant, ticketId);
    stores.counters.addReturnedInTransaction(tenant, ticketId, moved.line_order, moved, 1);
    if (!movesPoints(moved)) continue;
    const ticket = stores.carts.get(tenant, ticketId);
    moves.push({
      ticket_transaction: ticket?.points_transaction_id ?? null,
      take_back: moved.score_from_customer,
      give_back: moved.score_to_customer,
      given_before: before?.score_to_customer ?? 0,
      redemptions: ticket?.points_redemptions ?? [],
      redeemed_give_back: redeemed,
      redeemed_before: before?.redeemed_to_customer ?? 0,
    });
  }
  return moves;
}

function countryOf(customer: CartCustomer, settings: CompanySettings): string {
  const country = customer.record?.profile.country;
  return typeof country === 'string' ? country : settings.country;
}
