/**
 * POST /carts/cancellation: a new cart mirrors the original with every
 * quantity and amount negative; in the same transaction the original's points
 * transaction is reversed through the ledger (points earned taken back,
 * points spent returned, less what returns of it already moved), the points
 * spent on it with POST /points/redeem_cart given back (less what returns
 * gave back of them), its budget,
 * limit and stock consumption returned to the counters, its vouchers given
 * back, the instant-win prizes it won taken back (points reversed, reward
 * redemptions reverted, unplayed game plays removed) and, when it was itself
 * a return, its returns uncounted. The original is only marked.
 * A cart can be cancelled once, and only after the Company's wait
 * (cart_cancellation_wait_seconds, default 5 minutes).
 */
import { TallyError, emptyWrites } from '@tally/engine';
import { movesPoints, type CounterStore } from '../counters/store.js';
import { retractCart, totalCents } from '../challenges/progress.js';
import { readBalance, reversalOf, reversePoints } from '../points/ledger.js';
import type { StoreEnv } from '../store/env.js';
import { wireDatetime, wireInt } from '../http/wire.js';
import { allocateIdFromTop } from '../store/ids.js';
import type { CompanySettings, Tenant } from '../tenancy/types.js';
import type { VoucherStore } from '../vouchers/store.js';
import { customerCounterKey } from './context.js';
import { CustomerStore } from '../customers/store.js';
import { recalculateTiers } from '../tiers/recalculate.js';
import { mirrorRequest, mirrorResponse } from './mirror.js';
import { cartCustomers, cartJson, cartReadBody, cartResponse, summaryAtBalance } from './present.js';
import type { CartStore } from './store.js';
import type { CartRecord } from './types.js';
import { afterReturn } from '../vouchers/use.js';
import { takeBackPrizes } from '../instant-wins/deliver.js';
import { pointsAsMoney } from '../points/money.js';
import type { LedgerClock } from '../points/types.js';
import { spreadReturned } from '../points/wallet.js';
import type { CartsCancellation } from '../wire/types.js';
import { raiseEvent } from '../webhooks/outbox.js';

export interface CancellationStores {
  env: StoreEnv;
  carts: CartStore;
  counters: CounterStore;
  vouchers: VoucherStore;
}

export async function cancelCart(
  stores: CancellationStores,
  tenant: Tenant,
  settings: CompanySettings,
  request: CartsCancellation,
  now: Date,
): Promise<CartRecord> {
  const { env, carts } = stores;
  const result = await env.transact((): CartRecord | TallyError => {
    const original = findOriginal(carts, tenant, request);
    if (original instanceof TallyError) return original;
    const refusal = refuse(carts, tenant, settings, original, request, now);
    if (refusal) return refusal;
    let id = request.new_cart_id;
    if (id === undefined) {
      do id = allocateIdFromTop(env, tenant, 'carts');
      while (carts.get(tenant, id));
    }
    return writeCancellation(stores, tenant, settings, original, id, request.new_cart_code ?? null, now);
  });
  if (result instanceof TallyError) throw result;
  return result;
}

function findOriginal(carts: CartStore, tenant: Tenant, request: CartsCancellation): CartRecord | TallyError {
  if (request.cart_to_cancel_id !== undefined) {
    const cart = carts.get(tenant, request.cart_to_cancel_id);
    if (cart && (request.cart_to_cancel_code === undefined || cart.code === request.cart_to_cancel_code)) return cart;
    return new TallyError('cart_not_found', `cart_to_cancel_id: no cart with id ${request.cart_to_cancel_id}${request.cart_to_cancel_code === undefined ? '' : ` and code ${request.cart_to_cancel_code}`}`, 'cart_to_cancel_id');
  }
  const cart = carts.byCode(tenant, request.cart_to_cancel_code!);
  return cart ?? new TallyError('cart_not_found', `cart_to_cancel_code: no cart with code ${request.cart_to_cancel_code}`, 'cart_to_cancel_code');
}

