/**
 * Legacy promotions. Key (docs/company-data.md): `promotions` [tenant, id].
 * Read by carts: `promotionById` (the promotions a cart reports).
 */
import { TallyError } from '@tally/engine';
import { invalidRequest } from '../http/errors.js';
import type { StoreEnv } from '../store/env.js';
import { idKey, tenantPrefix } from '../store/keys.js';
import { updateUnlessUnchanged } from '../store/unchanged.js';
import type { Tenant } from '../tenancy/types.js';
import type { PromotionPatch, PromotionRecord } from './types.js';

/** available_from after available_to would be a promotion valid at no instant. */
function assertPeriod(record: PromotionRecord): void {
  const { available_from: from, available_to: to } = record;
  if (from !== null && to !== null && from > to) throw invalidRequest('available_to', `must not be before available_from (${from})`);
}

export class PromotionStore {
  constructor(private readonly env: StoreEnv) {}

  private get promotions() {
    return this.env.db('promotions');
  }
  private key(tenant: Tenant, id: string) {
    return [tenantPrefix(tenant), idKey(id)];
  }

  promotionById(tenant: Tenant, id: string): PromotionRecord | undefined {
    return this.promotions.get(this.key(tenant, id)) as PromotionRecord | undefined;
  }

  create(tenant: Tenant, record: PromotionRecord): Promise<void> {
    assertPeriod(record);
    return this.env.transact(() => {
      if (this.promotionById(tenant, record.id)) throw new TallyError('duplicate_id', `id: promotion ${record.id} already exists`, 'id');
      this.promotions.putSync(this.key(tenant, record.id), record);
    });
  }

  /** A patch of the values held writes nothing (updated_at kept, no audit entry). */
  update(tenant: Tenant, id: string, patch: PromotionPatch, now: string): Promise<void> {
    const updated = (current: PromotionRecord): PromotionRecord => ({ ...current, ...patch, updated_at: now });
    return updateUnlessUnchanged(this.env, () => this.getOrThrow(tenant, id), updated, (_, next) => {
      assertPeriod(next);
      this.promotions.putSync(this.key(tenant, id), next);
    });
  }

  delete(tenant: Tenant, id: string): Promise<void> {
    return this.env.transact(() => {
      this.getOrThrow(tenant, id);
      this.promotions.removeSync(this.key(tenant, id));
    });
  }

  private getOrThrow(tenant: Tenant, id: string): PromotionRecord {
    const promotion = this.promotionById(tenant, id);
    if (!promotion) throw new TallyError('promotion_not_found', `id: promotion ${id} does not exist`, 'id');
    return promotion;
  }
}
