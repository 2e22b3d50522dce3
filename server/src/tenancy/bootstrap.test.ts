import { describe, expect, it } from 'vitest';
import { runCli } from '../testing/cli.js';
import { startServer, TEST_KEY } from '../testing/server.js';

describe('start-up bootstrap', () => {
  it('with TALLY_BOOTSTRAP_KEY/SECRET keeps one sandbox Company "default" with that key enabled, idempotently', async () => {
    const server = await startServer();
    try {
      await runCli(server.dataDir, 'key', 'disable', TEST_KEY);
      await server.restart();
      await server.restart();
      expect((await server.client.get('/company')).body).toMatchObject({ id: 'default', environment: 'sandbox' });
      const companies = await runCli(server.dataDir, 'company', 'list');
      expect(companies.output).toHaveLength(1);
      const keys = await runCli(server.dataDir, 'key', 'list');
      expect(keys.output).toHaveLength(1);
      expect(keys.output[0]).toMatchObject({ key: TEST_KEY, enabled: true, system: true });
    } finally {
      await server.dispose();
    }
  });

  it('without them, on an empty store, creates a random key, prints it once, and it works', async () => {
    const server = await startServer({ noBootstrap: true });
    try {
      const printed = server.lines.map((line) => JSON.parse(line)).filter((entry) => entry.secret !== undefined);
      expect(printed).toHaveLength(1);
      const { key, secret } = printed[0];
      expect(key).not.toBe(TEST_KEY);
      expect(secret.length).toBeGreaterThanOrEqual(40);
      expect((await server.clientFor({ key, secret }).get('/company')).status).toBe(200);

      await server.restart();
      expect(server.lines.some((line) => line.includes('"secret"'))).toBe(false);
      expect((await server.clientFor({ key, secret }).get('/company')).status).toBe(200);
    } finally {
      await server.dispose();
    }
  });
});
