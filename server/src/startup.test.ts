/**
 * Start-up as an operator meets it: settings refused with a message naming
 * them, and a port another process already listens on refused rather than
 * shared (docs/http.md, Running it).
 */
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './testing/server.js';

/** A port free now (the kernel's choice, released at once): an operator's fixed PORT, which PORT=0 is not. */
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

describe('start-up', () => {
  let server: TestServer;
  beforeAll(async () => {
    // A fixed port: Linux lets a second SO_REUSEPORT socket join a port named so, not one the kernel chose for PORT=0.
    server = await startServer({ env: { PORT: String(await freePort()), WORKERS: '0', REALTIME_WORKERS: '1' } });
  });
  afterAll(() => server.dispose());

  it('refuses a port another server listens on, instead of sharing it (half the requests would reach each store)', async () => {
    await expect(startServer({ env: { PORT: String(server.port), WORKERS: '0', REALTIME_WORKERS: '1' } })).rejects.toThrow(
      `PORT ${server.port} on 127.0.0.1 cannot be listened on: another process listens on it, or the address is not one of this machine's`,
    );
    // The first server still answers every request.
    for (let i = 0; i < 20; i++) expect((await server.client.get('/company')).status).toBe(200);
  });

  it('stops before listening on a setting it cannot use, with the setting named on stderr', async () => {
    await expect(startServer({ env: { LOG_LEVEL: 'verbose' } })).rejects.toThrow('LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got verbose');
    await expect(startServer({ env: { TALLY_RATE_LIMITS: 'false' } })).rejects.toThrow('TALLY_RATE_LIMITS must be one of on, off, got false');
  });
});
