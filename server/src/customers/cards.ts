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

/** A card as the export shows it. */
export type Card = CustomerExportCard;

/** A card as stored: its wire shape, and the customer whose main card it was when a merge moved it away (an unmerge gives it back as main). */
type StoredCard = Card & { main_of?: string };

const db = (env: StoreEnv) => env.db('cards');

/** The customer's card numbers, in order. */
export function cardIds(env: StoreEnv, tenant: Tenant, customerId: string): string[] {
  const prefix = [tenantPrefix(tenant), 'of', idKey(customerId)];
  return [...db(env).getKeys({ start: prefix, end: [...prefix, '\uffff'] })].map((key) => idFromKey((key as string[])[3]));
}

export function getCard(env: StoreEnv, tenant: Tenant, id: string): StoredCard | undefined {
  return db(env).get([tenantPrefix(tenant), 'card', idKey(id)]) as StoredCard | undefined;
}

function putCard(env: StoreEnv, tenant: Tenant, card: StoredCard): void {
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
  return cardIds(env, tenant, customerId).map((id) => {
    const { main_of: _mainOf, ...card } = getCard(env, tenant, id)!;
    return card;
  });
}

export const cardsKind: CustomerOwnedKind = {
  name: 'cards',
  critical: false,
  activities: false,
  ids: cardIds,
  reassign(env, tenant, ids, from, to) {
    const holdsMain = cardIds(env, tenant, to).some((id) => getCard(env, tenant, id)!.main);
    for (const id of ids) {
      const { main_of: mainOf, ...card } = getCard(env, tenant, id)!;
      removeCard(env, tenant, card);
      // The new customer keeps its own main card (it "keeps all its previous records"); a main card moved away
      // remembers whose it was, and is main again when an unmerge gives it back to a customer without one.
      const owner = card.main ? from : mainOf;
      const main = owner === to && !holdsMain;
      putCard(env, tenant, { ...card, customer_id: to, main, ...(owner === undefined || main ? {} : { main_of: owner }) });
    }
  },
  removeAll(env, tenant, customerId) {
    for (const id of cardIds(env, tenant, customerId)) removeCard(env, tenant, getCard(env, tenant, id)!);
  },
};
