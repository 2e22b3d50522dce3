/**
 * Cards (POST /customers/{id}/cards; card_id on create): an int64 card number
 * attached to one customer, unique in the Company environment. Cards are
 * customer-owned records: a merge moves them to the new customer.
 */
import { TallyError } from '@tally/engine';
import type { StoreEnv } from '../store/env.js';
import { idFromKey, idKey, tenantPrefix } from '../store/keys.js';
import type { Tenant } from '../tenancy/types.js';
import type { CustomerExportCard } from '../wire/types.js';
import type { CustomerOwnedKind } from './owned-records.js';

/** A card as stored is the export's wire shape. */
export type Card = CustomerExportCard;

const db = (env: StoreEnv) => env.db('cards');

/** The customer's card numbers, in order. */
export function cardIds(env: StoreEnv, tenant: Tenant, customerId: string): string[] {
  const prefix = [tenantPrefix(tenant), 'of', idKey(customerId)];
  return [...db(env).getKeys({ start: prefix, end: [...prefix, '\uffff'] })].map((key) => idFromKey((key as string[])[3]));
}

export function getCard(env: StoreEnv, tenant: Tenant, id: string): Card | undefined {
  return db(env).get([tenantPrefix(tenant), 'card', idKey(id)]) as Card | undefined;
}

function putCard(env: StoreEnv, tenant: Tenant, card: Card): void {
  db(env).putSync([tenantPrefix(tenant), 'card', idKey(card.id)], card);
  db(env).putSync([tenantPrefix(tenant), 'of', idKey(card.customer_id), idKey(card.id)], '');
}

function removeCard(env: StoreEnv, tenant: Tenant, card: Card): void {
  db(env).removeSync([tenantPrefix(tenant), 'card', idKey(card.id)]);
  db(env).removeSync([tenantPrefix(tenant), 'of', idKey(card.customer_id), idKey(card.id)]);
}

/** Inside a transaction: attaches a new card; a main card makes the customer's other cards not main. `field`: the body's name for the card. */
export function attachCard(env: StoreEnv, tenant: Tenant, card: Card, field = 'id'): void {
  if (getCard(env, tenant, card.id)) throw new TallyError('duplicate_id', `${field}: card ${card.id} already exists`, field);
  if (card.main) {
    for (const id of cardIds(env, tenant, card.customer_id)) {
      const other = getCard(env, tenant, id)!;
      if (other.main) putCard(env, tenant, { ...other, main: false });
    }
  }
  putCard(env, tenant, card);
}

/** The customer's cards, in card number order. */
export function listCards(env: StoreEnv, tenant: Tenant, customerId: string): Card[] {
  return cardIds(env, tenant, customerId).map((id) => getCard(env, tenant, id)!);
}

export const cardsKind: CustomerOwnedKind = {
  name: 'cards',
  critical: false,
  activities: false,
  ids: cardIds,
  reassign(env, tenant, ids, _from, to) {
    for (const id of ids) {
      const card = getCard(env, tenant, id)!;
      removeCard(env, tenant, card);
      // The new customer keeps its own main card (it "keeps all its previous records").
      putCard(env, tenant, { ...card, customer_id: to, main: false });
    }
  },
  removeAll(env, tenant, customerId) {
    for (const id of cardIds(env, tenant, customerId)) removeCard(env, tenant, getCard(env, tenant, id)!);
  },
};
