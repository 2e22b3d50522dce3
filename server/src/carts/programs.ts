/**
 * Each Company environment's compiled program, kept in memory by the campaign
 * version and the settings version: a worker compiles only when a campaign or
 * a setting changed, never per request.
 */
import { compileEachCampaign, type Campaign, type CampaignFailure, type Program } from '@tally/engine';
import { engineSettings } from '../campaigns/engine-settings.js';
import { programCampaign, type CampaignStore } from '../campaigns/store.js';
import type { CampaignTexts } from '../campaigns/types.js';
import { stringifyJson } from '../http/json.js';
import type { Logger } from '../log.js';
import { tenantPrefix } from '../store/keys.js';
import type { CompanySettings, Tenant } from '../tenancy/types.js';

type CompiledCampaign = Program['discounts'][number];

/** `feature` not as part of `location_feature`: a program by location feature alone reads no catalogue. */
const PRODUCT_FEATURE = /(?<!location_)feature/;

/** What the context needs to know of a campaign with counters (limits, budget, prizes). */
export interface CountedCampaign {
  id: string;
  once: CompiledCampaign['once'];
  budget: CompiledCampaign['budget'];
  /** Prizes with a stock of their own (`stock` ≥ 0) or a reward to hand over (its id; -1 `stock` when unlimited). */
  prizes: CountedPrize[];
}

export interface CountedPrize {
  id: string;
  stock: number;
  /** The reward the prize hands over: its units left for the customer cap the draw (context.prize_units). */
  reward: string | null;
}

const REWARD = 'reward:';

function countedPrizes(prizes: CompiledCampaign['prizes']): CountedPrize[] {
  return prizes.flatMap((p) => {
    const reward = p.outcomeKey?.startsWith(REWARD) ? p.outcomeKey.slice(REWARD.length) : null;
    return p.stock >= 0 || reward !== null ? [{ id: p.id, stock: p.stock, reward }] : [];
  });
}

/** The context's key of a reward's units (the engine's outcome key of a reward prize). */
export function rewardUnitsKey(rewardId: string): string {
  return REWARD + rewardId;
}

export interface CachedProgram {
  campaignVersion: number;
  settingsVersion: number;
  program: Program;
  /** The campaigns whose counters the evaluation context must carry. */
  counted: CountedCampaign[];
  /** Whether a rule may name product features, the line field `feature` (only then does the context read the catalogue). */
  usesFeatures: boolean;
  /** Whether a rule may name `product_code` or `product_ean` (only then are the codes of lines sent by id read from the catalogue). */
  usesProductCodes: boolean;
  /** Whether a rule may read the `customer.tier` fact (only then does the context measure the customer's tier). */
  usesTier: boolean;
  /** Whether a rule may read the `location_code` fact (only then is a cart sent with location_id only given its code). */
  usesLocationCode: boolean;
  /** Whether a rule may name `location_feature` (only then are the features of the cart's location read). */
  usesLocationFeatures: boolean;
  /** The campaigns' names in other languages (empty when none has any): responses are localized with them. */
  texts: CampaignTexts;
}

/** A compiled program with what the evaluation context needs to know of it; `campaigns` are what it was compiled from. */
export function describeProgram(
  program: Program,
  campaigns: readonly Campaign[],
  versions: { campaignVersion: number; settingsVersion: number },
  texts: CampaignTexts = new Map(),
): CachedProgram {
  // Conservative: a word anywhere in a rule makes the context read what it names.
  const rules = campaigns.map((c) => stringifyJson([c.rule_params.rule_conditions, c.rule_params.rule_application]));
  return {
    ...versions,
    program,
    // Read once per program: only a program with reward prizes makes the context read rewards.
    counted: [...program.discounts, ...program.points, ...program.instantWins]
      .map((c) => ({ id: c.id, once: c.once, budget: c.budget, prizes: countedPrizes(c.prizes) }))
      .filter((c) => c.once !== null || c.budget !== null || c.prizes.length > 0),
    usesFeatures: rules.some((text) => PRODUCT_FEATURE.test(text)),
    usesProductCodes: rules.some((text) => text.includes('product_code') || text.includes('product_ean')),
    usesTier: rules.some((text) => text.includes('customer.tier')),
    usesLocationCode: rules.some((text) => text.includes('location_code')),
    usesLocationFeatures: rules.some((text) => text.includes('location_feature')),
    texts,
  };
}

/** Told of each program compiled, with the campaigns left out of it because they no longer compile. */
export type OnCompile = (tenant: string, campaignVersion: number, failures: readonly CampaignFailure[]) => void;

/**
 * Logs each compile (a test counts them) and, once per compile, never per cart, each campaign left out: a campaign
 * is checked when written, so one that no longer compiles was stored before a stricter rule (or restored from another version).
 */
export function logCompile(log: Logger): OnCompile {
  const leftOut = logLeftOut(log);
  return (tenant, version, failures) => {
    log.info({ tenant, version }, 'program compiled');
    leftOut(tenant, version, failures);
  };
}

/** Tells each of `listeners` of every compile (the log, and the count of campaigns left out: left-out.ts). */
export function onEachCompile(...listeners: OnCompile[]): OnCompile {
  return (...compiled) => {
    for (const listener of listeners) listener(...compiled);
  };
}

/** Logs each campaign left out of a program (warn), and nothing for a program that compiled whole. */
export function logLeftOut(log: Logger): OnCompile {
  return (tenant, version, failures) => {
    for (const { id, error } of failures) {
      log.warn({ tenant, version, campaign_id: String(id), code: error.code, message: error.message }, 'campaign left out of the program: it does not compile');
    }
  };
}

export class ProgramCache {
  private readonly programs = new Map<string, CachedProgram>();
  constructor(
    private readonly campaigns: CampaignStore,
    private readonly onCompile: OnCompile,
  ) {}

  get(tenant: Tenant, settings: CompanySettings): CachedProgram {
    const key = tenantPrefix(tenant);
    const cached = this.programs.get(key);
    const version = this.campaigns.version(tenant);
    if (cached && cached.campaignVersion === version && cached.settingsVersion === settings.version) return cached;
    const input = this.campaigns.activeProgramInput(tenant);
    const campaigns = input.campaigns.map((campaign) => programCampaign(campaign, input.texts.get(String(campaign.id)), settings));
    // Campaign by campaign: one that no longer compiles is left out, and the Company's other campaigns still apply.
    const { program, failures } = compileEachCampaign(campaigns, engineSettings(settings));
    this.onCompile(key, input.version, failures);
    const fresh = describeProgram(program, campaigns, { campaignVersion: input.version, settingsVersion: settings.version }, input.texts);
    this.programs.set(key, fresh);
    return fresh;
  }
}
