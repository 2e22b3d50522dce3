/**
 * Returns against the original ticket (cart rule 3). A return naming a
 * stored cart (`ticket_id` or `ticket_code`) may not return more than the
 * quantity of the original line (`from_line_order`, else `line_order`), its
 * entries naming one line added up; the same line may be returned in several
 * carts. A ticket that is not stored is
 * not checked (cart rule 1: coherence is not validated; the engine checks the
 * cart's own line).
 *
 * What a return moves (docs/carts.md, "Returns"): of the points the ticket
 * line earned, the share of the units returned is taken back from the
 * customer; of the points spent on it (cashback), that share is given back;
 * so is that share of the line's part of the points spent on the whole ticket
 * with POST /points/redeem_cart (shared among its lines as the points earned
 * on the whole cart are). Shares are cumulative over every return of the line
 * (the `returned` counter), so the returns of a whole line move exactly what
 * it earned and spent, never more; nor more than the ticket's points that
 * have not expired. Only the ticket's own customer's returns move points, and a
 * cancelled ticket's none (the cancellation took everything back).
 */
import type { CartResponse, ReturnedPoints } from '@tally/engine';
import { Decimal } from 'decimal.js';
import { invalidRequest } from '../http/errors.js';
import { wireInt } from '../http/wire.js';
import { addQuantities, type CounterStore, type Returned } from '../counters/store.js';
import { takenBy, unexpiredGrants } from '../points/ledger.js';
import type { LedgerClock } from '../points/types.js';
import type { StoreEnv } from '../store/env.js';
import type { Tenant } from '../tenancy/types.js';
import { cartResponse } from './present.js';
import type { CartStore } from './store.js';
import type { CartRecord } from './types.js';

interface ReturnLine {
  ticket_id?: unknown;
  ticket_code?: unknown;
  line_order?: unknown;
  from_line_order?: unknown;
  quantity?: unknown;
}

export interface ReturnSources {
  env: StoreEnv;
  carts: CartStore;
  counters: CounterStore;
}

/**
 * Checks the cart's returns against their tickets and works out the points each moves (aligned with
 * `returns`; undefined when the cart has none). `customerId`: the returning cart's customer.
 */
export function readReturns(
  sources: ReturnSources,
  tenant: Tenant,
  clock: LedgerClock,
  customerId: string | null,
  returns: unknown,
): (ReturnedPoints | null)[] | undefined {
  if (!Array.isArray(returns)) return undefined;
  // Returns of one line, or of one ticket, in the same cart count one after the other.
  const running = new Map<string, Returned>();
  const leftOfTicket = new Map<string, number>();
  const redeemedOnTicket = new Map<string, number>();
  // Units of each ticket line this cart's entries return: split across entries they are bounded as one.
  const inCart = new Map<string, number>();
  return (returns as ReturnLine[]).map((ret, i) => {
    const ticket = findTicket(sources.carts, tenant, ret, i);
    if (!ticket || typeof ret.quantity !== 'number') return null;
    const order = ret.from_line_order ?? ret.line_order;
    const lines = (ticket.request.lines ?? []) as { order?: number; quantity?: number }[];
    // A line sent without `order` is numbered by its place, as the engine numbered its effects and scores.
    const original = lines.find((line, index) => (line.order ?? index + 1) === order);
    if (!original || typeof order !== 'number') {
      throw invalidRequest(`returns[${i}].${ret.from_line_order === undefined ? 'line_order' : 'from_line_order'}`, `cart ${ticket.id} has no line ${String(order)}`);
    }
    const units = Math.abs(original.quantity ?? 1);
    const key = `${ticket.id}/${order}`;
    const earlier = inCart.get(key) ?? 0;
    const claimed = addQuantities(earlier, Math.abs(ret.quantity));
    if (claimed > units) {
      const before = earlier === 0 ? '' : ` with the ${earlier} returned before it in this cart`;
      throw invalidRequest(`returns[${i}].quantity`, `is larger than the quantity of line ${order} of cart ${ticket.id} (${original.quantity ?? 1})${before}`);
    }
    inCart.set(key, claimed);
    if (customerId === null || ticket.customer_id !== customerId || ticket.kind === 'cancellation' || ticket.cancelled_by !== null) return null;
    const before = running.get(key) ?? sources.counters.returned(tenant, ticket.id, order);
    const after = Math.min(units, addQuantities(before.quantity, Math.abs(ret.quantity)));
    const response = cartResponse(ticket);
    const share = (points: number) => new Decimal(points).times(after).div(units).floor().toNumber();
    // Points that expired before they came back are not taken back: the customer never had them to spend.
    const left = leftOfTicket.get(ticket.id) ?? unexpiredLeft(sources, tenant, clock, ticket);
    const redeemed = redeemedOnTicket.get(ticket.id) ?? redeemedOn(sources, tenant, ticket);
    redeemedOnTicket.set(ticket.id, redeemed);
    const redeemedBefore = before.redeemed_to_customer ?? 0;
    const redeemedBack = Math.max(0, share(cartShareOfLine(response, order, redeemed)) - redeemedBefore);
    const moved: ReturnedPoints = {
      ticket_id: wireInt(ticket.id),
      line_order: order,
      quantity: addQuantities(after, -before.quantity),
      score_from_customer: Math.max(0, Math.min(share(earnedOnLine(response, order)) - before.score_from_customer, left)),
      score_to_customer: Math.max(0, share(spentOnLine(response, order)) - before.score_to_customer),
      redeemed_to_customer: redeemedBack,
    };
    leftOfTicket.set(ticket.id, left - moved.score_from_customer);
    running.set(key, {
      quantity: after,
      score_from_customer: before.score_from_customer + moved.score_from_customer,
      score_to_customer: before.score_to_customer + moved.score_to_customer,
      redeemed_to_customer: redeemedBefore + redeemedBack,
    });
    return moved;
  });
}

