/**
 * The game store. Keys (docs/games.md): `games` [tenant, idKey(id)] ->
 * GameRecord; `game_history` [tenant, idKey(history_id)] -> GameRecord;
 * `game_codes` [tenant, static_code] -> game id; `game_assignments`
 * [tenant, idKey(id)] -> GameAssignment and [tenant, 'customer',
 * idKey(customer), idKey(game), idKey(id)] -> null; `game_plays`
 * [tenant, idKey(id)] -> GamePlayRecord. Writes run inside the caller's
 * `env.transact`.
 */
import type { StoreEnv } from '../store/env.js';
import { allocateId } from '../store/ids.js';
import { paginate, type Page, type PageRequest } from '../store/paginate.js';
import { idFromKey, idKey, tenantPrefix } from '../store/keys.js';
import type { Tenant } from '../tenancy/types.js';
import type { GameAssignment, GamePlayRecord, GameRecord } from './types.js';

const END = Buffer.from([0xff]);

export class GameStore {
  constructor(private readonly env: StoreEnv) {}

  private db(name: 'games' | 'game_history' | 'game_codes' | 'game_assignments' | 'game_plays') {
    return this.env.db(name);
  }

  get(tenant: Tenant, id: string): GameRecord | undefined {
    return this.db('games').get([tenantPrefix(tenant), idKey(id)]) as GameRecord | undefined;
  }

  getHistory(tenant: Tenant, historyId: string): GameRecord | undefined {
    return this.db('game_history').get([tenantPrefix(tenant), idKey(historyId)]) as GameRecord | undefined;
  }

  byStaticCode(tenant: Tenant, code: string): GameRecord | undefined {
    const id = this.db('game_codes').get([tenantPrefix(tenant), code]) as string | undefined;
    return id === undefined ? undefined : this.get(tenant, id);
  }

  /** One page of games in id order; `keep` filters (and maps) them. */
  page<T>(tenant: Tenant, request: PageRequest, keep: (game: GameRecord) => T | undefined): Page<T> {
    return paginate<GameRecord, T>(this.db('games'), [tenantPrefix(tenant)], request, (game, key) =>
      key.length === 2 ? keep(game) : undefined,
    );
  }

  /** Inside `env.transact`: stores a new version (new history id) and moves the static code index. */
  putInTransaction(tenant: Tenant, record: Omit<GameRecord, 'history_id'>, previous?: GameRecord): GameRecord {
    const prefix = tenantPrefix(tenant);
    if (previous?.static_code && previous.static_code !== record.static_code) this.db('game_codes').removeSync([prefix, previous.static_code]);
    if (record.static_code) this.db('game_codes').putSync([prefix, record.static_code], record.id);
    // Shares the campaigns' sequence, so a campaign_history_id names one version of one campaign of any kind.
    const stored: GameRecord = { ...record, history_id: allocateId(this.env, tenant, 'campaign_history') };
    this.db('game_history').putSync([prefix, idKey(stored.history_id)], stored);
    this.db('games').putSync([prefix, idKey(stored.id)], stored);
    return stored;
  }

  assignment(tenant: Tenant, id: string): GameAssignment | undefined {
    return this.db('game_assignments').get([tenantPrefix(tenant), idKey(id)]) as GameAssignment | undefined;
  }

  /** The customer's unplayed assignments of a game, oldest first. */
  openAssignments(tenant: Tenant, customerId: string, gameId: string): GameAssignment[] {
    const prefix = [tenantPrefix(tenant), 'customer', idKey(customerId), idKey(gameId)];
    const found: GameAssignment[] = [];
    for (const key of this.db('game_assignments').getKeys({ start: prefix, end: [...prefix, END] })) {
      const assignment = this.assignment(tenant, idFromKey(String((key as string[])[4])));
      if (assignment && assignment.played_at === null) found.push(assignment);
    }
    return found;
  }

  /** Inside `env.transact`. */
  putAssignmentInTransaction(tenant: Tenant, assignment: GameAssignment): void {
    const prefix = tenantPrefix(tenant);
    this.db('game_assignments').putSync([prefix, idKey(assignment.id)], assignment);
    this.db('game_assignments').putSync([prefix, 'customer', idKey(assignment.customer_id), idKey(assignment.game_id), idKey(assignment.id)], null);
  }

  /** Inside `env.transact`. */
  putPlayInTransaction(tenant: Tenant, play: GamePlayRecord): void {
    this.db('game_plays').putSync([tenantPrefix(tenant), idKey(play.id)], play);
  }

  getPlay(tenant: Tenant, id: string): GamePlayRecord | undefined {
    return this.db('game_plays').get([tenantPrefix(tenant), idKey(id)]) as GamePlayRecord | undefined;
  }
}
