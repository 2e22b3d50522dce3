/**
 * A stored game → the contract's Game campaign read object: campaign fields,
 * rule_type gaming, the game with its prizes (each with the stock still
 * available), names in the request's language, rule objects as JSON strings.
 */
import { prizeStockLeft, type CounterStore } from '../counters/store.js';
import { localize } from '../http/language.js';
import { ruleLists, ruleObjectText, tierEntries } from '../campaigns/view.js';
import { wireInt } from '../http/wire.js';
import type { CompanySettings, Tenant } from '../tenancy/types.js';
import { gameCompileError } from './record.js';
import type { GamePlayRecord, GamePrizeRecord, GameRecord } from './types.js';

export interface GameViewOptions {
  tenant: Tenant;
  language: string | undefined;
  settings: CompanySettings;
  counters: CounterStore;
  /** The customer's delivery of a targeted game. */
  loyaltyRuleHistoryId?: string;
  /** Single reads add the category, the rule fields and the compile error. */
  single: boolean;
}

/** Name and description in the request's language; shared with instant wins. */
export function campaignTexts(
  record: { rule_params: GameRecord['rule_params']; texts: GameRecord['texts'] },
  language: string | undefined,
  settings: CompanySettings,
): { name: string; description: string | null } {
  const text = (field: 'name' | 'description') => {
    const stored = record.rule_params[field];
    return localize(record.texts[field] ?? (typeof stored === 'string' ? stored : ''), language, settings);
  };
  return { name: text('name'), description: record.rule_params.description === undefined ? null : text('description') };
}

/** The campaign fields games and instant wins share, as stored (absent ones as null). */
export function commonCampaignFields(record: Pick<GameRecord, 'id' | 'history_id' | 'rule_params' | 'texts' | 'static_code'>, options: Pick<GameViewOptions, 'language' | 'settings' | 'loyaltyRuleHistoryId'>) {
  const params = record.rule_params;
  return {
    id: wireInt(record.id),
    campaign_history_id: wireInt(record.history_id),
    ...campaignTexts(record, options.language, options.settings),
    active: params.active ?? true,
    available_from: params.available_from ?? null,
    available_to: params.available_to ?? null,
    recurrence_type: params.recurrence_type ?? null,
    recurrence_days: params.recurrence_days ?? [],
    select_customers: params.select_customers,
    customer_registration_countries: params.customer_registration_countries ?? [],
    once: params.once ?? null,
    once_limit: params.once_limit ?? null,
    coupon_info: record.static_code === null ? null : { static_code: record.static_code },
    // The rest of a campaign read ("fields of a campaign as above"): a game or an instant win has no cart, so its cart-only settings are empty.
    currency: null,
    coupon_required: params.coupon_required ?? false,
    tiers: tierEntries(params.rule_conditions),
    achievement_definitions: [],
    chances_to_accrue: null,
    chances_to_accrue_period: null,
    chances_to_accrue_limit: null,
    budget_value: null,
    budget_period: null,
    maximum_discount_transaction: null,
    partner: null,
    custom_entity_definition_id: null,
    ...ruleLists(params),
    ...(options.loyaltyRuleHistoryId === undefined ? {} : { loyalty_rule_history_id: wireInt(options.loyaltyRuleHistoryId) }),
  };
}

/**
 * What a single read adds: the rules, their order and their event (the contract's Game campaign single read; an
 * instant win's single read answers them too, so an app can preview carts offline, docs/evaluation.md).
 */
export function singleReadRules(params: GameRecord['rule_params']) {
  return {
    rule_conditions: ruleObjectText(params.rule_conditions),
    rule_application: ruleObjectText(params.rule_application),
    rule_effects: ruleObjectText(params.rule_effects),
    priority: params.priority ?? 0,
    stackability_properties: params.stackability_properties ?? null,
    when: params.when ?? null,
  };
}

export function gameView(record: GameRecord, options: GameViewOptions): Record<string, unknown> {
  const params = record.rule_params;
  const view: Record<string, unknown> = {
    ...commonCampaignFields(record, options),
    rule_type: 'gaming',
    category: params.loyalty_rule_category_id === undefined ? null : { id: wireInt(String(params.loyalty_rule_category_id)), name: null, priority: null },
    partner_id: params.partner_id === undefined ? null : wireInt(String(params.partner_id)),
    game: {
      id: wireInt(record.game.id),
      loyalty_rule_id: wireInt(record.id),
      type: record.game.type,
      config: record.game.config,
      template: record.game.template,
      game_prizes: record.game.prizes.map((prize) => prizeView(record, prize, options)),
    },
  };
  if (options.single) {
    view.loyalty_rule_category = params.loyalty_rule_category_id === undefined
      ? null
      : { id: wireInt(String(params.loyalty_rule_category_id)), name: null, priority: null, category_type: 'gaming' };
    Object.assign(view, singleReadRules(params));
    view.compile_error = gameCompileError(record, options.settings);
  }
  return view;
}

function prizeView(game: GameRecord, prize: GamePrizeRecord, options: GameViewOptions): Record<string, unknown> {
  return {
    id: wireInt(prize.id),
    game_id: wireInt(game.game.id),
    name: prize.name,
    outcome: prize.outcome,
    display_options: prize.display_options,
    weight: Number(prize.weight),
    stock: prize.stock,
    available_stock: prize.stock_management_strategy === 'decrement' ? prizeStockLeft(options.counters, options.tenant, game.id, prize) : -1,
    stock_management_strategy: prize.stock_management_strategy,
    points: prize.points,
    promotion_id: prize.promotion_id === null ? null : wireInt(prize.promotion_id),
  };
}

/** The effect of a play (contract part 2, POST /games/{id}/play). */
export function playEffect(game: GameRecord, play: GamePlayRecord, options: Pick<GameViewOptions, 'language' | 'settings'>): Record<string, unknown> {
  const prize = game.game.prizes.find((p) => p.id === play.prize_id) ?? null;
  const won = play.status === 'won' && prize !== null;
  return {
    game_info: {
      config: game.game.config,
      game_id: wireInt(game.game.id),
      game_type: game.game.type,
      outcome: JSON.stringify({
        status: play.status,
        prize_id: play.prize_id,
        ...(won ? { type: prize.outcome, points: prize.points, ...(play.delivery ?? {}) } : {}),
      }),
      prize_id: prize === null ? null : wireInt(prize.id),
      status: play.status,
      status_message: STATUS_MESSAGES[play.status],
      template: { String: game.game.template ?? '', Valid: game.game.template !== null },
      won_prize: won ? { name: prize.name, points: prize.points ?? 0, type: prize.outcome } : null,
    },
    line: -1,
    order_apply: 0,
    rule_id: wireInt(game.id),
    rule_name: campaignTexts(game, options.language, options.settings).name,
    rule_unique_id: play.id,
    select_customers: game.rule_params.select_customers,
    type: 'gaming',
  };
}

const STATUS_MESSAGES: Record<GamePlayRecord['status'], string> = {
  won: 'prize won',
  no_prize: 'no prize',
  stock_exhausted: 'the prize drawn is out of stock',
};