/** The ticket's points that have not expired, less what its returns took back so far. */
function unexpiredLeft(sources: ReturnSources, tenant: Tenant, clock: LedgerClock, ticket: CartRecord): number {
  if (ticket.points_transaction_id === null) return 0;
  return unexpiredGrants(sources.env, tenant, clock, ticket.points_transaction_id) - sources.counters.returnedOfTicket(tenant, ticket.id).score_from_customer;
}

/** Points spent on the ticket with POST /points/redeem_cart: what its spends' transactions took (read by id). */
function redeemedOn(sources: ReturnSources, tenant: Tenant, ticket: CartRecord): number {
  return takenBy(sources.env, tenant, ticket.points_redemptions ?? []).reduce((sum, line) => sum + line.score, 0);
}

/**
 * The stored ticket a return names. With both ticket_id and ticket_code they must not name two carts (the points
 * of one would be taken back for a return of the other); a code no cart has is the till's own receipt number.
 */
function findTicket(carts: CartStore, tenant: Tenant, ret: ReturnLine, i: number): CartRecord | undefined {
  const code = typeof ret.ticket_code === 'string' ? ret.ticket_code : undefined;
  if (ret.ticket_id === undefined) return code === undefined ? undefined : carts.byCode(tenant, code);
  const id = String(ret.ticket_id);
  const ticket = carts.get(tenant, id);
  if (code === undefined) return ticket;
  if (ticket && ticket.code !== null && ticket.code !== code) {
    throw invalidRequest(`returns[${i}].ticket_code`, `cart ${id} (ticket_id) has code ${ticket.code}`);
  }
  const ofCode = ticket?.code === code ? id : carts.idOfCode(tenant, code);
  if (ofCode !== undefined && ofCode !== id) throw invalidRequest(`returns[${i}].ticket_code`, `is the code of cart ${ofCode}, not of cart ${id} (ticket_id)`);
  return ticket;
}

/** Points the ticket earned on a line: its own `scores`, plus its share of the points earned on the whole cart (line -1). */
function earnedOnLine(ticket: CartResponse, order: number): number {
  let own = 0;
  let onCart = 0;
  for (const entry of ticket.scores) {
    if (entry.score <= 0) continue;
    if (entry.line_order === order) own += entry.score;
    else if (entry.line_order === -1) onCart += entry.score;
  }
  return own + cartShareOfLine(ticket, order, onCart);
}

/** A line's share of points on the whole ticket: pro rata to its total among the lines paid for, rounded down. */
function cartShareOfLine(ticket: CartResponse, order: number, points: number): number {
  if (points === 0) return 0;
  const paid = ticket.lines.map((line) => ({ order: line.order, total: new Decimal(line.total) })).filter((line) => line.total.gt(0));
  const all = paid.reduce((sum, line) => sum.plus(line.total), new Decimal(0));
  const line = paid.find((l) => l.order === order);
  if (!line || all.isZero()) return 0;
  return new Decimal(points).times(line.total).div(all).floor().toNumber();
}

/** Points spent on a line (its cashbacks). */
function spentOnLine(ticket: CartResponse, order: number): number {
  return ticket.cashbacks.filter((cashback) => cashback.line_order === order).reduce((sum, cashback) => sum + cashback.score, 0);
}

/** Whether what the evaluation counted on is still what the returns move (re-checked in the realtime transaction). */
export function sameReturns(evaluated: readonly ReturnedPoints[], now: readonly (ReturnedPoints | null)[] | undefined): boolean {
  const moving = (now ?? []).filter((returned) => returned !== null);
  return moving.length === evaluated.length && moving.every((returned, i) => sameMove(returned, evaluated[i]));
}

function sameMove(a: ReturnedPoints, b: ReturnedPoints): boolean {
  return String(a.ticket_id) === String(b.ticket_id) && a.line_order === b.line_order && a.quantity === b.quantity
    && a.score_from_customer === b.score_from_customer && a.score_to_customer === b.score_to_customer
    && (a.redeemed_to_customer ?? 0) === (b.redeemed_to_customer ?? 0);
}
