import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../testing/server.js';

describe('duplicate suppression (PATCH /company as the example update)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.dispose());

  const version = async () => (await server.client.get('/company')).body.version as number;

  it('answers an identical update within 5 minutes as the first, without executing it', async () => {
    const first = await server.client.patch('/company', { cashback_threshold: 10 });
    const second = await server.client.patch('/company', { cashback_threshold: 10 });
    expect(second.status).toBe(200);
    expect(second.text).toBe(first.text);
    expect(await version()).toBe(first.body.version);
  });

  it('compares the parameters, not the bytes: other white space and key order are the same update', async () => {
    const first = await server.client.patch('/company', { cashback_threshold: 11, currency: 'EUR' });
    const second = await server.client.patch('/company', '{ "currency" : "EUR",\n "cashback_threshold" : 11 }');
    expect(second.status).toBe(200);
    expect(second.text).toBe(first.text);
    expect(await version()).toBe(first.body.version);
  });

  it('runs a change again after a different one to the same target (A, B, A)', async () => {
    const a = await server.client.patch('/company', { cashback_threshold: 20 });
    const b = await server.client.patch('/company', { cashback_threshold: 21 });
    const a2 = await server.client.patch('/company', { cashback_threshold: 20 });
    expect(b.body.version).toBe(a.body.version + 1);
    expect(a2.body.version).toBe(b.body.version + 1);
    expect((await server.client.get('/company')).body.cashback_threshold).toBe(20);
  });

  it('does not remember failed changes', async () => {
    await server.client.patch('/company', { cashback_threshold: 30 });
    const bad = await server.client.patch('/company', { default_language: 'fr' });
    expect(bad.status).toBe(400);
    await server.client.patch('/company', { languages: ['en', 'fr'] });
    const retried = await server.client.patch('/company', { default_language: 'fr' });
    expect(retried.status).toBe(200);
  });
});
