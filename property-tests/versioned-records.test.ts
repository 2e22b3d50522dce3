/**
 * Records kept in memory until their version token moves (server/src/store/versioned.ts: the
 * challenges and tier programs every realtime cart reads) always read as the store holds them,
 * whatever sequence of changes, reads inside a change, and changes that abort. A change that
 * aborts after a read inside it, followed by another change before any read, is the case a
 * counter would get wrong: the aborted version number comes back with the next change, and the
 * list cached inside the aborted one with it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type StoreEnv } from '../server/src/store/env.js';
import { tenantPrefix } from '../server/src/store/keys.js';
import { VersionedRecords } from '../server/src/store/versioned.js';

const tenant = { companyId: 'acme', environment: 'sandbox' } as const;
const prefix = tenantPrefix(tenant);
const fresh = (env: StoreEnv) => [...env.db('things').getRange({ start: [prefix], end: [prefix, '\uffff'] })].map(({ value }) => value);

type Step =
  | { kind: 'change'; id: number; value: number; remove: boolean; readInside: boolean; abort: boolean; readAfter: boolean }
  | { kind: 'read' };

const arbStep: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    kind: fc.constant('change' as const),
    id: fc.integer({ min: 1, max: 4 }),
    value: fc.integer({ min: 0, max: 9 }),
    remove: fc.boolean(),
    readInside: fc.boolean(),
    abort: fc.boolean(),
    readAfter: fc.boolean(),
  }),
  fc.constant({ kind: 'read' as const }),
);

describe('records kept in memory by version token', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tally-versioned-'));
  let env: StoreEnv;
  beforeAll(() => {
    env = openStore(dir);
    env.db('things');
  });
  afterAll(async () => {
    await env.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('read as the store holds them, after changes committed or aborted, inside a change and outside', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(arbStep, { minLength: 1, maxLength: 12 }), async (steps) => {
        // One cache per run: each run starts from what the store holds.
        const things = new VersionedRecords('things', fresh);
        for (const step of steps) {
          if (step.kind === 'change') {
            await env
              .transact(() => {
                const key = [prefix, String(step.id)];
                if (step.remove) env.db('things').removeSync(key);
                else env.db('things').putSync(key, { id: step.id, value: step.value });
                things.changedInTransaction(env, tenant);
                if (step.readInside) expect(things.get(env, tenant)).toEqual(fresh(env));
                if (step.abort) throw new Error('abort');
              })
              .catch((error: Error) => {
                if (error.message !== 'abort') throw error;
              });
          }
          if (step.kind === 'change' && !step.readAfter) continue;
          env.freshReads();
          expect(things.get(env, tenant)).toEqual(fresh(env));
        }
        env.freshReads();
        expect(things.get(env, tenant)).toEqual(fresh(env));
      }),
      { numRuns: 150, seed: 20261125 },
    );
  });
});
