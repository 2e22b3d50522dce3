/**
 * POST /points/redeem (+ /scores/subtract): subtracts points, a `subtract`
 * transaction; the balance may become negative (the contract allows it).
 * POST /points/redeem_cart (+ /scores/activity_redeem): spends points on a
 * stored cart, an `activity` transaction; unlike a plain subtraction it is a
 * payment, so it needs the points available (customer_not_enough_score).
 * The cart records the spend's transaction: its returns give back their share of the points, its cancellation the rest.
 * Both answer the balance their transaction left, from the wallet their write leaves (`recordPointsWithBalance`): a
 * read after the commit would count the other writes of the customer in the same group commit or committed since.
 */
import { TallyError } from '@tally/engine';
import type { CartStore } from '../carts/store.js';
import type { CartRecord } from '../carts/types.js';
import type { CustomerStore } from '../customers/store.js';
import type { CustomerRecord } from '../customers/types.js';
import type { LocationStore } from '../locations/store.js';
import { invalidRequest } from '../http/errors.js';
import { exactlyOne } from '../http/params.js';
import { ok, type Reply, type TallyRequest } from '../http/types.js';
import { validate } from '../http/validation.js';
import { wireDatetime } from '../http/wire.js';
import type { StoreEnv } from '../store/env.js';
import type { PointsRedeemCart } from '../wire/types.js';
import { customerPoints } from './balance.js';
import { readBalance, recordPointsWithBalance } from './ledger.js';
import { clockOf, customerFromBody, customerNamedBy, locationOf, requireUnmerged } from './request.js';
import type { Balance } from './types.js';

/** `balance`: the one its transaction left. */
function answer(customer: CustomerRecord, used: number, balance: Balance): Reply {
  return ok({ customer: customerPoints(customer, balance), score_used: used, score: balance.score, score_available: balance.score_available });
}

export async function redeem(env: StoreEnv, customers: CustomerStore, req: TallyRequest): Promise<Reply> {
  const body = validate('points.redeem', req.body);
  // Within 1..2147483647 (its schema's wire type), sent as a number or a string of digits.
  const amount = Number(body.amount);
  const customer = customerFromBody(customers, req, req.body);
  const clock = clockOf(req);
  const balance = await env.transact(() => {
    requireUnmerged(customers, req.tenant, customer.id, customerNamedBy(body));
    return recordPointsWithBalance(env, req.tenant, clock, {
      type: 'subtract',
      customer_id: customer.id,
      customer_code: customer.code ?? null,
      created_at: wireDatetime(req.now),
      origin_info: { comments: body.comments },
      spend: amount,
    }).balance;
  });
  return answer(customer, amount, balance);
}

/** The cart the points pay for: it exists, is the customer's (or nobody's), and is a purchase that still stands. */
function findCart(carts: CartStore, req: TallyRequest, body: PointsRedeemCart, customer: { id: CustomerRecord['id'] }): CartRecord {
  const field = exactlyOne(['activity_id', 'activity_code'], (name) => body[name] !== undefined);
  const value = body[field]!;
  const cart = field === 'activity_id' ? carts.get(req.tenant, value) : carts.byCode(req.tenant, value);
  if (!cart) throw new TallyError('cart_not_found', `${field}: no cart ${value}`, field);
  if (cart.customer_id !== null && cart.customer_id !== customer.id) throw invalidRequest(customerNamedBy(body).field, `cart ${cart.id} belongs to another customer`);
  if (cart.kind === 'cancellation') throw invalidRequest(field, `cart ${cart.id} is a cancellation (of cart ${cart.cancels})`);
  if (cart.cancelled_by !== null) throw invalidRequest(field, `cart ${cart.id} is cancelled`);
  return cart;
}

export async function redeemCart(env: StoreEnv, customers: CustomerStore, carts: CartStore, locations: LocationStore, req: TallyRequest): Promise<Reply> {
  const body = validate('points.redeem_cart', req.body);
  const amount = Number(body.amount);
  const location = locationOf(locations, req, body);
  const customer = customerFromBody(customers, req, req.body);
  const clock = clockOf(req);
  const balance = await env.transact(() => {
    // A merged customer's carts are the receiver's: refused as merged (402), not as another customer's cart.
    requireUnmerged(customers, req.tenant, customer.id, customerNamedBy(body));
    // Read inside the transaction: a cancellation committed since the request came is seen.
    const cart = findCart(carts, req, body, customer);
    // Checked inside the transaction, so two concurrent redemptions never spend the same points.
    const available = readBalance(env, req.tenant, customer.id, clock).score_available;
    if (amount > available) {
      throw new TallyError('customer_not_enough_score', `amount: ${amount} points asked, ${Math.max(0, available)} available`, 'amount');
    }
    const spent = recordPointsWithBalance(env, req.tenant, clock, {
      type: 'activity',
      customer_id: customer.id,
      customer_code: customer.code ?? null,
      location_id: location?.id ?? cart.location_id,
      created_at: wireDatetime(req.now),
      // The contract's activity origin_info: the cart as evaluated (its stored answer), with the redemption's comments.
      origin_cart: { cart_id: cart.id, customer_id: customer.id, ...(body.comments === undefined ? {} : { comments: body.comments }) },
      spend: amount,
    });
    // Where the cart's returns and cancellation find the spend to give back, without reading the customer's ledger.
    carts.putInTransaction(req.tenant, { ...cart, points_redemptions: [...(cart.points_redemptions ?? []), spent.transaction.id] });
    return spent.balance;
  });
  return answer(customer, amount, balance);
}
