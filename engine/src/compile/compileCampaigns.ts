/**
 * compileCampaigns: a Company's campaigns and settings → one frozen Program.
 * Every malformed campaign is rejected here, never at evaluation.
 */
import { invalidRequest, mustBe, TallyError } from '../errors.js';
import { compareIds } from '../ids.js';
import type { Campaign, Settings } from '../types.js';
import { compileCampaign } from './campaign.js';
import type { CompiledCampaign, Program, ProgramJSON } from './program.js';
import { compileSettings } from './settings.js';

/** The programs compileCampaigns returned: evaluateCart takes no other (a JSON export or a copy lacks the compiled parts). */
const PROGRAMS = new WeakSet<Program>();

export function isProgram(value: unknown): value is Program {
  return typeof value === 'object' && value !== null && PROGRAMS.has(value as Program);
}

export function compileCampaigns(campaigns: readonly Campaign[], settings: Settings): Program {
  const compiledSettings = compileSettings(settings);
  if (!Array.isArray(campaigns)) throw invalidRequest('campaigns', mustBe('array'));
  const compiled = campaigns.map((campaign, i) => {
    try {
      return Object.freeze(compileCampaign(campaign));
    } catch (error) {
      if (!(error instanceof TallyError)) throw error;
      const field = `campaigns[${i}]${error.field ? `.${error.field}` : ''}`;
      throw new TallyError(error.code, `campaigns[${i}].${error.message}`, field);
    }
  });
  const ordered = [...compiled].sort(byPriorityThenId);
  const byId = new Map<string, CompiledCampaign>();
  const byStaticCode = new Map<string, CompiledCampaign>();
  for (const [i, campaign] of compiled.entries()) {
    if (byId.has(campaign.id)) {
      throw new TallyError('invalid_request', `campaigns[${i}].id: duplicate id ${campaign.id}`, `campaigns[${i}].id`);
    }
    byId.set(campaign.id, campaign);
    if (campaign.staticCode !== null) {
      if (byStaticCode.has(campaign.staticCode)) {
        const field = `campaigns[${i}].coupon_params.static_code`;
        throw new TallyError('invalid_request', `${field}: duplicate static code ${campaign.staticCode}`, field);
      }
      byStaticCode.set(campaign.staticCode, campaign);
    }
  }
  const json = programJSON(ordered, compiledSettings);
  const program: Program = Object.freeze({
    settings: compiledSettings,
    discounts: Object.freeze(ordered.filter((c) => c.type === 'discount')),
    points: Object.freeze(ordered.filter((c) => c.type === 'points')),
    instantWins: Object.freeze(ordered.filter((c) => c.type === 'instant_win')),
    byId,
    byStaticCode,
    toJSON: () => JSON.parse(JSON.stringify(json)) as ProgramJSON,
  });
  PROGRAMS.add(program);
  return program;
}

function byPriorityThenId(a: CompiledCampaign, b: CompiledCampaign): number {
  return a.priority - b.priority || compareIds(a.id, b.id);
}

function programJSON(ordered: readonly CompiledCampaign[], settings: Program['settings']): ProgramJSON {
  return {
    settings: {
      currency: settings.currency,
      timezone: settings.timezone,
      point_value: settings.pointValue.toString(),
      cashback_line_share: settings.cashbackLineShare.toString(),
      cashback_cap: settings.cashbackCap,
      score_threshold_cashback: settings.scoreThresholdCashback,
    },
    // json-rules-engine runs higher priorities first; ours are ascending, so rank by position.
    rules: ordered.map((campaign, rank) => ({
      name: campaign.id,
      priority: ordered.length - rank,
      conditions: campaign.conditions.json,
      event: { type: campaign.type, params: { campaign_id: campaign.id, rule_application: campaign.application.json } },
    })),
  };
}
