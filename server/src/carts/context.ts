/**
 * The evaluation context of one cart: its customer (profile, points balance,
 * vouchers held) and the counters of the campaigns that have limits, budgets
 * or prize stock, read in the periods of the cart's creation_date (never
 * later than the request's instant: `countedAt`), the vouchers' dates at the
 * cart's creation_date. The engine stays pure: every
 * fact it needs comes from here.
 */
import { TallyError, countedAt, periodKey, type CampaignCounters, type Context, type CustomerState } from '@tally/engine';
import type { AssociationStore } from '../associations/store.js';
import { liveAccountHolder } from '../customers/lookup.js';
import type { CustomerStore } from '../customers/store.js';
import type { CustomerRecord } from '../customers/types.js';
import { wireInt } from '../http/wire.js';
import { prizeStockLeft, type CounterStore } from '../counters/store.js';
import { NO_CODES, type VoucherStore } from '../vouchers/store.js';
import type { CompanySettings, Tenant } from '../tenancy/types.js';
import { ownCountry, registrationOf } from '../locations/registration.js';
import type { LocationStore } from '../locations/store.js';
import type { ProductStore } from '../products/store.js';
import { rewardUnitsKey, type CachedProgram } from './programs.js';

export interface PointsBalance {
  score: number;
  score_available: number;
}

export interface ContextSources {
  customers: CustomerStore;
  /** Where a merged customer's merge is held (accountHolder). */
  associations: AssociationStore;
  vouchers: VoucherStore;
  counters: CounterStore;
  locations: LocationStore;
  /** The catalogue (product features for line conditions); carts only. */
  products?: ProductStore;
  /** The customer's points at an instant (the points ledger). */
  balance(tenant: Tenant, customerId: string, now: Date): PointsBalance;
  /** The customer's tier (the `customer.tier` fact), when tier programs are read. */
  tier?(tenant: Tenant, customer: CustomerRecord, now: Date): string | undefined;
  /** Units of a reward the customer can still win as an instant-win prize (rewards/prize.ts); -1 = unlimited. */
  rewardPrizeUnits(tenant: Tenant, settings: CompanySettings, rewardId: string, customerId: string, now: Date): number;
}

/** The cart's customer: who the points, limits and vouchers belong to. */
export interface CartCustomer {
  id: string | null;
  code: string | null;
  record: CustomerRecord | undefined;
  /** The merged customer the cart named, when it is recorded for the customer that one was merged into. */
  associate_id?: string;
}

const ANONYMOUS: CartCustomer = { id: null, code: null, record: undefined };

/**
 * customer_code must name an existing customer; a customer_id is taken as
 * sent even when unknown (cart rule 1: coherence is not validated, the points
 * are recorded for that id), except the id of a soft-deleted customer: its
 * record stays emptied so that nothing is linked to it again, and the cart is
 * processed as one without customer (docs/decisions.md). A merged customer's
 * cart is the customer's it was merged into (its records are there now), the
 * merged one recorded as the associate; a merging one's is its own (the merge
 * moves it when it completes).
 */
export function resolveCustomer(sources: ContextSources, tenant: Tenant, request: { customer_id?: string; customer_code?: string }): CartCustomer {
  if (request.customer_code !== undefined) {
    const id = sources.customers.findId(tenant, 'code', request.customer_code);
    const record = id === undefined ? undefined : sources.customers.get(tenant, id);
    if (!record) throw new TallyError('customer_not_found', `customer_code: no customer with code ${request.customer_code}`, 'customer_code');
    return holderOf(sources, tenant, record);
  }
  if (request.customer_id !== undefined) {
    const record = sources.customers.get(tenant, request.customer_id);
    return record ? holderOf(sources, tenant, record) : { id: request.customer_id, code: null, record };
  }
  return ANONYMOUS;
}

function holderOf(sources: ContextSources, tenant: Tenant, named: CustomerRecord): CartCustomer {
  const holder = liveAccountHolder(sources.customers, sources.associations, tenant, named);
  if (!holder) return ANONYMOUS;
  const customer: CartCustomer = { id: holder.id, code: holder.code ?? null, record: holder };
  if (holder !== named) customer.associate_id = named.id;
  return customer;
}

/** The key of a customer's `once` counters: the id, else the code. */
export function customerCounterKey(customer: { id: string | null; code: string | null }): string | null {
  if (customer.id !== null) return customer.id;
  return customer.code === null ? null : `code:${customer.code}`;
}

/** What the cart (or event) brings besides its customer: the products and codes it names, and its dates. */
export interface DatedRequest {
  productIds?: readonly string[];
  listedCodes?: ReadonlySet<string>;
  /** The cart's creation_date (an event's date): its vouchers' dates are judged at it, its counters keyed at it (never later than now); absent: now. */
  saleAt?: string;
}

