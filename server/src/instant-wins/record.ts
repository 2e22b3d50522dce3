/**
 * A create or update body → the instant win to store, built inside the write
 * transaction. The campaign is compiled by the engine (the compiler the cart
 * workers run) before it is stored, and each prize must name something that
 * can be delivered: a points campaign with fixed points, a targeted game, a
 * reward.
 */
import { compileCampaigns, TallyError } from '@tally/engine';
import { checkEventSlug, compileErrorOf } from '../campaigns/compile-check.js';
import { engineSettings } from '../campaigns/engine-settings.js';
import { checkStaticCodeFree } from '../campaigns/static-codes.js';
import type { CampaignStore } from '../campaigns/store.js';
import { distinctIds, mergeCampaignFields } from '../games/campaign-fields.js';
import type { GameStore } from '../games/store.js';
import { invalidRequest, requiredWith } from '../http/errors.js';
import type { RewardStore } from '../rewards/store.js';
import type { CompanySettings, Tenant } from '../tenancy/types.js';
import type { InstantWinsParamsPrize, InstantWinsUpdate } from '../wire/types.js';
import { fixedPoints } from './points-prize.js';
import { toEngineInstantWin, type InstantWinStore } from './store.js';
import type { InstantWinPrizeRecord, InstantWinRecord } from './types.js';

export interface InstantWinWrite {
  tenant: Tenant;
  settings: CompanySettings;
  instantWins: InstantWinStore;
  campaigns: CampaignStore;
  games: GameStore;
  rewards: RewardStore;
  now: string;
  newId: (sequence: string) => string;
}

export function buildInstantWin(write: InstantWinWrite, id: string, body: InstantWinsUpdate, previous?: InstantWinRecord): Omit<InstantWinRecord, 'history_id'> {
  const fields = mergeCampaignFields(previous, body, write.settings);
  // Checked when sent: one stored before stays editable.
  if (body.rule_params?.when !== undefined) checkEventSlug(fields.rule_params.when);
  checkStaticCodeFree([write.campaigns, write.instantWins, write.games], write.tenant, fields.static_code, id);
  const given = body.instant_win?.instant_win_prizes;
  const prizes = given === undefined ? (previous?.prizes ?? []) : distinctIds(given, 'instant_win.instant_win_prizes').map((prize, i) => buildPrize(write, prize, i, previous));
  const record = { id, ...fields, prizes, created_at: previous?.created_at ?? write.now, updated_at: write.now };
  checkCompiles(record, write.settings);
  return record;
}

function buildPrize(write: InstantWinWrite, prize: InstantWinsParamsPrize, i: number, previous?: InstantWinRecord): InstantWinPrizeRecord {
  const field = `instant_win.instant_win_prizes[${i}]`;
  if (prize.id !== undefined && !previous?.prizes.some((p) => p.id === prize.id)) throw invalidRequest(`${field}.id`, 'is not a prize of this instant win');
  const type = prize.outcome?.promotion_type || undefined;
  const promotionId = prize.outcome?.promotion_id;
  if (type !== undefined && promotionId === undefined) throw invalidRequest(`${field}.outcome.promotion_id`, `is required for a ${type} prize`);
  if (type === undefined && promotionId !== undefined) throw requiredWith(`${field}.outcome.promotion_type`, `${field}.outcome.promotion_id`);
  if (type === 'points' && fixedPoints(write.campaigns.get(write.tenant, promotionId!)) === null) {
    throw invalidRequest(`${field}.outcome.promotion_id`, 'must be a points campaign giving a fixed number of points (one direct_value effect)');
  }
  if (type === 'game' && write.games.get(write.tenant, promotionId!)?.rule_params.select_customers !== 'targeted') {
    throw invalidRequest(`${field}.outcome.promotion_id`, 'must be a targeted game (the prize delivers one play of it)');
  }
  if (type === 'reward' && !write.rewards.get(write.tenant, promotionId!)) throw invalidRequest(`${field}.outcome.promotion_id`, 'is not a reward');
  return {
    id: prize.id ?? write.newId('instant_win_prize'),
    name: prize.name,
    description: prize.description ?? null,
    outcome: type === undefined ? null : { promotion_type: type, promotion_id: promotionId! },
    weight: String(prize.weight),
    stock: prize.stock,
    stock_management_strategy: 'remove_prize',
  };
}

/** Throws invalid_request naming the field the engine refused (`instant_win.instant_win_prizes[0].weight`, `rule_params...`). */
function checkCompiles(record: Omit<InstantWinRecord, 'history_id'>, settings: CompanySettings): void {
  try {
    compileCampaigns([toEngineInstantWin(record)], engineSettings(settings));
  } catch (error) {
    if (!(error instanceof TallyError)) throw error;
    const rename = (text: string) => text.replace(/^campaigns\[0\]\.?/, '').replace(/^prizes/, 'instant_win.instant_win_prizes');
    throw new TallyError(error.code, rename(error.message), error.field === undefined ? undefined : rename(error.field));
  }
}

/** A stored instant win's compile error (null when it compiles), answered by its single read as a discount's is (`compileError`). */
export function instantWinCompileError(record: InstantWinRecord, settings: CompanySettings): { code: string; message: string } | null {
  return compileErrorOf(() => checkCompiles(record, settings));
}
