/**
 * Hostile headers and methods, for every path of the routing table (legacy
 * aliases too), over HTTP against one real server: whatever the method (the
 * operation's, another of the table's, HEAD, OPTIONS), credentials (long,
 * empty, another version), Idempotency-Key (empty, over its limit, non-ASCII),
 * Accept-Language and Content-Type, the answer comes within a few seconds and
 * is never a 5xx; a 403 is `{"message":"Forbidden"}`, any other refusal the
 * contract's `{error, code}` at its code's status, a HEAD's answer has no
 * content, and a refused request leaves every LMDB database as it was.
 * Bodies, path values and query values are bad-input.test.ts's.
 */
import fc from 'fast-check';
import { open, type RootDatabase } from 'lmdb';
import { storeSnapshots, type Snapshot } from './store-snapshot.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_STATUS, statusOf, type ErrorCode } from '../engine/src/index.js';
import { OPERATIONS } from '../server/src/http/operations.js';
import { startServer, TEST_KEY, TEST_SECRET, type TestServer } from '../server/src/testing/server.js';

const SEED = Number(process.env.FUZZ_SEED ?? 20261127);
const RUNS = Number(process.env.FUZZ_RUNS ?? 300);
const ANSWER_WITHIN_MS = 5000;

/** Every path of the table with its parameters filled with seeded records' ids, and the methods it takes. */
const PATHS = Object.values(OPERATIONS).flatMap((spec) =>
  [spec.path, ...('aliases' in spec ? spec.aliases : [])].map((path) => ({
    path: path.replace(/\{(\w+)\}/g, (_, name: string) => (name.includes('slug') ? 'family' : '1')),
    method: spec.method as string,
  })),
);

const METHODS = ['GET', 'POST', 'PATCH', 'PUT', 'DELETE', 'HEAD', 'OPTIONS'];

const HEADER_VALUES = {
  'X-Api-Key': [TEST_KEY, TEST_KEY, TEST_KEY, '', 'k'.repeat(3000), 'é'.repeat(2000), 'k'.repeat(20_000), 'nobody'],
  'X-Api-Version': ['1', '1', '1', '', '2', '01', '1.0'],
  'Idempotency-Key': [undefined, undefined, '', 'k'.repeat(255), 'k'.repeat(256), 'k'.repeat(7000), 'clé-ünïcode', '"quoted"', 'a b c'],
  'Accept-Language': [undefined, '', '*', 'es', 'en-GB;q=0.8, es;q=abc', ';;;,,,q=1e400', 'x'.repeat(8000), 'en;q=-1', '\u00e9'],
  'Content-Type': [undefined, 'application/json', 'text/plain', 'application/json; charset=latin1', 'multipart/form-data; boundary=x', '', 'APPLICATION/JSON'],
  Authorization: [undefined, 'Bearer', 'Basic !!!', 'Bearer ' + 'x'.repeat(5000)],
};

const BODIES = [undefined, '', '{}', '[]', 'null', '{"id":1}', '{"a":', '{"customer_id":1,"name":"Ann","registration_location_id":1}'];

