/**
 * The game store: games (versioned, see versioned-store.ts) plus, in
 * `game_plays`: [tenant, 'assignment', idKey(id)] -> GameAssignment,
 * [tenant, 'customer', idKey(customer), idKey(game), idKey(id)] -> null (a
 * customer's deliveries) and [tenant, 'play', idKey(id)] -> GamePlayRecord.
 * Writes run inside the caller's `env.transact`.
 */
import type { StoreEnv } from '../store/env.js';
import { idFromKey, idKey, tenantPrefix } from '../store/keys.js';
import type { Tenant } from '../tenancy/types.js';
import type { GameAssignment, GamePlayRecord, GameRecord } from './types.js';
import { VersionedStore } from './versioned-store.js';

const END = Buffer.from([0xff]);

export class GameStore extends VersionedStore<GameRecord> {
  constructor(env: StoreEnv) {
    super(env, 'games');
  }

  private get plays() {
    return this.env.db('game_plays');
  }

  assignment(tenant: Tenant, id: string): GameAssignment | undefined {
    return this.plays.get([tenantPrefix(tenant), 'assignment', idKey(id)]) as GameAssignment | undefined;
  }

  /** The customer's unplayed assignments of a game, oldest first. */
  openAssignments(tenant: Tenant, customerId: string, gameId: string): GameAssignment[] {
    const prefix = [tenantPrefix(tenant), 'customer', idKey(customerId), idKey(gameId)];
    const found: GameAssignment[] = [];
    for (const key of this.plays.getKeys({ start: prefix, end: [...prefix, END] })) {
      const assignment = this.assignment(tenant, idFromKey(String((key as string[])[4])));
      if (assignment && assignment.played_at === null) found.push(assignment);
    }
    return found;
  }

  /** Inside `env.transact`. */
  putAssignmentInTransaction(tenant: Tenant, assignment: GameAssignment): void {
    const prefix = tenantPrefix(tenant);
    this.plays.putSync([prefix, 'assignment', idKey(assignment.id)], assignment);
    this.plays.putSync([prefix, 'customer', idKey(assignment.customer_id), idKey(assignment.game_id), idKey(assignment.id)], null);
  }

  /** Inside `env.transact`. */
  putPlayInTransaction(tenant: Tenant, play: GamePlayRecord): void {
    this.plays.putSync([tenantPrefix(tenant), 'play', idKey(play.id)], play);
  }
}
