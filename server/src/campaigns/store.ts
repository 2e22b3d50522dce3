/**
 * The campaign store: discount and points campaigns of each Company
 * environment, and a version number bumped in the same transaction as any
 * campaign change, so a worker recompiles its program only when it moved.
 * Every write also keeps a snapshot under a new campaign_history_id.
 * Keys (docs/storage.md): `campaigns` [tenant, idKey(id)] -> CampaignRecord;
 * `campaign_history` [tenant, idKey(history_id)] -> CampaignRecord;
 * `campaign_coupons` [tenant, 'static', static_code] and [tenant, 'id', idKey(coupon_id)] -> campaign id;
 * `campaigns_meta` [tenant, 'version'] -> number.
 */
import { isCartCampaign, withCouponState, type Campaign } from '@tally/engine';
import type { StoreEnv } from '../store/env.js';
import { InstantWinStore, toEngineInstantWin } from '../instant-wins/store.js';
import { allocateId } from '../store/ids.js';
import { changesNothing } from '../store/unchanged.js';
import { paginate, type Page, type PageRequest } from '../store/paginate.js';
import { idKey, tenantPrefix, under } from '../store/keys.js';
import type { CompanySettings, Tenant } from '../tenancy/types.js';
import { localize } from '../http/language.js';
import { wireInt } from '../http/wire.js';
import type { CampaignRecord, CampaignTexts, Translations } from './types.js';

export interface ProgramInput {
  version: number;
  /** Every stored campaign in the engine's shape (instant wins included); the engine itself skips inactive or out-of-date ones. */
  campaigns: Campaign[];
  /** The other languages' names of the discount and points campaigns that have some (the engine sees the default's). */
  texts: CampaignTexts;
}

export interface CampaignStore {
  /** Changes with every campaign write of this tenant (0 before the first). */
  version(tenant: Tenant): number;
  /** The campaigns to compile, read in one snapshot with their version. */
  activeProgramInput(tenant: Tenant): ProgramInput;
  get(tenant: Tenant, id: string): CampaignRecord | undefined;
  /** A past or current version of a campaign by its campaign_history_id. */
  getHistory(tenant: Tenant, historyId: string): CampaignRecord | undefined;
  /** The campaign whose coupon has this static code. */
  byStaticCode(tenant: Tenant, staticCode: string): CampaignRecord | undefined;
  /** The campaign whose coupon has this id. */
  byCouponId(tenant: Tenant, couponId: string): CampaignRecord | undefined;
  /** Every campaign, in id order. */
  all(tenant: Tenant): CampaignRecord[];
  /** One page of campaigns in id order; `toItem` filters (undefined = skip) and shapes them. */
  page<T>(tenant: Tenant, page: PageRequest, toItem: (record: CampaignRecord) => T | undefined): Page<T>;
  /**
   * Inside the caller's `env.transact`: writes a campaign (with a new
   * history id), moves its coupon indexes from `previous`, bumps the version.
   * A record equal to `previous` but for `updated_at` writes nothing and
   * answers `previous`: a version moved by no change would make every worker
   * recompile the Company's program.
   */
  putInTransaction(tenant: Tenant, record: CampaignRecord, previous?: CampaignRecord): CampaignRecord;
  /** Inside `env.transact`: another part of the program changed (instant wins). */
  bumpVersionInTransaction(tenant: Tenant): void;
}

export function toEngineCampaign(record: CampaignRecord): Campaign {
  // The engine reports the coupon's id in coupon_info; an inactive coupon is no coupon (withCouponState).
  return withCouponState({
    id: record.id,
    type: record.type,
    rule_params: record.rule_params,
    ...(record.coupon_params ? { coupon_params: { ...record.coupon_params, id: record.coupon_id } } : {}),
  });
}

/**
 * The campaign named as the engine answers and records it: in the Company's default language now. The name (and
 * coupon name and description) stored with a campaign written per language is the default language's text when it
 * was written; after the Company's default changes, its other texts hold the new default's (common rule 7).
 */
export function inDefaultLanguage(campaign: Campaign, texts: CampaignRecord['texts'] | undefined, settings: CompanySettings): Campaign {
  if (texts === undefined) return campaign;
  const named = <T>(translations: Translations | undefined, stored: T) => (translations === undefined ? stored : localize(translations, undefined, settings));
  const coupon = campaign.coupon_params;
  return {
    ...campaign,
    rule_params: { ...campaign.rule_params, name: named(texts.name, campaign.rule_params.name) },
    ...(coupon && (texts.coupon_name || texts.coupon_description)
      ? { coupon_params: { ...coupon, name: named(texts.coupon_name, coupon.name), description: named(texts.coupon_description, coupon.description) } }
      : {}),
  };
}

