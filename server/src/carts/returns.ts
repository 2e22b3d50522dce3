/**
 * Returns against the original ticket (cart rule 3): a return naming a
 * stored cart (`ticket_id` or `ticket_code`) may not return more than the
 * quantity of the original line (`from_line_order`, else `line_order`). The
 * same original line may be returned in several carts, so earlier returns do
 * not count. A ticket that is not stored is not checked (cart rule 1:
 * coherence is not validated); the engine checks the cart's own line.
 */
import { invalidRequest } from '../http/errors.js';
import type { Tenant } from '../tenancy/types.js';
import type { CartStore } from './store.js';

interface ReturnLine {
  ticket_id?: unknown;
  ticket_code?: unknown;
  line_order?: unknown;
  from_line_order?: unknown;
  quantity?: unknown;
}

export function checkReturnsAgainstTickets(carts: CartStore, tenant: Tenant, returns: unknown): void {
  if (!Array.isArray(returns)) return;
  (returns as ReturnLine[]).forEach((ret, i) => {
    const ticket =
      ret.ticket_id !== undefined ? carts.get(tenant, String(ret.ticket_id))
      : typeof ret.ticket_code === 'string' ? carts.byCode(tenant, ret.ticket_code)
      : undefined;
    if (!ticket || typeof ret.quantity !== 'number') return;
    const order = ret.from_line_order ?? ret.line_order;
    const lines = (ticket.request.lines ?? []) as { order?: number; quantity?: number }[];
    const original = lines.find((line) => line.order === order);
    if (!original) throw invalidRequest(`returns[${i}].from_line_order`, `cart ${ticket.id} has no line ${String(order)}`);
    if (Math.abs(ret.quantity) > Math.abs(original.quantity ?? 1)) {
      throw invalidRequest(`returns[${i}].quantity`, `is larger than the quantity of line ${String(order)} of cart ${ticket.id} (${original.quantity ?? 1})`);
    }
  });
}
