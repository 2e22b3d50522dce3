/**
 * One play of a game: whether the customer may play (targeting, the customer
 * conditions, the `once` limit), then a seeded draw by weight. A play has no
 * cart: conditions see the customer and the play's date only. Pure: the
 * caller persists the limit and stock writes after re-checking them.
 */
import { readContext } from '../evaluate/contextInput.js';
import { customerFacts } from '../evaluate/facts.js';
import { targetingRefusal } from '../evaluate/targeting.js';
import { drawFromSeed } from '../random.js';
import { periodKeyOf } from '../time/periodKey.js';
import { zonedDate } from '../time/zonedDate.js';
import type { GameContext, GamePlay } from '../types.js';
import type { CompiledGame } from './compileGame.js';

export function playGame(game: CompiledGame, context: GameContext): GamePlay {
  const { campaign, settings } = game;
  const ctx = readContext({ now: context.now, mode: 'realtime', seed: context.seed, customer: context.customer });
  const created = zonedDate(ctx.now, settings.formatter);
  const refusal = targetingRefusal({ input: { createdAt: ctx.now, currency: settings.currency }, created, context: ctx }, campaign);
  if (refusal !== null) return { eligible: false, reason: refusal };
  const facts = {
    total: 0,
    original_total: 0,
    location_features: [],
    currency: settings.currency,
    attributes: {},
    customer: customerFacts(ctx),
    creation_date: { weekday: created.weekday, hour: created.hour },
    lines: [],
  };
  if (!campaign.conditions.test(facts)) return { eligible: false, reason: 'the customer does not meet the rule conditions' };
  const uses = context.uses ?? 0;
  if (campaign.once && uses >= campaign.once.limit) {
    return { eligible: false, reason: `once_limit: reached (${uses} of ${campaign.once.limit})` };
  }
  const limit = campaign.once ? { period: campaign.once.period, period_key: periodKeyOf(campaign.once.period, created), limit: campaign.once.limit } : null;
  const drawn = drawFromSeed(context.seed);
  const index = campaign.prizes.findIndex((prize) => drawn < prize.upTo);
  const draw = { seed: context.seed, drawn };
  if (index < 0) return { eligible: true, status: 'no_prize', prize_id: null, prize_index: null, draw, limit, stock: null };
  const prize = campaign.prizes[index];
  // A no_prize slot: taking part without winning, its stock neither counted nor taken.
  if (!prize.wins) return { eligible: true, status: 'no_prize', prize_id: prize.rawId, prize_index: index, draw, limit, stock: null };
  const left = prize.stock < 0 ? -1 : (context.prize_stock?.[prize.id] ?? prize.stock);
  if (left === 0) return { eligible: true, status: 'stock_exhausted', prize_id: prize.rawId, prize_index: index, draw, limit, stock: null };
  const stock = left > 0 ? { campaign_id: campaign.rawId, prize_id: prize.rawId, amount: 1 as const, stock_seen: left } : null;
  return { eligible: true, status: 'won', prize_id: prize.rawId, prize_index: index, draw, limit, stock };
}