export function buildContext(
  sources: ContextSources,
  tenant: Tenant,
  settings: CompanySettings,
  cached: CachedProgram,
  customer: CartCustomer,
  now: Date,
  mode: Context['mode'],
  seed: string,
  dated: DatedRequest = {},
): Context {
  const at = now.toISOString();
  const { productIds = [], listedCodes = NO_CODES, saleAt = at } = dated;
  return {
    now: at,
    mode,
    seed,
    ...(customer.id === null ? {} : { customer: customerState(sources, tenant, settings, customer, now, saleAt, cached.usesTier, listedCodes) }),
    counters: readCounters(sources, tenant, settings, cached, customerCounterKey(customer), saleAt, at),
    ...(customer.id === null ? {} : readPrizeUnits(sources, tenant, settings, cached, customer.id, now)),
    ...(cached.usesFeatures && sources.products && productIds.length > 0 ? { product_features: sources.products.productFeatures(tenant, productIds) } : {}),
    ...(cached.usesProductCodes && sources.products && productIds.length > 0 ? { product_codes: sources.products.productCodes(tenant, productIds) } : {}),
  };
}

function customerState(
  sources: ContextSources,
  tenant: Tenant,
  settings: CompanySettings,
  customer: CartCustomer,
  now: Date,
  saleAt: string,
  readsTier: boolean,
  listedCodes: ReadonlySet<string>,
): CustomerState {
  const id = customer.id!;
  // A voucher's dates are judged on the day of the sale, as its campaign's and a static code's are (a till's backlog
  // uses what was valid when it sold); its status (used up, frozen, deleted) is the one it has now.
  const vouchers = sources.vouchers.heldAndRefused(tenant, id, saleAt, settings.timezone, listedCodes);
  const numericIds = <T extends { campaign_id: unknown; voucher_id?: unknown }>(voucher: T): T => ({
    ...voucher,
    campaign_id: wireInt(String(voucher.campaign_id)),
    ...(voucher.voucher_id === undefined ? {} : { voucher_id: wireInt(String(voucher.voucher_id)) }),
  });
  const profile = customer.record?.profile ?? {};
  const balance = sources.balance(tenant, id, now);
  const country = ownCountry(profile, settings);
  const registration = registrationOf(sources.locations, tenant, profile, settings);
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  return {
    id: wireInt(id),
    ...(customer.code === null ? {} : { code: customer.code }),
    points: balance.score,
    points_available: balance.score_available,
    country,
    registration_country: registration.country,
    registration_currency: registration.currency,
    gender: text(profile.gender),
    kind: text(profile.kind),
    // Measured only for a program that reads it: listing the tier programs costs about 2 µs a cart.
    tier: readsTier && customer.record ? sources.tier?.(tenant, customer.record, now) : undefined,
    fraudulent: profile.fraudulent === true,
    attributes: customer.record?.attributes ?? {},
    vouchers: vouchers.held.map(numericIds),
    // The listed codes of vouchers it cannot use: the cart answers why (rejected_campaigns), not "unknown" (invalid_coupons).
    ...(vouchers.refused.length === 0 ? {} : { refused_vouchers: vouchers.refused.map(numericIds) }),
  };
}

function readCounters(
  sources: ContextSources,
  tenant: Tenant,
  settings: CompanySettings,
  cached: CachedProgram,
  customerKey: string | null,
  eventAt: string,
  now: string,
): Record<string, CampaignCounters> {
  const counters: Record<string, CampaignCounters> = {};
  const keys = new Map<string, string>();
  let counted: string | undefined;
  const keyOf = (period: string) => {
    let key = keys.get(period);
    if (key === undefined) {
      // Keyed as the engine keys its writes (countedAt): the periods of the event's own date, never one after now.
      // Worked out only for a program with limits or budgets.
      counted ??= countedAt(eventAt, now);
      keys.set(period, (key = periodKey(period, counted, settings.timezone)));
    }
    return key;
  };
  for (const campaign of cached.counted) {
    const entry: CampaignCounters = {};
    if (campaign.once && customerKey !== null) entry.uses = sources.counters.uses(tenant, campaign.id, keyOf(campaign.once.period), customerKey);
    if (campaign.budget) entry.budget_spent_cents = sources.counters.budgetSpent(tenant, campaign.id, keyOf(campaign.budget.period));
    if (campaign.prizes.length > 0) {
      entry.prize_stock = {};
      for (const prize of campaign.prizes) {
        entry.prize_stock[prize.id] = prizeStockLeft(sources.counters, tenant, campaign.id, prize);
      }
    }
    counters[campaign.id] = entry;
  }
  return counters;
}

/**
 * The units each reward of the program's reward prizes can still hand over to the customer (context.prize_units):
 * one read per reward, none for a program without reward prizes; an unlimited one is left out (no cap).
 */
function readPrizeUnits(sources: ContextSources, tenant: Tenant, settings: CompanySettings, cached: CachedProgram, customerId: string, now: Date): Pick<Context, 'prize_units'> {
  const units = new Map<string, number>();
  for (const campaign of cached.counted) {
    for (const { reward } of campaign.prizes) {
      if (reward !== null && !units.has(reward)) units.set(reward, sources.rewardPrizeUnits(tenant, settings, reward, customerId, now));
    }
  }
  const capped = [...units].filter(([, left]) => left >= 0);
  return capped.length === 0 ? {} : { prize_units: Object.fromEntries(capped.map(([reward, left]) => [rewardUnitsKey(reward), left])) };
}
