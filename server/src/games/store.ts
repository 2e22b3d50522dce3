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
    return this.assignmentsUnder(tenant, [idKey(customerId), idKey(gameId)]).filter((a) => a.played_at === null);
  }

  /** Every assignment of the customer (played or not), by game then id. */
  assignmentsOf(tenant: Tenant, customerId: string): GameAssignment[] {
    return this.assignmentsUnder(tenant, [idKey(customerId)]);
  }

  private assignmentsUnder(tenant: Tenant, path: string[]): GameAssignment[] {
    const prefix = [tenantPrefix(tenant), 'customer', ...path];
    const found: GameAssignment[] = [];
    for (const key of this.plays.getKeys({ start: prefix, end: [...prefix, END] })) {
      const assignment = this.assignment(tenant, idFromKey(String((key as string[])[4])));
      if (assignment) found.push(assignment);
    }
    return found;
  }

  /** Inside `env.transact`: stores the assignment, indexed under its customer (moved from `previous`'s customer). */
  putAssignmentInTransaction(tenant: Tenant, assignment: GameAssignment, previous?: GameAssignment): void {
    const prefix = tenantPrefix(tenant);
    if (previous && previous.customer_id !== assignment.customer_id) this.plays.removeSync(this.customerKey(prefix, previous));
    this.plays.putSync([prefix, 'assignment', idKey(assignment.id)], assignment);
    this.plays.putSync(this.customerKey(prefix, assignment), null);
  }

  /** Inside `env.transact`. */
  removeAssignmentInTransaction(tenant: Tenant, assignment: GameAssignment): void {
    const prefix = tenantPrefix(tenant);
    this.plays.removeSync(this.customerKey(prefix, assignment));
    this.plays.removeSync([prefix, 'assignment', idKey(assignment.id)]);
  }

  private customerKey(prefix: string, assignment: GameAssignment): string[] {
    return [prefix, 'customer', idKey(assignment.customer_id), idKey(assignment.game_id), idKey(assignment.id)];
  }

  /** Inside `env.transact`. */
  putPlayInTransaction(tenant: Tenant, play: GamePlayRecord): void {
    this.plays.putSync([tenantPrefix(tenant), 'play', idKey(play.id)], play);
  }
}
