/**
 * A game campaign → its compiled form. A game is compiled by the same code as
 * an instant win (targeting, conditions, `once` limit, prize weights), so a
 * game is refused at write time exactly where an instant win would be.
 */
import { compileCampaign } from '../compile/campaign.js';
import type { CompiledCampaign, CompiledSettings } from '../compile/program.js';
import { compileSettings } from '../compile/settings.js';
import { invalidRequest, mustBe } from '../errors.js';
import type { Game, Prize, Settings } from '../types.js';

export const STOCK_STRATEGIES = ['decrement', 'unlimited'] as const;

export interface CompiledGame {
  campaign: CompiledCampaign;
  settings: CompiledSettings;
}

export function compileGame(game: Game, settings: Settings): CompiledGame {
  if (game === null || typeof game !== 'object') throw invalidRequest('game', mustBe('object'));
  if (!Array.isArray(game.prizes)) throw invalidRequest('prizes', mustBe('array'));
  const prizes: Prize[] = game.prizes.map((gamePrize, i) => {
    const strategy = gamePrize?.stock_management_strategy ?? 'decrement';
    if (!(STOCK_STRATEGIES as readonly string[]).includes(strategy)) {
      throw invalidRequest(`prizes[${i}].stock_management_strategy`, `must be one of ${STOCK_STRATEGIES.join(', ')}`);
    }
    const { outcome, ...prize } = gamePrize;
    // An 'unlimited' prize never runs out, whatever stock it shows; a no_prize slot is the instant wins' "no prize".
    return { ...prize, stock: strategy === 'unlimited' ? -1 : prize.stock, ...(outcome === 'no_prize' ? { outcome: { promotion_type: '' } } : {}) };
  });
  const campaign = compileCampaign({ id: game.id, type: 'instant_win', rule_params: game.rule_params, prizes });
  return Object.freeze({ campaign: Object.freeze(campaign), settings: compileSettings(settings) });
}
