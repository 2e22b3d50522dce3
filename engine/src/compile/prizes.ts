/** Instant-win prizes: weights (fractions of 1) compiled to slices of the draw scale. */
import { Decimal } from 'decimal.js';
import { invalidRequest, mustBe, mustBeIn } from '../errors.js';
import { idString } from '../ids.js';
import { toDecimal } from '../money.js';
import { DRAW_SCALE } from '../random.js';
import type { Prize } from '../types.js';
import type { CompiledPrize } from './program.js';

export function compilePrizes(raw: unknown): CompiledPrize[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) throw invalidRequest('prizes', mustBe('array'));
  let cumulative = new Decimal(0);
  return (raw as Prize[]).map((prize, i) => {
    const field = `prizes[${i}]`;
    if (prize === null || typeof prize !== 'object') throw invalidRequest(field, mustBe('object'));
    if (typeof prize.name !== 'string' || prize.name === '') throw invalidRequest(`${field}.name`, 'is required');
    const weight = toDecimal(prize.weight, `${field}.weight`);
    if (weight.lt(0) || weight.gt(1)) throw invalidRequest(`${field}.weight`, mustBeIn('number', { minimum: 0, maximum: 1 }));
    cumulative = cumulative.plus(weight);
    if (cumulative.gt(1)) throw invalidRequest('prizes', 'the weights of all prizes must sum to at most 1');
    if (!Number.isSafeInteger(prize.stock) || prize.stock < -1) {
      throw invalidRequest(`${field}.stock`, `${mustBeIn('integer', { minimum: -1 })} (-1 for unlimited)`);
    }
    const outcome = prize.outcome;
    const promotionId = outcome?.promotion_id;
    const wins = outcome === undefined || outcome === null || (typeof outcome.promotion_type === 'string' && outcome.promotion_type !== '');
    return {
      id: idString(prize.id, `${field}.id`),
      rawId: prize.id,
      name: prize.name,
      description: typeof prize.description === 'string' ? prize.description : null,
      ruleId: promotionId === undefined || promotionId === null ? null : promotionId,
      outcomeKey: wins && outcome?.promotion_type !== undefined && promotionId !== undefined && promotionId !== null ? `${outcome.promotion_type}:${promotionId}` : null,
      wins,
      upTo: cumulative.times(DRAW_SCALE).floor().toNumber(),
      stock: prize.stock,
    };
  });
}
