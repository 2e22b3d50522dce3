/**
 * Duplicate suppression (common rule 8): an identical create, update or
 * delete of the same target within 5 minutes is not executed again and is
 * answered as the first was. A route opts in by naming its target (the record
 * it changes, e.g. `customer:42`):
 *
 *   return ctx.duplicates.suppress(req, `customer:${id}`, () => work());
 *
 * The target names the record, never the path as sent: the canonical id
 * (requireInt64), or for a record named by a code or another search_param
 * the id the lookup found (`lookupTarget`), so `007` and `7`, or a customer's
 * code and its id, are one target and a change through either counts. A
 * create whose id the server allocates learns its record from its answer
 * (`createTarget`), so a delete of it ends the window. A record that belongs
 * to others (a customer's card, event, association) names them as its owners
 * (`ownedTarget`): a delete of an owner (`deleted`), which removed it with
 * them, ends its window too.
 *
 * Only the last successful change of each target is remembered, so A, B, A
 * runs all three. Creating an existing id or deleting a missing one is still
 * the route's real-time error once the window has passed or the content differs.
 * Kept in memory: a restart forgets the window (docs/http.md).
 */
import { auditTarget } from '../audit/context.js';
import { tenantPrefix } from '../store/keys.js';
import type { Tenant } from '../tenancy/types.js';
import { canonicalBody, stringifyJson } from './json.js';
import { canonicalQuery } from './params.js';
import type { Reply, TallyRequest } from './types.js';

export const DUPLICATE_WINDOW_MS = 5 * 60 * 1000;

const scopeOf = (tenant: Tenant, target: string) => `${tenantPrefix(tenant)}\u0000${target}`;

interface LastChange {
  fingerprint: string;
  reply: Reply;
  at: number;
  /** When the change started (the suppressor's sequence): an owner deleted after that ends it. */
  seq: number;
  /** The owners' scopes. */
  owners: readonly string[];
}

/**
 * A record's target (`customer:42`), or for a record named by a lookup the
 * record found (undefined when none) and the lookup itself (`customer:code:c1`).
 */
export type SuppressionTarget =
  | string
  | { record: string | undefined; lookup: string; created?: (reply: Reply) => string }
  | { record: string; owners: readonly string[] };

/**
 * The target of a record that belongs to other records (`customer:42`) and goes when any of them is deleted (a
 * customer's card, event, game delivery, association): the owner's delete (`deleted`) ends the record's window,
 * so an identical create after the owner is deleted (and made again) runs rather than answering what is gone.
 * An owner undefined (a lookup that found no customer) is left out.
 */
export function ownedTarget(record: string, ...owners: (string | undefined)[]): SuppressionTarget {
  return { record, owners: owners.filter((owner) => owner !== undefined) };
}

/**
 * The target of a create whose record is known once it is made (an id the server allocates): `request` names
 * what is created (`create:<campaign>`, `code:<code>`), the record is the answer's `id`, or `existing` when the
 * request already names one (a code taken). A later change of that record (a delete) ends the window, so
 * create, delete, create runs all three.
 */
export function createTarget(kind: string, request: string, existing?: string): SuppressionTarget {
  return {
    record: existing === undefined ? undefined : `${kind}:${existing}`,
    lookup: `${kind}:${request}`,
    created: (reply) => `${kind}:${(reply.body as { id: unknown }).id}`,
  };
}

/** The target of a `kind` record named by `value` read as `by` (id: the canonical id), `id` what the lookup found. */
export function lookupTarget(kind: string, by: string, value: string, id: string | undefined): SuppressionTarget {
  const record = id === undefined ? undefined : `${kind}:${id}`;
  return by === 'id' && record !== undefined ? record : { record, lookup: `${kind}:${by}:${value}` };
}

export class DuplicateSuppressor {
  private readonly last = new Map<string, LastChange>();
  /** The change running, under its record's scope and its lookup's both. */
  private readonly inFlight = new Map<string, Promise<unknown>>();
  /** Per lookup, the record's change made through it (see found()). */
  private readonly lookups = new Map<string, { scope: string; change: LastChange }>();
  /** Per owner's scope, its last delete (`deleted`). */
  private readonly ends = new Map<string, { seq: number; at: number }>();
  /** Orders change starts and owner deletes. */
  private seq = 0;

  constructor(private readonly clock: () => number = Date.now) {}

