/**
 * The cart store. Keys (docs/storage.md): `carts` [tenant, idKey(id)] ->
 * CartRecord; `cart_codes` [tenant, code] -> id; the customer entries
 * `customer_carts` [tenant, idKey(customer_id), idKey(id)] -> null (a
 * customer's carts in id order, store/customer-entries.ts); `cart_orders`
 * [tenant, orderKey(order_id), idKey(id)] -> null (the carts of an order, in id
 * order); `cart_secrets` [tenant] -> the Company's draw secret.
 * Writes are synchronous and run inside the caller's `env.transact`.
 */
import { customerEntries } from '../store/customer-entries.js';
import type { Key, StoreEnv } from '../store/env.js';
import { idFromKey, idKey, tenantPrefix, under } from '../store/keys.js';
import { paginate, type Page, type PageRequest } from '../store/paginate.js';
import type { Tenant } from '../tenancy/types.js';
import type { CartRecord } from './types.js';

/** The order index (`GET /carts?order_id=`, docs/carts.md). */
export const CART_ORDERS = 'cart_orders';

const DATABASES = ['carts', 'cart_codes', CART_ORDERS, 'cart_secrets'];

/**
 * An order id as a key part: its first 255 characters (a pair of surrogates cut in half dropped), so any order id
 * the schema takes fits LMDB's key limit. Ids that share those characters share a range; the list's filter compares
 * the whole id.
 */
const orderKey = (orderId: string) => orderId.slice(0, 255).replace(/\p{Cs}$/u, '');

/** Where the `cart_orders` keys of an order id start, in `tenant` (a tenant prefix). */
const ofOrder = (tenant: string, orderId: string): Key[] => [tenant, orderKey(orderId)];

/** The `cart_orders` key of a cart with an order id. */
export const orderIndexKey = (tenant: string, orderId: string, cartId: string): Key[] => [...ofOrder(tenant, orderId), idKey(cartId)];

export class CartStore {
  /** Opens the cart databases (docs/storage.md: open a database before its first write transaction). */
  constructor(private readonly env: StoreEnv) {
    for (const name of DATABASES) env.db(name);
  }

  private get carts() {
    return this.env.db('carts');
  }
  private get codes() {
    return this.env.db('cart_codes');
  }
  private get orders() {
    return this.env.db(CART_ORDERS);
  }
  private get byCustomer() {
    return customerEntries(this.env, 'customer_carts');
  }

  get(tenant: Tenant, id: string): CartRecord | undefined {
    return this.carts.get([tenantPrefix(tenant), idKey(id)]) as CartRecord | undefined;
  }

  idOfCode(tenant: Tenant, code: string): string | undefined {
    return this.codes.get([tenantPrefix(tenant), code]) as string | undefined;
  }

  byCode(tenant: Tenant, code: string): CartRecord | undefined {
    const id = this.idOfCode(tenant, code);
    return id === undefined ? undefined : this.get(tenant, id);
  }

  /** Inside `env.transact`: stores a new cart or replaces one, with its indexes. */
  putInTransaction(tenant: Tenant, record: CartRecord): void {
    const prefix = tenantPrefix(tenant);
    this.carts.putSync([prefix, idKey(record.id)], record);
    if (record.code !== null) this.codes.putSync([prefix, record.code], record.id);
    if (record.customer_id !== null) this.byCustomer.putSync([prefix, idKey(record.customer_id), idKey(record.id)], null);
    if (record.order_id !== null) this.orders.putSync(orderIndexKey(prefix, record.order_id, record.id), null);
  }

  /**
   * Inside `env.transact`: gives a cart to another customer. A merge records
   * the old customer as the cart's associate; moving it back (an unmerge)
   * clears it.
   */
  moveInTransaction(tenant: Tenant, record: CartRecord, toCustomerId: string, toCustomerCode: string | null): void {
    const prefix = tenantPrefix(tenant);
    if (record.customer_id !== null) this.byCustomer.removeSync([prefix, idKey(record.customer_id), idKey(record.id)]);
    const associate = record.associate_id === toCustomerId ? null : record.customer_id;
    this.putInTransaction(tenant, { ...record, associate_id: associate, customer_id: toCustomerId, customer_code: toCustomerCode });
  }

  /** Inside `env.transact`: removes a cart and its indexes. */
  removeInTransaction(tenant: Tenant, record: CartRecord): void {
    const prefix = tenantPrefix(tenant);
    this.carts.removeSync([prefix, idKey(record.id)]);
    if (record.code !== null) this.codes.removeSync([prefix, record.code]);
    if (record.customer_id !== null) this.byCustomer.removeSync([prefix, idKey(record.customer_id), idKey(record.id)]);
    if (record.order_id !== null) this.orders.removeSync(orderIndexKey(prefix, record.order_id, record.id));
  }

  /** Ids of a customer's carts, in id order. */
  idsOfCustomer(tenant: Tenant, customerId: string): string[] {
    const prefix = [tenantPrefix(tenant), idKey(customerId)];
    const ids: string[] = [];
    for (const key of this.byCustomer.getKeys(under(prefix))) {
      ids.push(idFromKey(String((key as string[])[2])));
    }
    return ids;
  }

  /** One page of a customer's carts (id order) that pass `keep`. */
  pageOfCustomer(tenant: Tenant, customerId: string, page: PageRequest, keep: (cart: CartRecord) => boolean): Page<CartRecord> {
    return paginate<null, CartRecord>(this.byCustomer, [tenantPrefix(tenant), idKey(customerId)], page, (_value, key) => {
      const cart = this.get(tenant, idFromKey(String(key[2])));
      return cart && keep(cart) ? cart : undefined;
    });
  }

  /** One page of the carts whose order id is `orderId` (id order) that pass `keep`, read through `cart_orders`. */
  pageOfOrder(tenant: Tenant, orderId: string, page: PageRequest, keep: (cart: CartRecord) => boolean): Page<CartRecord> {
    return paginate<null, CartRecord>(this.orders, ofOrder(tenantPrefix(tenant), orderId), page, (_value, key) => {
      const cart = this.get(tenant, idFromKey(String(key[2])));
      return cart && cart.order_id === orderId && keep(cart) ? cart : undefined;
    });
  }

  /** One page of every cart of the tenant (id order) that passes `keep`. */
  page(tenant: Tenant, page: PageRequest, keep: (cart: CartRecord) => boolean): Page<CartRecord> {
    return paginate<CartRecord, CartRecord>(this.carts, [tenantPrefix(tenant)], page, (cart) => (keep(cart) ? cart : undefined));
  }

  /** The Company environment's secret for instant-win seeds, if created. */
  secret(tenant: Tenant): string | undefined {
    return this.env.db('cart_secrets').get(tenantPrefix(tenant)) as string | undefined;
  }

  /** Inside `env.transact`: stores the secret unless one exists; returns the one stored. */
  ensureSecretInTransaction(tenant: Tenant, secret: string): string {
    const existing = this.secret(tenant);
    if (existing !== undefined) return existing;
    this.env.db('cart_secrets').putSync(tenantPrefix(tenant), secret);
    return secret;
  }
}
