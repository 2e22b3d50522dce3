/**
 * The claim an Idempotency-Key takes in its request's own write transaction (docs/http.md): a request that
 * committed is never run again, also when the process died between its commit and its stored answer.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TallyError } from '@tally/engine';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '../store/env.js';
import { LmdbIdempotencyStore, type IdempotencyStore } from '../store/idempotency.js';
import type { Tenant } from '../tenancy/types.js';
import { Idempotency, idempotencyWitness } from './idempotency.js';
import type { Reply } from './types.js';

const tenant: Tenant = { companyId: 'acme', environment: 'sandbox' };
const dir = mkdtempSync(join(tmpdir(), 'tally-claim-'));
const env = openStore(dir, { witness: idempotencyWitness });
const answers = new LmdbIdempotencyStore(env);
const movements = env.db('movements');
const request = (key: string, body = '{"amount":7}') => ({ tenant, key, operation: 'points.redeem', params: '{}', query: '', body });

/** A redeem: one movement a run, committed in one transaction. */
let runs = 0;
const redeem = async (): Promise<Reply> => {
  const run = await env.transact(() => {
    runs += 1;
    movements.putSync(runs, 7);
    return runs;
  });
  return { body: { run } };
};

afterAll(async () => {
  await env.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('an Idempotency-Key is claimed in the request\'s transaction', () => {
  it('a request that committed but whose answer was never stored (the process died) is not run again', async () => {
    // The first process: its answer's write never completes.
    const dying: IdempotencyStore = { ...bind(answers), put: () => new Promise(() => {}) };
    void new Idempotency(dying).run(request('crash'), redeem);
    // Wait for its commit, not for its work to start: the claim is read from what was committed.
    while (answers.get(tenant, 'crash') === undefined) await new Promise((resolve) => setTimeout(resolve, 5));
    // After the restart.
    const restarted = new Idempotency(answers);
    const replay = restarted.run(request('crash'), redeem);
    await expect(replay).rejects.toThrow(TallyError);
    await expect(replay).rejects.toMatchObject({ code: 'conflict', field: 'Idempotency-Key' });
    expect(runs).toBe(1);
    // Another request with the key is still the other error.
    await expect(restarted.run(request('crash', '{"amount":8}'), redeem)).rejects.toMatchObject({ code: 'idempotency_key_reused' });
    expect(runs).toBe(1);
  });

  it('a request refused before it wrote anything runs again', async () => {
    const before = runs;
    const refused = async (): Promise<Reply> => {
      const error = await env.transact(() => new TallyError('customer_not_found', 'customer_id: customer 9 not found', 'customer_id'));
      return { status: 404, body: { error: error.message, code: error.code } };
    };
    const dying: IdempotencyStore = { ...bind(answers), put: () => Promise.reject(new Error('the process died')) };
    await expect(new Idempotency(dying).run(request('refused'), refused)).rejects.toThrow('the process died');
    expect((await new Idempotency(answers).run(request('refused'), redeem)).raw).toBe(`{"run":${before + 1}}`);
  });

  it('a later transaction started by the request does not replace its stored answer', async () => {
    let later: Promise<unknown> | undefined;
    const idempotency = new Idempotency(answers);
    const first = await idempotency.run(request('later'), async () => {
      const reply = await redeem();
      // Work the request left behind (a merge's completion) runs in its async context.
      setTimeout(() => (later = env.transact(() => movements.putSync('later', 1))), 20);
      return reply;
    });
    while (!later) await new Promise((resolve) => setTimeout(resolve, 5));
    await later;
    const replay = await new Idempotency(answers).run(request('later'), redeem);
    expect(replay.raw).toBe(first.raw);
    expect(replay.headers?.['Idempotent-Replayed']).toBe('true');
  });
});

function bind(store: LmdbIdempotencyStore): IdempotencyStore {
  return {
    get: (t, key) => store.get(t, key),
    claim: (t, key, claim, liveSince) => store.claim(t, key, claim, liveSince),
    put: (t, key, answer) => store.put(t, key, answer),
    removeExpired: (before) => store.removeExpired(before),
  };
}
