/**
 * Records a customer owns (carts, points transactions, vouchers, cards...),
 * seen by the customer operations only through this interface: a merge moves
 * every kind, an unmerge gives them back, a delete checks and removes
 * them. A resource that owns customer records adds its kind to OWNED_KINDS
 * (owned-kinds.ts), and merges and deletes handle it without knowing it.
 * Every method runs inside the caller's write transaction.
 */
import type { StoreEnv } from '../store/env.js';
import type { Tenant } from '../tenancy/types.js';

export interface CustomerOwnedKind {
  /** Plural record name, as in the contract's merge list ("activities", "vouchers"). */
  readonly name: string;
  /** A record of this kind forbids a hard delete (contract: activities, cashback, redemptions, score transactions, tag customers, vouchers). */
  readonly critical: boolean;
  /** On unmerge, moved activities go back to the associate only with with_activites; moved records of other kinds always go back. */
  readonly activities: boolean;
  /** Ids of the customer's records of this kind. */
  ids(env: StoreEnv, tenant: Tenant, customerId: string): string[];
  /** Gives these records of `from` to `to` (activities record `from` as their associate). */
  reassign(env: StoreEnv, tenant: Tenant, ids: readonly string[], from: string, to: string): void;
  /** Removes the customer's records of this kind (a delete; only non-critical kinds are removed on a soft delete). */
  removeAll(env: StoreEnv, tenant: Tenant, customerId: string): void;
  /**
   * A soft delete: the records the customer keeps forget its code, which is released and may name another person
   * next (absent: the kind's records hold no code, or are removed).
   */
  forgetCode?(env: StoreEnv, tenant: Tenant, customerId: string): void;
}
