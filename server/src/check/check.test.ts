import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../testing/server.js';

describe('GET /check', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.dispose());

  it('answers 200 without credentials', async () => {
    const res = await server.client.get('/check', { auth: null });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
  });

  it('validates credentials when they are sent', async () => {
    const good = await server.client.get('/check');
    expect(good.status).toBe(200);
    expect(good.body).toEqual({ status: 'ok', environment: 'sandbox' });

    const bad = await server.client.get('/check', { auth: { key: 'test-key', secret: 'wrong' } });
    expect(bad.status).toBe(403);
    expect(bad.body).toEqual({ message: 'Forbidden' });
  });

  it('logs one listening line naming the backend, the port and plain HTTP', () => {
    const listening = server.lines.filter((line) => line.includes('"listening"')).map((line) => JSON.parse(line));
    expect(listening).toHaveLength(1);
    expect(listening[0]).toMatchObject({ port: server.port, backend: 'native', tls: false });
  });
});
