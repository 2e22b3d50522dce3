/**
 * Instant wins: one effect per campaign the customer takes part in. In
 * realtime mode a seeded draw picks a prize by weight; a prize without stock
 * yields no prize (remove_prize: its probability goes to "no prize"), as does
 * one whose outcome has no units left for the customer (context.prize_units:
 * a reward out of stock or redeemed its redeem_times), and so
 * does a prize whose outcome is the contract's "no prize" (empty
 * promotion_type): prize data only for a prize won. In
 * simulate mode nothing is drawn and no prize data is returned, so simulating
 * cannot be used to search for winning carts.
 */
import type { CompiledCampaign, CompiledPrize } from '../compile/program.js';
import { admit, commit } from '../evaluate/admission.js';
import { isIdentified } from '../evaluate/contextInput.js';
import type { Run } from '../evaluate/run.js';
import { drawFromSeed } from '../random.js';
import type { Effect } from '../types.js';

export function playInstantWin(run: Run, campaign: CompiledCampaign): void {
  // A prize is delivered to a customer: anonymous carts do not take part.
  if (!isIdentified(run.context)) return;
  const admission = admit(run, campaign);
  if (admission === null) return;
  const effect: Effect = {
    rule_id: campaign.rawId,
    rule_name: campaign.name,
    type: 'instant_win',
    effect_type: '',
    distribution_type: '',
    select_customers: campaign.targeting.selectCustomers,
    line: -1,
    value: 0,
  };
  // The contract gives an instant win's coupon_info and campaign_history_id for targeted campaigns only,
  // even when another campaign is played through a coupon (a static code).
  if (campaign.targeting.selectCustomers === 'targeted' && admission.coupon) {
    effect.coupon_info = admission.coupon.info;
    const history = admission.coupon.voucher?.campaign_history_id;
    if (history !== undefined) effect.campaign_history_id = history;
  }
  run.effects.push(effect);
  if (run.context.mode === 'simulate') return;
  const seed = `${run.context.seed}:${campaign.id}`;
  const drawn = drawFromSeed(seed);
  const index = campaign.prizes.findIndex((prize) => drawn < prize.upTo);
  const prize: CompiledPrize | undefined = campaign.prizes[index];
  // Nothing drawn, the contract's "no prize" drawn, or a prize without stock (its own, or its outcome's units): taking part without winning.
  const stock = prize !== undefined && prize.wins ? stockLeft(run, campaign, prize) : 0;
  const won = prize !== undefined && stock !== 0 && outcomeUnitsLeft(run, prize) !== 0;
  if (won) {
    if (prize.outcomeKey !== null) run.prizeUnitsWon.set(prize.outcomeKey, (run.prizeUnitsWon.get(prize.outcomeKey) ?? 0) + 1);
    effect.prize_name = prize.name;
    // Every field of the prize data is there on a win (null when the prize has no description), none otherwise.
    effect.prize_description = prize.description;
    if (prize.ruleId !== null) effect.prize_rule_id = prize.ruleId;
    effect.winned_prize_index = index;
    if (stock > 0) run.writes.stock.push({ campaign_id: campaign.rawId, prize_id: prize.rawId, amount: 1, stock_seen: stock });
  }
  run.writes.draws.push({ campaign_id: campaign.rawId, seed, drawn, prize_id: won ? prize.rawId : null });
  commit(run, campaign, admission, 0);
}

/** Stock left: the caller's counter, else the configured stock; -1 = unlimited. */
function stockLeft(run: Run, campaign: CompiledCampaign, prize: CompiledPrize): number {
  const counted = run.context.counters[campaign.id]?.prize_stock?.[prize.id];
  const stock = counted ?? prize.stock;
  return stock < 0 ? -1 : stock;
}

/** Units the prize's outcome can still hand over, less those won earlier in this evaluation; -1 = no cap. */
function outcomeUnitsLeft(run: Run, prize: CompiledPrize): number {
  const units = prize.outcomeKey === null ? undefined : run.context.prizeUnits[prize.outcomeKey];
  return units === undefined ? -1 : Math.max(0, units - (run.prizeUnitsWon.get(prize.outcomeKey!) ?? 0));
}
