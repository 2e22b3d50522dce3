/**
 * Idempotency-Key (common rule 6) on POST, PATCH and PUT. The first request
 * with a key runs and its answer (errors included, except 5xx, which a retry
 * should be able to fix) is stored durably; a later request with the same key
 * and the same operation, path parameters, query and body (compared as parsed
 * JSON: formatting and key order do not count) gets the stored answer byte for
 * byte; with anything different it is refused (409 idempotency_key_reused).
 * Concurrent requests with one key wait for the first: the work runs once.
 * Keys expire after 24 hours. Every write transaction of the work records a
 * claim on the key in that transaction (`idempotencyWitness`), so a request
 * that committed never runs again, even if the process died before its answer
 * was stored: a replay then answers 409 `conflict`.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import { TallyError } from '@tally/engine';
import type { IdempotencyStore, StoredAnswer, StoredClaim } from '../store/idempotency.js';
import type { StoreEnv } from '../store/env.js';
import { tenantPrefix } from '../store/keys.js';
import type { Tenant } from '../tenancy/types.js';
import { invalidRequest } from './errors.js';
import { stringifyJson } from './json.js';
import { atMostCharacters } from './params.js';
import type { Reply } from './types.js';

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;
export const REPLAY_HEADER = 'Idempotent-Replayed';

/** The claim of the request whose work is running, in its async context (requests interleave). */
const claiming = new AsyncLocalStorage<() => void>();

/** A witness for `openStore`: a transaction started by a request sent with a key writes the key's claim in it. */
export function idempotencyWitness(): ((env: StoreEnv) => void) | undefined {
  return claiming.getStore();
}

export interface IdempotentRequest {
  tenant: Tenant;
  key: string;
  operation: string;
  /** The path parameters, serialized: a legacy alias and its current path are the same request. */
  params: string;
  query: string;
  /** The body's parameters (`canonicalBody`/`canonicalJson` in json.ts). */
  body: string;
}

export class Idempotency {
  private readonly inFlight = new Map<string, Promise<unknown>>();

  constructor(
    private readonly store: IdempotencyStore,
    private readonly clock: () => number = Date.now,
  ) {}

  static applies(method: string): boolean {
    return method === 'POST' || method === 'PATCH' || method === 'PUT';
  }

  async run(req: IdempotentRequest, work: () => Promise<Reply>): Promise<Reply> {
    // An empty key would be one key for every request sent with it: the second, whatever it is, would be refused 409.
    if (req.key === '') throw invalidRequest('Idempotency-Key', 'must not be empty');
    if (req.key.length > MAX_IDEMPOTENCY_KEY_LENGTH) {
      throw invalidRequest('Idempotency-Key', atMostCharacters(MAX_IDEMPOTENCY_KEY_LENGTH));
    }
    const scope = `${tenantPrefix(req.tenant)}\u0000${req.key}`;
    const fingerprint = createHash('sha256')
      .update([req.operation, req.params, req.query, req.body].join('\u0000'))
      .digest('hex');
    for (;;) {
      const running = this.inFlight.get(scope);
      if (running) {
        await running.catch(() => undefined);
        continue;
      }
      const stored = this.store.get(req.tenant, req.key);
      if (stored && stored.created_at > this.clock() - IDEMPOTENCY_TTL_MS) return replay(stored, fingerprint);
      const execution = this.execute(req, fingerprint, work);
      this.inFlight.set(scope, execution);
      try {
        return await execution;
      } finally {
        this.inFlight.delete(scope);
      }
    }
  }

  /** Drops expired answers; called periodically by the server. */
  sweep(): Promise<number> {
    return this.store.removeExpired(this.clock() - IDEMPOTENCY_TTL_MS);
  }

  private async execute(req: IdempotentRequest, fingerprint: string, work: () => Promise<Reply>): Promise<Reply> {
    const claim = () => this.store.claim(req.tenant, req.key, { fingerprint, created_at: this.clock() }, this.clock() - IDEMPOTENCY_TTL_MS);
    const reply = await claiming.run(claim, work);
    const status = reply.status ?? 200;
    const raw = reply.raw ?? stringifyJson(reply.body);
    if (status < 500) {
      await this.store.put(req.tenant, req.key, {
        fingerprint,
        status,
        headers: { ...reply.headers },
        body: raw,
        created_at: this.clock(),
      });
    }
    return { ...reply, raw };
  }
}

function replay(stored: StoredAnswer | StoredClaim, fingerprint: string): Reply {
  if (stored.fingerprint !== fingerprint) {
    throw new TallyError(
      'idempotency_key_reused',
      'Idempotency-Key: was already used with a different request; use a new key for a new request',
      'Idempotency-Key',
    );
  }
  if (!('status' in stored)) {
    throw new TallyError(
      'conflict',
      'Idempotency-Key: the request with this key was carried out, but the server stopped before its answer was stored; it is not run again: read its result',
      'Idempotency-Key',
    );
  }
  return { status: stored.status, headers: { ...stored.headers, [REPLAY_HEADER]: 'true' }, body: undefined, raw: stored.body };
}
