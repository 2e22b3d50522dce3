/**
 * A create or update body → the game to store, built inside the write
 * transaction (ids are allocated there). The game is compiled by the engine
 * before it is stored, so a game that is stored can always be played.
 */
import { compileGame, TallyError, type Game } from '@tally/engine';
import { compileErrorOf } from '../campaigns/compile-check.js';
import { engineSettings } from '../campaigns/engine-settings.js';
import { checkStaticCodeFree } from '../campaigns/static-codes.js';
import type { CampaignStore } from '../campaigns/store.js';
import { invalidRequest } from '../http/errors.js';
import { parseJsonText, stringifyJson } from '../http/json.js';
import type { CompanySettings, Tenant } from '../tenancy/types.js';
import type { GamesParamsPrize, GamesUpdate } from '../wire/types.js';
import { distinctIds, mergeCampaignFields } from './campaign-fields.js';
import { prizeCoupon } from './prize.js';
import type { InstantWinStore } from '../instant-wins/store.js';
import type { GameStore } from './store.js';
import type { GamePrizeRecord, GameRecord } from './types.js';

export interface GameWrite {
  tenant: Tenant;
  settings: CompanySettings;
  games: GameStore;
  campaigns: CampaignStore;
  instantWins: InstantWinStore;
  now: string;
  /** A new id of a sequence (call inside the transaction). */
  newId: (sequence: string) => string;
}

export function buildGame(write: GameWrite, id: string, body: GamesUpdate, previous?: GameRecord): Omit<GameRecord, 'history_id'> {
  const fields = mergeCampaignFields(previous, body, write.settings);
  checkStaticCodeFree([write.campaigns, write.instantWins, write.games], write.tenant, fields.static_code, id);
  const given = body.game ?? {};
  const game: GameRecord['game'] = {
    id: previous?.game.id ?? write.newId('game'),
    type: given.type ?? previous?.game.type ?? '',
    config: given.config === undefined ? (previous?.game.config ?? null) : jsonText(given.config, 'game.config'),
    template: given.template ?? previous?.game.template ?? null,
    prizes: given.game_prizes === undefined ? (previous?.game.prizes ?? []) : distinctIds(given.game_prizes, 'game.game_prizes').map((prize, i) => buildPrize(write, prize, i, previous)),
  };
  const record = { id, rule_params: fields.rule_params, texts: fields.texts, static_code: fields.static_code, game, created_at: previous?.created_at ?? write.now, updated_at: write.now };
  checkCompiles(record, write.settings);
  return record;
}

function buildPrize(write: GameWrite, prize: GamesParamsPrize, i: number, previous?: GameRecord): GamePrizeRecord {
  const field = `game.game_prizes[${i}]`;
  if (prize.id !== undefined && !previous?.game.prizes.some((p) => p.id === prize.id)) {
    throw invalidRequest(`${field}.id`, `is not a prize of this game`);
  }
  if (prize.outcome === 'points' && prize.points === undefined) throw invalidRequest(`${field}.points`, 'is required for a points prize');
  if (prize.outcome === 'discount') {
    if (prize.promotion_id === undefined) throw invalidRequest(`${field}.promotion_id`, 'is required for a discount prize');
    if (write.campaigns.get(write.tenant, prize.promotion_id)?.type !== 'discount') {
      throw invalidRequest(`${field}.promotion_id`, `is not a discount campaign`);
    }
    if (!prizeCoupon(write.campaigns, write.tenant, prize.promotion_id)) {
      throw invalidRequest(`${field}.promotion_id`, 'is a discount campaign without a coupon (a won prize is a voucher of its coupon)');
    }
  }
  return {
    id: prize.id ?? write.newId('game_prize'),
    name: prize.name,
    outcome: prize.outcome,
    display_options: prize.display_options === undefined ? null : jsonText(prize.display_options, `${field}.display_options`),
    weight: String(prize.weight),
    stock: prize.stock,
    stock_management_strategy: prize.stock_management_strategy ?? 'decrement',
    points: prize.outcome === 'points' ? prize.points! : null,
    promotion_id: prize.outcome === 'discount' ? prize.promotion_id! : null,
  };
}

/** The game in the engine's shape: what a play compiles. */
export function engineGame(record: Omit<GameRecord, 'history_id'>): Game {
  return {
    id: record.id,
    rule_params: record.rule_params,
    prizes: record.game.prizes.map((p) => ({ id: p.id, name: p.name, outcome: p.outcome, weight: p.weight, stock: p.stock, stock_management_strategy: p.stock_management_strategy })),
  };
}

/** Throws invalid_request naming the field the engine refused (`game.game_prizes[0].weight`, `rule_params.rule_conditions...`). */
function checkCompiles(record: Omit<GameRecord, 'history_id'>, settings: CompanySettings): void {
  try {
    compileGame(engineGame(record), engineSettings(settings));
  } catch (error) {
    if (!(error instanceof TallyError)) throw error;
    const rename = (text: string) => text.replace(/^prizes/, 'game.game_prizes');
    throw new TallyError(error.code, rename(error.message), error.field === undefined ? undefined : rename(error.field));
  }
}

/** A stored game's compile error (null when it compiles), answered by its single read as a discount's is (`compileError`). */
export function gameCompileError(record: GameRecord, settings: CompanySettings): { code: string; message: string } | null {
  return compileErrorOf(() => checkCompiles(record, settings));
}

/**
 * An object, or its JSON text, as the text stored and answered (the contract's "JSON string", which clients parse):
 * a text that is not JSON, or the JSON of something else than an object, is refused rather than answered to them.
 */
function jsonText(value: string | Record<string, unknown>, field: string): string {
  if (typeof value !== 'string') return stringifyJson(value);
  parseJsonText(value, field, 'object', false);
  return value;
}