describe('hostile headers and methods, for every path', () => {
  let server: TestServer;
  let store: RootDatabase;

  const snapshot = storeSnapshots(() => store);

  /** The databases whose entries differ. One a read opened for the first time (stores open some lazily) is there, empty: no write. */
  const changed = (before: Snapshot, after: Snapshot): string[] =>
    [...new Set([...before.keys(), ...after.keys()])].filter((name) => {
      const [a = new Map<string, string>(), b = new Map<string, string>()] = [before.get(name), after.get(name)];
      return a.size !== b.size || [...a].some(([key, value]) => b.get(key) !== value);
    });

  beforeAll(async () => {
    // No background writes: the points settlement sweep and the webhook dispatcher are off.
    server = await startServer({ env: { POINTS_SETTLEMENT_INTERVAL_MS: '0', WEBHOOK_POLL_INTERVAL_MS: '0' } });
    const ok = async (path: string, body: unknown) => expect((await server.client.post(path, body)).status).toBe(200);
    await ok('/locations', { id: 1, code: 'L1', name: 'Barcelona', country: 'ES' });
    await ok('/customers', { id: 1, code: 'C1', name: 'Ann', registration_location_id: 1 });
    await ok('/taxonomies', { slug: 'family', name: 'Family' });
    store = open({ path: server.dataDir, readOnly: true, maxDbs: 256 });
  });

  afterAll(async () => {
    await store?.close();
    await server?.dispose();
  });

  it('answers every request within seconds, never 5xx, in the contract\'s shape; a refusal writes nothing', async () => {
    const arbRequest = fc.record({
      route: fc.constantFrom(...PATHS),
      // The operation's own method half of the time, so handlers are reached.
      method: fc.option(fc.constantFrom(...METHODS), { freq: 1, nil: undefined }),
      key: fc.constantFrom(...HEADER_VALUES['X-Api-Key']),
      version: fc.constantFrom(...HEADER_VALUES['X-Api-Version']),
      idempotencyKey: fc.constantFrom(...HEADER_VALUES['Idempotency-Key']),
      language: fc.constantFrom(...HEADER_VALUES['Accept-Language']),
      contentType: fc.constantFrom(...HEADER_VALUES['Content-Type']),
      authorization: fc.constantFrom(...HEADER_VALUES.Authorization),
      body: fc.constantFrom(...BODIES),
    });
    let before = snapshot();
    await fc.assert(
      fc.asyncProperty(arbRequest, async (r) => {
        const method = r.method ?? r.route.method;
        const headers: Record<string, string> = { 'X-Api-Key': r.key, 'X-Api-Secret': TEST_SECRET, 'X-Api-Version': r.version };
        const optional = { 'Idempotency-Key': r.idempotencyKey, 'Accept-Language': r.language, 'Content-Type': r.contentType, Authorization: r.authorization };
        for (const [name, value] of Object.entries(optional)) if (value !== undefined) headers[name] = value;
        const body = method === 'GET' || method === 'HEAD' ? undefined : r.body;
        const shown = `${method} ${r.route.path} ${JSON.stringify({ ...headers, 'X-Api-Key': r.key.slice(0, 20) }).slice(0, 400)} ${body ?? ''}`;
        let res: Response;
        let text: string;
        try {
          res = await fetch(`${server.url}${r.route.path}`, { method, headers, body, signal: AbortSignal.timeout(ANSWER_WITHIN_MS) });
          text = await res.text();
        } catch (error) {
          throw new Error(`${shown}: no answer within ${ANSWER_WITHIN_MS} ms (${(error as Error).message})`);
        }
        expect(res.status, `${shown}\n${text}`).toBeLessThan(500);
        if (method === 'HEAD') expect(text, shown).toBe('');
        if (res.status < 300) {
          before = snapshot();
          return;
        }
        if (method !== 'HEAD') {
          const answer = JSON.parse(text) as Record<string, unknown>;
          if (res.status === 403) {
            expect(answer, shown).toEqual({ message: 'Forbidden' });
          } else {
            expect(Object.keys(answer).sort(), `${shown}\n${text}`).toEqual(['code', 'error']);
            const code = answer.code as ErrorCode;
            expect(code in ERROR_STATUS || /^[a-z_]+_not_found$/.test(code), `${shown}: code ${code}`).toBe(true);
            expect(res.status, `${shown}: ${text}`).toBe(statusOf(code));
          }
        }
        // A refusal answered under an Idempotency-Key is stored, to be replayed (common rule 6): that is its one write.
        const wrote = changed(before, snapshot()).filter((name) => !(name === 'idempotency' && r.idempotencyKey !== undefined));
        before = snapshot();
        expect(wrote, `${shown}: answered ${res.status} ${text.slice(0, 300)} yet wrote`).toEqual([]);
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
  });
});
