/**
 * The seed of a cart's instant-win draws: HMAC-SHA256 of the cart's body
 * under a per-Company-environment secret. The same cart gives the same draw
 * (a replayed request answers the same), and without the secret nobody can
 * predict a draw or search for winning carts.
 */
import { createHmac, randomBytes } from 'node:crypto';
import type { StoreEnv } from '../store/env.js';
import { tenantPrefix } from '../store/keys.js';
import type { Tenant } from '../tenancy/types.js';
import type { CartStore } from './store.js';

export class DrawSeeds {
  private readonly secrets = new Map<string, string>();

  constructor(
    private readonly env: StoreEnv,
    private readonly carts: CartStore,
  ) {}

  async seed(tenant: Tenant, cartBody: string): Promise<string> {
    const secret = this.secrets.get(tenantPrefix(tenant)) ?? (await this.secretOf(tenant));
    return createHmac('sha256', secret).update(cartBody).digest('base64url');
  }

  /**
   * Inside `env.transact`: the seed, the secret read (or created) on the transaction's view. For a cart whose
   * program gained an instant win between its evaluation and its transaction (realtime.ts, programNow).
   */
  seedInTransaction(tenant: Tenant, cartBody: string): string {
    const secret = this.secrets.get(tenantPrefix(tenant)) ?? this.carts.ensureSecretInTransaction(tenant, randomBytes(32).toString('base64url'));
    return createHmac('sha256', secret).update(cartBody).digest('base64url');
  }

  private async secretOf(tenant: Tenant): Promise<string> {
    let secret = this.carts.secret(tenant);
    if (secret === undefined) {
      const candidate = randomBytes(32).toString('base64url');
      // Two threads may race to create it: the transaction keeps the first. The server's own write, made on the way
      // of the request that first needs it (a game play): not that request's change, so not recorded as it.
      secret = await this.env.transact(() => this.carts.ensureSecretInTransaction(tenant, candidate), { housekeeping: true });
    }
    this.secrets.set(tenantPrefix(tenant), secret);
    return secret;
  }
}
