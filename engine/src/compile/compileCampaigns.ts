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

/** Compiles every campaign or none: the first one refused throws, naming it (`campaigns[i].…`), as an offline preview must see it. */
export function compileCampaigns(campaigns: readonly Campaign[], settings: Settings): Program {
  return build(campaigns, settings, (failure) => {
    const field = `campaigns[${failure.index}]${failure.error.field ? `.${failure.error.field}` : ''}`;
    throw new TallyError(failure.error.code, `campaigns[${failure.index}].${failure.error.message}`, field);
  });
}

/** A campaign compileEachCampaign left out: its position in the list, its id as given, and the error naming its field. */
export interface CampaignFailure {
  index: number;
  id: unknown;
  error: TallyError;
}

/**
 * Compiles campaign by campaign: one refused is left out of the program (the others apply) and reported beside it,
 * its error naming the field within the campaign, as a write of it would have. Settings that do not compile still throw:
 * no campaign applies without them.
 */
export function compileEachCampaign(campaigns: readonly Campaign[], settings: Settings): { program: Program; failures: CampaignFailure[] } {
  const failures: CampaignFailure[] = [];
  const program = build(campaigns, settings, (failure) => failures.push(failure));
  return { program, failures };
}

/** `refused` is told of each campaign that does not compile (or repeats an id or a static code) and may throw; the others make the program. */
function build(campaigns: readonly Campaign[], settings: Settings, refused: (failure: CampaignFailure) => void): Program {
  const compiledSettings = compileSettings(settings);
  if (!Array.isArray(campaigns)) throw invalidRequest('campaigns', mustBe('array'));
  const compiled: CompiledCampaign[] = [];
  const byId = new Map<string, CompiledCampaign>();
  const byStaticCode = new Map<string, CompiledCampaign>();
  for (const [index, campaign] of campaigns.entries()) {
    try {
      const one = Object.freeze(compileCampaign(campaign));
      if (byId.has(one.id)) throw new TallyError('invalid_request', `id: duplicate id ${one.id}`, 'id');
      if (one.staticCode !== null && byStaticCode.has(one.staticCode)) {
        throw new TallyError('invalid_request', `coupon_params.static_code: duplicate static code ${one.staticCode}`, 'coupon_params.static_code');
      }
      byId.set(one.id, one);
      if (one.staticCode !== null) byStaticCode.set(one.staticCode, one);
      compiled.push(one);
    } catch (error) {
      if (!(error instanceof TallyError)) throw error;
      refused({ index, id: (campaign as { id?: unknown } | null)?.id, error });
    }
  }
  const ordered = [...compiled].sort(byPriorityThenId);
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