  async suppress(req: TallyRequest, target: SuppressionTarget, work: () => Promise<Reply>): Promise<Reply> {
    const record = typeof target === 'string' ? target : target.record;
    const lookup = typeof target === 'string' || !('lookup' in target) ? undefined : scopeOf(req.tenant, target.lookup);
    const created = typeof target === 'string' || !('created' in target) ? undefined : target.created;
    const owners = typeof target === 'string' || !('owners' in target) ? [] : target.owners.map((owner) => scopeOf(req.tenant, owner));
    // The raw body parsed again (routes may have rewritten req.body in place): formatting and key order do not count.
    // The owners too: one card attached through another customer's path is another request.
    const fingerprint = [req.operation, canonicalQuery(req.query), canonicalBody(req.rawBody), ...owners].join('\u0000');
    // The record changed is the audit log's target too (a create's route names the id it allocates).
    auditTarget(req, record);
    const scope = record === undefined ? undefined : scopeOf(req.tenant, record);
    // Waits while its record or its lookup has a change running: a change's commit is seen before it is remembered,
    // so a copy looking up in between finds another record (the one a create by code made) or none (the code a
    // delete or PATCH released) than the first did, and only the lookup tells it the first is running.
    const scopes = [scope, lookup].filter((s) => s !== undefined);
    for (;;) {
      const running = scopes.map((s) => this.inFlight.get(s)).find((p) => p !== undefined);
      if (!running) break;
      await running.catch(() => undefined);
    }
    if (scope === undefined && created === undefined) return this.found(lookup!, fingerprint) ?? work();
    const replay = scope === undefined ? this.found(lookup!, fingerprint) : this.replay(scope, fingerprint);
    if (replay) return replay;
    // Taken before the work: an owner deleted while it runs (its commit before the owner's) ends the change.
    const seq = ++this.seq;
    const execution = work();
    for (const s of scopes) this.inFlight.set(s, execution);
    try {
      const reply = await execution;
      // A change whose owner was deleted while it ran is not remembered: it is gone already.
      if ((reply.status ?? 200) === 200 && !this.ownerDeletedSince(owners, seq)) {
        const change = { fingerprint, reply: { ...reply, raw: reply.raw ?? stringifyJson(reply.body) }, at: this.clock(), seq, owners };
        const changed = scope ?? scopeOf(req.tenant, created!(reply));
        this.last.set(changed, change);
        if (lookup !== undefined) this.lookups.set(lookup, { scope: changed, change });
      }
      return reply;
    } finally {
      for (const s of scopes) this.inFlight.delete(s);
    }
  }

  /**
   * `record` (`customer:42`) was deleted, with the records it owns: their remembered changes (ownedTarget) no
   * longer repeat. Called by the delete's work once committed.
   */
  deleted(req: TallyRequest, record: string): void {
    this.ends.set(scopeOf(req.tenant, record), { seq: ++this.seq, at: this.clock() });
  }

  /**
   * `record` (`customer:42`) was changed by the server itself, after the answer of its last change: an
   * asynchronous transfer-new given up, which makes the old customer active again. That change no longer
   * describes the record (A, B, A), so an identical request runs again rather than answering success for a
   * merge that will never happen.
   */
  changed(tenant: Tenant, record: string): void {
    this.last.delete(scopeOf(tenant, record));
  }

  /** The answer of the record's last change when this request repeats it within the window. */
  private replay(scope: string, fingerprint: string): Reply | undefined {
    const previous = this.last.get(scope);
    return previous && this.repeats(previous, fingerprint) ? previous.reply : undefined;
  }

  /**
   * A lookup that finds no record: the answer of an identical change made
   * through it that is still its record's last (a repeated delete by code,
   * whose first removed the code), else undefined and the route runs (its 404).
   */
  private found(lookup: string, fingerprint: string): Reply | undefined {
    const via = this.lookups.get(lookup);
    return via && this.last.get(via.scope) === via.change && this.repeats(via.change, fingerprint) ? via.change.reply : undefined;
  }

  private repeats(change: LastChange, fingerprint: string): boolean {
    return change.fingerprint === fingerprint && change.at > this.clock() - DUPLICATE_WINDOW_MS
      && !this.ownerDeletedSince(change.owners, change.seq);
  }

  private ownerDeletedSince(owners: readonly string[], seq: number): boolean {
    return owners.some((owner) => (this.ends.get(owner)?.seq ?? 0) > seq);
  }

  /** Forgets changes older than the window; called periodically by the server. */
  sweep(): void {
    const before = this.clock() - DUPLICATE_WINDOW_MS;
    for (const [scope, change] of this.last) if (change.at <= before) this.last.delete(scope);
    for (const [lookup, via] of this.lookups) if (via.change.at <= before) this.lookups.delete(lookup);
    // A delete older than the window can only end changes older still (one still running at the delete was not
    // remembered; one started after it is not ended by it).
    for (const [owner, end] of this.ends) if (end.at <= before) this.ends.delete(owner);
  }
}