/**
 * A campaign as a program compiles it (carts, triggers, custom events): named in the Company's default language now
 * (inDefaultLanguage), its campaign and coupon ids as numbers, so effects carry rule_id and coupon_info as the contract
 * writes them.
 */
export function programCampaign(campaign: Campaign, texts: CampaignRecord['texts'] | undefined, settings: CompanySettings): Campaign {
  const named = inDefaultLanguage(campaign, texts, settings);
  const coupon = named.coupon_params;
  return {
    ...named,
    id: wireInt(String(campaign.id)),
    ...(coupon && typeof coupon.id === 'string' ? { coupon_params: { ...coupon, id: wireInt(coupon.id) } } : {}),
  };
}

/**
 * The other languages' names of the campaigns that have some, by campaign id (what answers localize effects with):
 * discount and points campaigns, and instant wins (one id sequence, `campaigns`, numbers them all).
 */
export function translatedTexts(records: readonly Pick<CampaignRecord, 'id' | 'texts'>[]): CampaignTexts {
  return new Map(records.filter((record) => Object.keys(record.texts).length > 0).map((record) => [record.id, record.texts]));
}

export class LmdbCampaignStore implements CampaignStore {
  constructor(private readonly env: StoreEnv) {}

  private get campaigns() {
    return this.env.db('campaigns');
  }
  private get history() {
    return this.env.db('campaign_history');
  }
  private get coupons() {
    return this.env.db('campaign_coupons');
  }
  private get meta() {
    return this.env.db('campaigns_meta');
  }

  version(tenant: Tenant): number {
    return (this.meta.get([tenantPrefix(tenant), 'version']) as number | undefined) ?? 0;
  }

  activeProgramInput(tenant: Tenant): ProgramInput {
    // Synchronous reads share lmdb's read snapshot of this event turn, so the version matches the campaigns.
    // Campaigns bound to a trigger or a custom event run on that event, never on carts.
    const records = this.all(tenant).filter((record) => isCartCampaign(record.rule_params));
    const instantWins = new InstantWinStore(this.env).cartInstantWins(tenant);
    return {
      version: this.version(tenant),
      campaigns: [...records.map(toEngineCampaign), ...instantWins.map(toEngineInstantWin)],
      texts: translatedTexts([...records, ...instantWins]),
    };
  }

  get(tenant: Tenant, id: string): CampaignRecord | undefined {
    return this.campaigns.get([tenantPrefix(tenant), idKey(id)]) as CampaignRecord | undefined;
  }

  getHistory(tenant: Tenant, historyId: string): CampaignRecord | undefined {
    return this.history.get([tenantPrefix(tenant), idKey(historyId)]) as CampaignRecord | undefined;
  }

  byStaticCode(tenant: Tenant, staticCode: string): CampaignRecord | undefined {
    return this.byCoupon(tenant, ['static', staticCode]);
  }

  byCouponId(tenant: Tenant, couponId: string): CampaignRecord | undefined {
    return this.byCoupon(tenant, ['id', idKey(couponId)]);
  }

  private byCoupon(tenant: Tenant, key: string[]): CampaignRecord | undefined {
    const id = this.coupons.get([tenantPrefix(tenant), ...key]) as string | undefined;
    return id === undefined ? undefined : this.get(tenant, id);
  }

  all(tenant: Tenant): CampaignRecord[] {
    const prefix = tenantPrefix(tenant);
    const range = this.campaigns.getRange(under([prefix]));
    return [...range].map(({ value }) => value as CampaignRecord);
  }

  page<T>(tenant: Tenant, page: PageRequest, toItem: (record: CampaignRecord) => T | undefined): Page<T> {
    return paginate(this.campaigns, [tenantPrefix(tenant)], page, toItem);
  }

  putInTransaction(tenant: Tenant, record: CampaignRecord, previous?: CampaignRecord): CampaignRecord {
    if (previous && changesNothing(record, previous)) return previous;
    const prefix = tenantPrefix(tenant);
    const oldCode = previous?.coupon_params?.static_code;
    const newCode = record.coupon_params?.static_code;
    if (oldCode !== undefined && oldCode !== newCode) this.coupons.removeSync([prefix, 'static', oldCode]);
    if (newCode !== undefined) this.coupons.putSync([prefix, 'static', newCode], record.id);
    if (record.coupon_id !== undefined) this.coupons.putSync([prefix, 'id', idKey(record.coupon_id)], record.id);
    const stored = { ...record, history_id: allocateId(this.env, tenant, 'campaign_history') };
    this.history.putSync([prefix, idKey(stored.history_id)], stored);
    this.campaigns.putSync([prefix, idKey(record.id)], stored);
    this.bumpVersionInTransaction(tenant);
    return stored;
  }

  bumpVersionInTransaction(tenant: Tenant): void {
    this.meta.putSync([tenantPrefix(tenant), 'version'], this.version(tenant) + 1);
  }
}
