import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATIONS } from './operations.js';
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

  describe('routing', () => {
    it('answers 501 not_implemented for every operation of the contract without a handler', async () => {
      const res = await server.client.post('/carts/simulate', {});
      expect(res.status).toBe(501);
      expect(res.body).toEqual({ error: expect.stringContaining('carts.simulate'), code: 'not_implemented' });
    });

    it('routes legacy aliases to their current operation', async () => {
      const aliases: [string, string, string][] = [
        ['POST', '/activities/simulate', 'carts.simulate'],
        ['GET', '/activities/12', 'carts.get'],
        ['GET', '/activities', 'carts.list'],
        ['POST', '/custom_entities', 'custom_events.create'],
        ['POST', '/scores/trigger', 'triggers.trigger'],
        ['GET', '/customers/7/scores_expiring', 'points.expiring'],
        ['POST', '/redemptions/5/rollback', 'rewards.rollback'],
        ['GET', '/customers/7/segments', 'customers.audiences'],
      ];
      for (const [method, path, operation] of aliases) {
        const res = await server.client.request(method, path, { body: method === 'POST' ? {} : undefined });
        expect(res.body?.error, `${method} ${path}`).toContain(operation);
      }
    });

    it('never takes /locations/taxonomies as a location named taxonomies', async () => {
      const get = await server.client.get('/locations/taxonomies');
      expect(get.status).toBe(405);
      expect(get.body.code).toBe('method_not_allowed');
      const post = await server.client.post('/locations/taxonomies', {});
      expect(post.body.error).toContain('location_taxonomies.create');
      const location = await server.client.get('/locations/store-1');
      expect(location.body.error).toContain('locations.get');
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

    it('refuses a body larger than 1 MiB', async () => {
      const big = JSON.stringify({ currency: 'EUR', padding: 'x'.repeat(1024 * 1024) });
      const res = await server.client.patch('/company', big);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'invalid_request', error: expect.stringContaining('body') });
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
  });
});
