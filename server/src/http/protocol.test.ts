import { connect } from 'node:net';
import { Agent, request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATIONS } from './operations.js';
import { onOneConnection } from '../testing/connection.js';
import { startServer, TEST_KEY, TEST_SECRET, type TestServer } from '../testing/server.js';

describe('the common request rules over HTTP', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.dispose());

  describe('authentication', () => {
    const cases: [string, Record<string, string>][] = [
      ['no headers', {}],
      ['no secret', { 'X-Api-Key': TEST_KEY, 'X-Api-Version': '1' }],
      ['no key', { 'X-Api-Secret': TEST_SECRET, 'X-Api-Version': '1' }],
      ['no version', { 'X-Api-Key': TEST_KEY, 'X-Api-Secret': TEST_SECRET }],
      ['version 2', { 'X-Api-Key': TEST_KEY, 'X-Api-Secret': TEST_SECRET, 'X-Api-Version': '2' }],
      ['wrong secret', { 'X-Api-Key': TEST_KEY, 'X-Api-Secret': 'nope', 'X-Api-Version': '1' }],
      ['unknown key', { 'X-Api-Key': 'nobody', 'X-Api-Secret': TEST_SECRET, 'X-Api-Version': '1' }],
    ];
    for (const [name, headers] of cases) {
      it(`refuses ${name} with 403 {"message":"Forbidden"}`, async () => {
        const res = await server.client.get('/company', { auth: null, headers });
        expect(res.status).toBe(403);
        expect(res.text).toBe('{"message":"Forbidden"}');
      });
    }

    it('refuses unknown paths without credentials as 403, not 404', async () => {
      const res = await server.client.get('/no/such/thing', { auth: null });
      expect(res.status).toBe(403);
    });
  });

  it('every answer (success, error, 403, HEAD) says Cache-Control: no-store and X-Content-Type-Options: nosniff', async () => {
    const answers = await onOneConnection(server.port, [
      { method: 'GET', path: '/company' },
      { method: 'GET', path: '/customers/404?search_param=id' },
      { method: 'GET', path: '/company', auth: false },
      { method: 'HEAD', path: '/company' },
    ]);
    expect(answers.map((res) => res.status)).toEqual([200, 404, 403, 200]);
    for (const { status, headers } of answers) {
      expect(headers['cache-control'], String(status)).toBe('no-store');
      expect(headers['x-content-type-options'], String(status)).toBe('nosniff');
      // Added by uWebSockets.js itself; the server cannot remove it (docs/http.md).
      expect(headers.uwebsockets, String(status)).toBe('20');
    }
  });

  describe('routing', () => {
    /** Every path of the routing table (current and legacy), with its parameters filled. */
    const routes = Object.entries(OPERATIONS).flatMap(([id, spec]) =>
      [spec.path, ...('aliases' in spec ? spec.aliases : [])].map((path) => ({
        id,
        method: spec.method as string,
        path: path.replace(/\{[^}]+\}/g, '1'),
      })),
    );

    it('reaches every operation of the table, and every one is implemented (none answers 501 not_implemented)', async () => {
      const unimplemented: string[] = [];
      for (const { id, method, path } of routes) {
        const res = await server.client.request(method, path, {
          body: method === 'GET' || method === 'DELETE' ? undefined : {},
          headers: { 'Content-Type': 'application/json' },
        });
        const where = `${method} ${path} (${id})`;
        expect(res.body?.code, where).not.toBe('route_not_found');
        expect(res.status, where).not.toBe(405);
        expect(res.status < 500 || res.status === 501, `${where}: ${res.text}`).toBe(true);
        if (res.status === 501) unimplemented.push(where);
      }
      expect(unimplemented).toEqual([]);
    });

    it('answers a legacy alias exactly as its current path', async () => {
      const aliases: [string, string, string][] = [
        ['POST', '/activities/simulate', '/carts/simulate'],
        ['GET', '/activities/12', '/carts/12'],
        ['POST', '/custom_entities', '/custom_events'],
        ['POST', '/scores/trigger', '/trigger'],
        ['GET', '/customers/7/scores_expiring', '/customers/7/points_expiring'],
        ['POST', '/redemptions/5/rollback', '/rewards/transactions/5/rollback'],
        ['GET', '/customers/7/segments', '/customers/7/audiences'],
      ];
      for (const [method, alias, current] of aliases) {
        const body = method === 'POST' ? {} : undefined;
        const viaAlias = await server.client.request(method, alias, { body });
        const viaCurrent = await server.client.request(method, current, { body });
        expect(viaAlias.status, alias).toBe(viaCurrent.status);
        expect(viaAlias.body, alias).toEqual(viaCurrent.body);
        expect(viaAlias.body?.code, alias).not.toBe('route_not_found');
      }
    });

    it('never takes /locations/taxonomies as a location named taxonomies', async () => {
      const get = await server.client.get('/locations/taxonomies');
      expect(get.status).toBe(405);
      expect(get.body.code).toBe('method_not_allowed');
      expect(get.headers.get('allow')).toBe('POST');
      const location = await server.client.get('/locations/store-1');
      expect(location.status).not.toBe(405);
    });

    it('accepts PUT wherever PATCH is', async () => {
      for (const [id, spec] of Object.entries(OPERATIONS)) {
        if (spec.method !== 'PATCH') continue;
        const path = spec.path.replace(/\{[^}]+\}/g, '1');
        const res = await server.client.put(path, {});
        expect(res.body?.error ?? id, `PUT ${path}`).not.toContain('is not accepted');
      }
    });

    it('answers 404 route_not_found for an unknown path', async () => {
      const res = await server.client.get('/no/such/thing');
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('route_not_found');
    });
  });

  describe('bodies', () => {
    it('refuses a body that is not JSON', async () => {
      const res = await server.client.patch('/company', '{"currency": ');
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'invalid_request', error: expect.stringContaining('body') });
    });

    it('refuses a JSON body that is not an object', async () => {
      for (const body of ['[]', '"text"', '12', 'null']) {
        const res = await server.client.patch('/company', body);
        expect(res.status, body).toBe(400);
        expect(res.body.code).toBe('invalid_request');
      }
    });

    it('refuses a body that is not valid UTF-8, and stores nothing', async () => {
      const text = new TextEncoder().encode('{"id": 900, "name": "A?", "registration_location_id": 1}');
      const bytes = new Uint8Array([...text.subarray(0, 22), 0xff, 0xfe, ...text.subarray(23)]);
      const res = await fetch(`${server.url}/customers`, {
        method: 'POST',
        headers: { 'X-Api-Key': TEST_KEY, 'X-Api-Secret': TEST_SECRET, 'X-Api-Version': '1', 'Content-Type': 'application/json' },
        body: bytes,
      });
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ code: 'invalid_request', error: 'body: is not valid UTF-8' });
      expect((await server.client.get('/customers/900', { query: { search_param: 'id' } })).status).toBe(404);
    });

    it('refuses a body larger than 1 MiB', async () => {
      const big = JSON.stringify({ currency: 'EUR', padding: 'x'.repeat(1024 * 1024) });
      const res = await server.client.patch('/company', big);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'invalid_request', error: expect.stringContaining('body') });
    });

    it('refuses a chunked body once it passes 1 MiB', async () => {
      const answer = await new Promise<{ status: number; text: string }>((resolve, reject) => {
        const req = httpRequest(
          {
            host: '127.0.0.1',
            port: server.port,
            method: 'PATCH',
            path: '/company',
            headers: { 'X-Api-Key': TEST_KEY, 'X-Api-Secret': TEST_SECRET, 'X-Api-Version': '1', 'Transfer-Encoding': 'chunked' },
          },
          (res) => {
            let text = '';
            res.on('data', (d: Buffer) => (text += d.toString()));
            res.on('end', () => resolve({ status: res.statusCode!, text }));
          },
        );
        // The server answers and closes while the client still writes: a reset after the answer is expected.
        req.on('error', (err) => setTimeout(() => reject(err), 1000));
        // 14 bytes over the limit, in the last chunk: the server has read everything when it answers and closes, so
        // no unread bytes make the kernel reset the connection before the client reads the answer.
        req.write('{"padding":"');
        for (let i = 0; i < 16; i++) req.write('x'.repeat(64 * 1024));
        req.end('"}');
      });
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.text)).toMatchObject({ code: 'invalid_request', error: expect.stringContaining('body') });
    });

    it('refuses a body nesting deeper than 64 levels (400 naming body), parsed on the main thread or by a cart worker', async () => {
      await server.client.post('/customers', { id: 64, name: 'Deep', registration_location_id: 1 });
      expect((await server.client.post('/custom_event_definitions', { slug: 'deep', name: 'Deep', schema: { type: 'object' } })).status).toBe(200);
      // The body is level 1, data level 2, then arrays.
      const event = (levels: number) => `{"customer_id":64,"slug":"deep","data":{"x":${'['.repeat(levels - 2)}${']'.repeat(levels - 2)}}}`;
      const atLimit = await server.client.post('/custom_events', event(64));
      expect(atLimit.status, atLimit.text).toBe(200);
      for (const levels of [65, 200_000]) {
        const res = await server.client.post('/custom_events', event(levels));
        expect(res.status, `${levels} levels`).toBe(400);
        expect(res.body).toEqual({ code: 'invalid_request', error: 'body: nests deeper than 64 levels of objects and arrays' });
      }
      const cart = await server.client.post('/carts/simulate', `{"total":1,"lines":[{"order":1,"total":1,"quantity":1,"attributes":${'['.repeat(200_000)}${']'.repeat(200_000)}}]}`);
      expect(cart.status).toBe(400);
      expect(cart.body).toEqual({ code: 'invalid_request', error: 'body: nests deeper than 64 levels of objects and arrays' });
    });

    it('keeps the last value of a key repeated in an object, also in a body holding an int64 above 2^53', async () => {
      expect((await server.client.patch('/company', '{"currency":"USD","currency":"GBP"}')).status).toBe(200);
      expect((await server.client.get('/company')).body.currency).toBe('GBP');
      const created = await server.client.post('/customers', '{"id":9223372036854775001,"name":"First","registration_location_id":1,"name":"Last"}');
      expect(created.status, created.text).toBe(200);
      const read = await server.client.get('/customers/9223372036854775001', { query: { search_param: 'id' } });
      expect(read.body.name).toBe('Last');
    });

    it('requires Content-Type application/json where the contract does', async () => {
      const without = await server.client.delete('/customers/1', { query: { hard: 'false' } });
      expect(without.status).toBe(400);
      expect(without.body.error).toContain('Content-Type');
      const withIt = await server.client.delete('/customers/1', {
        query: { hard: 'false' },
        headers: { 'Content-Type': 'application/json' },
      });
      expect(withIt.status).not.toBe(400);
    });
  });

  describe('shutdown', () => {
    // On a loaded machine, before the server logged `listening` only once its signal handlers were installed and
    // waited at exit for its pool's threads to load their module (pool.ts), about one such stop in ten ended by
    // the signal itself (no handler yet) and one in 25 by SIGABRT (an exit half-way through a thread's loading).
    it('exits 0 on SIGTERM sent as soon as it listens', async () => {
      const own = await startServer({ env: { CART_POOL_START: 'eager' } });
      try {
        for (let stop = 0; stop < 3; stop++) {
          expect(await own.stop()).toBe(0);
          await own.restart();
        }
      } finally {
        await own.dispose();
      }
    });

    it('finishes an in-flight request on SIGTERM, then exits 0; data survives the restart', async () => {
      const own = await startServer();
      try {
        const body = JSON.stringify({ currency: 'GBP' });
        const answer = new Promise<{ status: number; text: string }>((resolve, reject) => {
          const req = httpRequest(
            {
              host: '127.0.0.1',
              port: own.port,
              method: 'PATCH',
              path: '/company',
              headers: {
                'X-Api-Key': TEST_KEY,
                'X-Api-Secret': TEST_SECRET,
                'X-Api-Version': '1',
                'Content-Type': 'application/json',
                'Content-Length': Buffer.byteLength(body),
              },
            },
            (res) => {
              let text = '';
              res.on('data', (d: Buffer) => (text += d.toString()));
              res.on('end', () => resolve({ status: res.statusCode!, text }));
            },
          );
          req.on('error', reject);
          req.write(body.slice(0, 5));
          setTimeout(() => req.end(body.slice(5)), 300);
        });
        await new Promise((r) => setTimeout(r, 100));
        const exited = own.stop();
        const res = await answer;
        expect(res.status).toBe(200);
        expect(await exited).toBe(0);
        await own.restart();
        expect((await own.client.get('/company')).body.currency).toBe('GBP');
      } finally {
        await own.dispose();
      }
    });

    it('under a stream on 16 kept-alive connections, SIGTERM stops it: each answer 200 (stored) or 503 closing its connection, then exit 0', async () => {
      const own = await startServer();
      const port = own.port;
      const agent = new Agent({ keepAlive: true, maxSockets: 16 });
      type Answer = { status: number; text: string; connection?: string } | { error: string };
      const create = (id: number) =>
        new Promise<Answer>((resolve) => {
          const body = JSON.stringify({ id, name: `Stream ${id}`, registration_location_id: 1 });
          const req = httpRequest(
            {
              host: '127.0.0.1', port, method: 'POST', path: '/customers', agent,
              headers: { 'X-Api-Key': TEST_KEY, 'X-Api-Secret': TEST_SECRET, 'X-Api-Version': '1', 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) },
            },
            (res) => {
              let text = '';
              res.on('data', (d: Buffer) => (text += d.toString()));
              res.on('end', () => resolve({ status: res.statusCode!, text, connection: res.headers.connection }));
            },
          );
          req.on('error', (err) => resolve({ error: err.message }));
          req.end(body);
        });
      const answers = new Map<number, Answer>();
      let next = 1;
      let refused = false;
      // Sixteen clients, each sending its next create as soon as the last is answered, until the server is gone: one
      // request or another is always in flight.
      const client = async () => {
        while (!refused) {
          const id = next++;
          const answer = await create(id);
          answers.set(id, answer);
          if ('error' in answer) refused = true;
        }
      };
      try {
        const clients = Promise.all(Array.from({ length: 16 }, client));
        while (answers.size < 40) await new Promise((r) => setTimeout(r, 20));
        const exited = own.stop();
        expect(await exited).toBe(0);
        refused = true;
        await clients;
        const statuses = [...answers.values()].map((answer) => ('error' in answer ? 'error' : answer.status));
        expect(statuses.every((status) => status === 200 || status === 503 || status === 'error'), statuses.join()).toBe(true);
        for (const answer of answers.values()) {
          if ('error' in answer || answer.status !== 503) continue;
          expect(JSON.parse(answer.text)).toEqual({ code: 'server_error', error: 'The server is stopping: nothing was done; retry after 1 second' });
          expect(answer.connection).toBe('close');
        }
        await own.restart();
        for (const [id, answer] of answers) {
          const read = await own.client.get(`/customers/${id}`, { query: { search_param: 'id' } });
          // Acknowledged: stored. Refused or unanswered: a 503 did nothing; a lost answer may have been stored or not.
          if (!('error' in answer) && answer.status === 200) expect(read.status, `customer ${id}`).toBe(200);
          if (!('error' in answer) && answer.status === 503) expect(read.status, `customer ${id}`).toBe(404);
        }
      } finally {
        agent.destroy();
        await own.dispose();
      }
    });
  });

  it('reads the method case-sensitively (RFC 9110): a lower-case get is never answered as GET', async () => {
    const socket = connect(server.port, '127.0.0.1');
    // uWebSockets.js's parser refuses the request and closes the connection.
    const answer = await new Promise<string>((resolve, reject) => {
      let text = '';
      socket.on('data', (chunk) => (text += chunk));
      socket.on('close', () => resolve(text));
      socket.on('error', reject);
      socket.write(`get /check HTTP/1.1\r\nHost: localhost\r\nX-Api-Key: ${TEST_KEY}\r\nX-Api-Secret: ${TEST_SECRET}\r\nX-Api-Version: 1\r\n\r\n`);
    });
    expect(answer).not.toMatch(/^HTTP\/1\.1 200 /);
  });
});
