/** Builders shared by the engine's tests: a cart, a context and campaigns in the contract's shapes. */
import { compileCampaigns, evaluateCart, type Campaign, type Cart, type CartLine, type Context, type Outcome, type RuleParams, type Settings } from '../src/index.js';

export const SETTINGS: Settings = { currency: 'EUR', timezone: 'Europe/Madrid' };
/** A Friday, 19:30 in Madrid. */
export const CREATED = '2026-11-20T18:30:00Z';

export function line(order: number, product_id: number, total: number, quantity = 1, extra: Partial<CartLine> = {}): CartLine {
  return { order, product_id, total, quantity, ...extra };
}

export function cart(lines: CartLine[], extra: Partial<Cart> = {}): Cart {
  const total = lines.reduce((sum, l) => sum + Math.round(Number(l.total) * 100), 0) / 100;
  return { creation_date: CREATED, total, lines, ...extra };
}

export function context(extra: Partial<Context> = {}): Context {
  return { now: CREATED, mode: 'realtime', seed: 'test-seed', customer: { id: 42, points_available: 1000, country: 'ES' }, ...extra };
}

export const ANONYMOUS: Partial<Context> = { customer: undefined };

export function productIn(...ids: number[]): unknown {
  return { conditions: { and: [{ array_field: 'lines', conditions: [{ field: 'product_id', operator: 'in', values: ids }] }] } };
}

export function discount(id: number, params: Partial<RuleParams>, extra: Partial<Campaign> = {}): Campaign {
  return { id, type: 'discount', rule_params: { name: `discount ${id}`, ...params }, ...extra };
}

export function points(id: number, params: Partial<RuleParams>, extra: Partial<Campaign> = {}): Campaign {
  return { id, type: 'points', rule_params: { name: `points ${id}`, ...params }, ...extra };
}

export function evaluate(campaigns: Campaign[], c: Cart, ctx: Context = context(), settings: Settings = SETTINGS): Outcome {
  return evaluateCart(compileCampaigns(campaigns, settings), c, ctx);
}

/** Thrown TallyError's code and field, for asserting errors. */
export function errorOf(fn: () => unknown): { code: string; field?: string; message: string } {
  try {
    fn();
  } catch (error) {
    const e = error as { code: string; field?: string; message: string };
    return { code: e.code, field: e.field, message: e.message };
  }
  throw new Error('expected an error');
}