/** Why the cancellation cannot happen, checked before any write. */
function refuse(carts: CartStore, tenant: Tenant, settings: CompanySettings, original: CartRecord, request: CartsCancellation, now: Date): TallyError | undefined {
  const field = request.cart_to_cancel_id !== undefined ? 'cart_to_cancel_id' : 'cart_to_cancel_code';
  if (original.kind === 'cancellation') return new TallyError('invalid_request', `${field}: cart ${original.id} is itself a cancellation`, field);
  if (original.cancelled_by !== null) return new TallyError('conflict', `${field}: cart ${original.id} was already cancelled by cart ${original.cancelled_by}`, field);
  // Undoing a return of a ticket cancelled since would give back points the ticket's cancellation already settled;
  // a return that moved no points (units returned before, a line that earned and spent nothing) settles nothing.
  for (const moved of original.writes.returns ?? []) {
    if (!movesPoints(moved)) continue;
    const ticket = carts.get(tenant, String(moved.ticket_id));
    if (ticket && ticket.cancelled_by !== null) {
      return new TallyError('conflict', `${field}: cart ${original.id} returns lines of cart ${ticket.id}, which cart ${ticket.cancelled_by} has cancelled since`, field);
    }
  }
  const ageSeconds = (now.getTime() - Date.parse(original.stored_at)) / 1000;
  // stored_at is in whole seconds, at most a second before the cart was stored: the wait counts from the second's end.
  const wait = settings.cart_cancellation_wait_seconds;
  if (wait > 0 && ageSeconds < wait + 1) {
    return new TallyError('invalid_request', `${field}: a cart can be cancelled ${wait} s after its creation (cart ${original.id} is at least ${Math.max(0, Math.floor(ageSeconds - 1))} s old)`, field);
  }
  if (request.new_cart_id !== undefined && carts.get(tenant, request.new_cart_id)) {
    return new TallyError('duplicate_id', `new_cart_id: a cart with id ${request.new_cart_id} already exists`, 'new_cart_id');
  }
  if (request.new_cart_code !== undefined && carts.idOfCode(tenant, request.new_cart_code) !== undefined) {
    return new TallyError('duplicate_id', `new_cart_code: a cart with code ${request.new_cart_code} already exists`, 'new_cart_code');
  }
  return undefined;
}

