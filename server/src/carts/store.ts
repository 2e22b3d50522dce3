/**
 * The cart store. Keys (docs/storage.md): `carts` [tenant, idKey(id)] ->
 * CartRecord; `cart_codes` [tenant, code] -> id; the customer entries
 * `customer_carts` [tenant, idKey(customer_id), idKey(id)] -> null (a
 * customer's carts in id order, store/customer-entries.ts); `cart_secrets`
 * [tenant] -> the Company's draw secret.
 * Writes are synchronous and run inside the caller's `env.transact`.
 */
import { customerEntries } from '../store/customer-entries.js';
import type { StoreEnv } from '../store/env.js';
import { idFromKey, idKey, tenantPrefix, under } from '../store/keys.js';
import { paginate, type Page, type PageRequest } from '../store/paginate.js';
import type { Tenant } from '../tenancy/types.js';
import type { CartRecord } from './types.js';

const DATABASES = ['carts', 'cart_codes', 'cart_secrets'];

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
