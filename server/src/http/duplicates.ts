/**
 * Duplicate suppression (common rule 8): an identical create, update or
 * delete of the same target within 5 minutes is not executed again and is
 * answered as the first was. A route opts in by naming its target (the record
 * it changes, e.g. `customer:42`):
 *
 *   return ctx.duplicates.suppress(req, `customer:${id}`, () => work());
 *
 * Only the last successful change of each target is remembered, so A, B, A
 * runs all three. Creating an existing id or deleting a missing one is still
 * the route's real-time error once the window has passed or the content differs.
 * Kept in memory: a restart forgets the window (docs/http.md).
 */
import { tenantPrefix } from '../store/keys.js';
import { canonicalBody, stringifyJson } from './json.js';
import { canonicalQuery } from './params.js';
import type { Reply, TallyRequest } from './types.js';

export const DUPLICATE_WINDOW_MS = 5 * 60 * 1000;

interface LastChange {
  fingerprint: string;
  reply: Reply;
  at: number;
}

export class DuplicateSuppressor {
  private readonly last = new Map<string, LastChange>();
  private readonly inFlight = new Map<string, Promise<unknown>>();

  constructor(private readonly clock: () => number = Date.now) {}

  async suppress(req: TallyRequest, target: string, work: () => Promise<Reply>): Promise<Reply> {
    const scope = `${tenantPrefix(req.tenant)}\u0000${target}`;
    // The raw body parsed again (routes may have rewritten req.body in place): formatting and key order do not count.
    const fingerprint = [req.operation, canonicalQuery(req.query), canonicalBody(req.rawBody)].join('\u0000');
    for (;;) {
      const running = this.inFlight.get(scope);
      if (!running) break;
      await running.catch(() => undefined);
    }
    const previous = this.last.get(scope);
    if (previous && previous.fingerprint === fingerprint && previous.at > this.clock() - DUPLICATE_WINDOW_MS) {
      return previous.reply;
    }
    const execution = work();
    this.inFlight.set(scope, execution);
    try {
      const reply = await execution;
      if ((reply.status ?? 200) === 200) {
        this.last.set(scope, { fingerprint, reply: { ...reply, raw: reply.raw ?? stringifyJson(reply.body) }, at: this.clock() });
      }
      return reply;
    } finally {
      this.inFlight.delete(scope);
    }
  }

  /** Forgets changes older than the window; called periodically by the server. */
  sweep(): void {
    const before = this.clock() - DUPLICATE_WINDOW_MS;
    for (const [scope, change] of this.last) if (change.at <= before) this.last.delete(scope);
  }
}
