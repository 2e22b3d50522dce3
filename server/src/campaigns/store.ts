/**
 * The campaign store: discount and points campaigns of each Company
 * environment, and a version number bumped in the same transaction as any
 * campaign change, so a worker recompiles its program only when it moved.
 * Keys (docs/storage.md): `campaigns` [tenant, idKey(id)] -> CampaignRecord,
 * `campaign_coupons` [tenant, static_code] -> campaign id,
 * `campaigns_meta` [tenant, 'version'] -> number.
 */
import type { Campaign } from '@tally/engine';
import type { StoreEnv } from '../store/env.js';
import { idKey, tenantPrefix } from '../store/keys.js';
import type { Tenant } from '../tenancy/types.js';
import type { CampaignRecord } from './types.js';

export interface ProgramInput {
  version: number;
  /** Every stored campaign in the engine's shape; the engine itself skips inactive or out-of-date ones. */
  campaigns: Campaign[];
}

export interface CampaignStore {
  /** Changes with every campaign write of this tenant (0 before the first). */
  version(tenant: Tenant): number;
  /** The campaigns to compile, read in one snapshot with their version. */
  activeProgramInput(tenant: Tenant): ProgramInput;
  get(tenant: Tenant, id: string): CampaignRecord | undefined;
  /** The campaign whose coupon has this static code. */
  byStaticCode(tenant: Tenant, staticCode: string): CampaignRecord | undefined;
  all(tenant: Tenant): CampaignRecord[];
  /**
   * Writes a campaign inside the caller's `env.transact` and bumps the
   * version. The previous record (if any) is passed so its static code index is moved.
   */
  putInTransaction(tenant: Tenant, record: CampaignRecord, previous?: CampaignRecord): void;
}

export function toEngineCampaign(record: CampaignRecord): Campaign {
  return {
    id: record.id,
    type: record.type,
    rule_params: record.rule_params,
    ...(record.coupon_params ? { coupon_params: record.coupon_params } : {}),
  };
}

export class LmdbCampaignStore implements CampaignStore {
  constructor(private readonly env: StoreEnv) {}

  private get campaigns() {
    return this.env.db('campaigns');
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
    return { version: this.version(tenant), campaigns: this.all(tenant).map(toEngineCampaign) };
  }

  get(tenant: Tenant, id: string): CampaignRecord | undefined {
    return this.campaigns.get([tenantPrefix(tenant), idKey(id)]) as CampaignRecord | undefined;
  }

  byStaticCode(tenant: Tenant, staticCode: string): CampaignRecord | undefined {
    const id = this.coupons.get([tenantPrefix(tenant), staticCode]) as string | undefined;
    return id === undefined ? undefined : this.get(tenant, id);
  }

  all(tenant: Tenant): CampaignRecord[] {
    const prefix = tenantPrefix(tenant);
    const range = this.campaigns.getRange({ start: [prefix], end: [prefix, Buffer.from([0xff])] });
    return [...range].map(({ value }) => value as CampaignRecord);
  }

  putInTransaction(tenant: Tenant, record: CampaignRecord, previous?: CampaignRecord): void {
    const prefix = tenantPrefix(tenant);
    const oldCode = previous?.coupon_params?.static_code;
    const newCode = record.coupon_params?.static_code;
    if (oldCode !== undefined && oldCode !== newCode) this.coupons.removeSync([prefix, oldCode]);
    if (newCode !== undefined) this.coupons.putSync([prefix, newCode], record.id);
    this.campaigns.putSync([prefix, idKey(record.id)], record);
    this.meta.putSync([prefix, 'version'], this.version(tenant) + 1);
  }
}
