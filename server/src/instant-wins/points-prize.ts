/**
 * The points a points prize credits: those of the points campaign it names,
 * which must give a fixed number of points (one `direct_value` effect). A
 * prize is won outside any cart line, so a ratio per currency unit has nothing
 * to apply to. At most MAX_POINTS, as any award: a campaign stored before that
 * bound may give more (docs/decisions.md).
 */
import { MAX_POINTS } from '@tally/engine';
import type { CampaignRecord } from '../campaigns/types.js';

export function fixedPoints(campaign: CampaignRecord | undefined): number | null {
  if (campaign?.type !== 'points') return null;
  const effects = campaign.rule_params.rule_effects;
  if (!Array.isArray(effects) || effects.length !== 1) return null;
  const effect = effects[0] as { type?: unknown; value?: unknown };
  return effect.type === 'direct_value' && Number.isSafeInteger(effect.value) && (effect.value as number) > 0 ? Math.min(effect.value as number, MAX_POINTS) : null;
}