function writeCancellation(stores: CancellationStores, tenant: Tenant, settings: CompanySettings, original: CartRecord, id: string, code: string | null, now: Date): CartRecord {
  const { env, carts, counters, vouchers } = stores;
  const { writes } = original;
  for (const budget of writes.budgets) counters.addBudgetInTransaction(tenant, String(budget.campaign_id), budget.period_key, -budget.amount_cents);
  const customerKey = customerCounterKey({ id: original.customer_id, code: original.customer_code });
  if (customerKey !== null) {
    for (const limit of writes.limits) {
      // Never below none: the cart's use may have gone back to the customer a merge moved it from (an unmerge
      // without activities leaves the cart here), and a negative count would give this customer an extra use.
      const counted = counters.uses(tenant, String(limit.campaign_id), limit.period_key, customerKey);
      counters.addUsesInTransaction(tenant, String(limit.campaign_id), limit.period_key, customerKey, -Math.min(limit.increment, Math.max(0, counted)));
    }
  }
  for (const stock of writes.stock) counters.addStockConsumedInTransaction(tenant, String(stock.campaign_id), String(stock.prize_id), -stock.amount);
  // Carts stored before returns moved points have no returns in their writes.
  for (const moved of writes.returns ?? []) counters.addReturnedInTransaction(tenant, String(moved.ticket_id), moved.line_order, moved, -1);
  for (const used of writes.vouchers_used) {
    const voucher = used.static_code ? undefined : vouchers.byCode(tenant, used.voucher_code);
    if (!voucher || voucher.redemptions === 0) continue;
    vouchers.putInTransaction(tenant, afterReturn(voucher));
  }
  const at = wireDatetime(now);
  const clock = { now, timezone: settings.timezone };
  // What returns of this cart moved already stays moved: the cancellation takes back and gives back the rest.
  const moved = counters.returnedOfTicket(tenant, original.id);
  const returned = { taken_back: moved.score_from_customer, given_back: moved.score_to_customer };
  const reversal = reversalOf(env, tenant, clock, original.points_transaction_id, returned);
  // Points spent on the cart with POST /points/redeem_cart: the rest of what returns gave back of them.
  const redemptions = redeemedLeft(env, tenant, clock, original.points_redemptions ?? [], moved.redeemed_to_customer);
  const redeemed = redemptions.reduce((sum, spend) => sum + spend.give_back, 0);
  const given = { take_back: reversal.take_back, give_back: reversal.give_back + redeemed };
  const response = { ...mirrorResponse(cartResponse(original), id, code, given, (points) => pointsAsMoney(points, settings)), creation_date: at };
  // The reversals' origin_info is the mirror's answer, as a realtime cart's transaction is its cart's: read from the
  // mirror written below, so it names the customer holding the cart, at the balance after everything, as the answer does.
  const origin = { type: 'activity' as const, origin_cart: { cart_id: id, customer_id: original.customer_id }, location_id: original.location_id };
  let pointsTransactionId: string | null = null;
  if (original.points_transaction_id !== null) {
    pointsTransactionId = reversePoints(env, tenant, clock, original.points_transaction_id, { ...origin, created_at: at }, returned)?.id ?? null;
  }
  // Each to the customer holding the spend now (after a merge, the one it was merged into), as the cart's own spend.
  for (const { txId, returned: byReturns } of redemptions) {
    const comments = `points spent on cart ${original.id} (points transaction ${txId}) given back`;
    reversePoints(env, tenant, clock, txId, { ...origin, origin_cart: { ...origin.origin_cart, comments }, created_at: at }, byReturns);
  }
  // The prizes its instant wins delivered are taken back, as their stock was given back above.
  takeBackPrizes(env, vouchers, { tenant, settings, now, origin, reason: `cart ${original.id} cancelled by cart ${id}` }, original.prize_deliveries ?? []);
  // The customer holding the cart now: after a merge, the one it was merged into (the cart read's customer_id).
  const found = original.customer_id === null ? undefined : new CustomerStore(env).get(tenant, original.customer_id);
  const holder = found && found.deleted_at === undefined ? found : undefined;
  // A cart whose customer id named no customer added nothing to metrics: taking it out would leave them negative
  // (and a customer registered with that id later would start below zero).
  if (original.customer_id !== null && original.metrics_added !== false) {
    const points = writes.points.reduce((sum, p) => sum + p.amount, 0);
    // A cart stored before carts recorded what they added to total_spent had added the total it sent.
    const spent = original.total_spent_cents ?? totalCents(String(original.request.total));
    const added = retractCart(env, tenant, settings.timezone, { customer_id: original.customer_id, origin: original.origin_customer_id ?? original.customer_id, stored_at: original.stored_at, ...(original.metrics_day === undefined ? {} : { metrics_day: original.metrics_day }), total_spent_cents: spent, points, lines: original.request.lines });
    // The metrics fell: a level lost is recorded as a realtime cart records one, so the level won again later is a new
    // won_at, not the one the cancelled cart had won; a level it may have helped win is not retained (tiers/held.ts).
    if (holder) recalculateTiers(env, tenant, holder, at, settings, { takenBack: { since: original.stored_at }, added });
  }
  if (original.customer_id !== null && response.customer[0]) {
    // The summary names the customer whose balance it shows: the holder, as the cart records it, not the customer the
    // cart was evaluated for (a merge moved it since), with the flag and attributes its record has now.
    const holding = {
      ...response.customer[0],
      id: wireInt(original.customer_id),
      code: original.customer_code,
      ...(holder ? { fraudulent: holder.profile.fraudulent === true, attributes: holder.attributes } : {}),
    };
    response.customer = [summaryAtBalance(holding, readBalance(env, tenant, original.customer_id, clock), settings)];
  }
  // The mirror is counted in no metrics (the original is taken out of them above).
  const { prize_deliveries: _taken, points_redemptions: _givenBack, metrics_day: _counted, total_spent_cents: _spent, metrics_added: _added, ...mirrored } = original;
  const mirror: CartRecord = {
    ...mirrored,
    id,
    code,
    kind: 'cancellation',
    stored_at: at,
    creation_date: at,
    request: { ...mirrorRequest(original.request, id, code), creation_date: at },
    response_json: cartJson(response),
    total: response.total,
    writes: emptyWrites(),
    points_transaction_id: pointsTransactionId,
    cancelled_by: null,
    cancels: original.id,
    deferred_errors: [],
  };
  carts.putInTransaction(tenant, mirror);
  carts.putInTransaction(tenant, { ...original, cancelled_by: id });
  raiseEvent(env, tenant, 'cart.cancelled', () => cartJson(cartReadBody(mirror)), () => cartCustomers(mirror));
  return mirror;
}

/**
 * The redeem_cart spends a cancellation still gives back: returns gave back `byReturns` points of them, from the
 * first spend's points on (ledger.ts, recordPoints), so each is given back less its part of those. A spend returns
 * gave back whole is left out: its reversal would be an empty transaction.
 */
function redeemedLeft(env: StoreEnv, tenant: Tenant, clock: LedgerClock, txIds: readonly string[], byReturns: number) {
  const spent = txIds.map((txId) => reversalOf(env, tenant, clock, txId).give_back);
  const parts = spreadReturned(spent, byReturns);
  return txIds
    .map((txId, i) => ({ txId, returned: { taken_back: 0, given_back: parts[i] }, give_back: spent[i] - parts[i] }))
    .filter((spend) => spend.give_back > 0);
}
