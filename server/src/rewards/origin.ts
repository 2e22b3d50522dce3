/**
 * The contract's origin_info of a `reward` points transaction: reward {id,
 * name, type}, the name in the Company's default language as every points
 * transaction records it (the redemption, its rollback, an instant win).
 */
import { localize } from '../http/language.js';
import { wireInt } from '../http/wire.js';
import type { CompanySettings } from '../tenancy/types.js';
import type { RewardRecord } from './types.js';

export function rewardOrigin(reward: Pick<RewardRecord, 'id' | 'name' | 'type'>, settings: CompanySettings) {
  return { id: wireInt(reward.id), name: localize(reward.name, undefined, settings), type: reward.type };
}
