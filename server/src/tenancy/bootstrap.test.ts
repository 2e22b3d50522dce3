import { describe, expect, it } from 'vitest';
import { runCli } from '../testing/cli.js';
import { startServer, TEST_KEY } from '../testing/server.js';

describe('start-up bootstrap', () => {
  it('with TALLY_BOOTSTRAP_KEY/SECRET keeps one sandbox Company "default" with that key enabled, idempotently', async () => {
    const server = await startServer();
    try {
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

  it('leaves a bootstrap key the operator disabled disabled, its secret unchanged, and warns at each start (authentication rule 6)', async () => {
    const server = await startServer();
    const replaced = { key: TEST_KEY, secret: 'a-secret-set-after-the-leak' };
    try {
      await runCli(server.dataDir, 'key', 'disable', TEST_KEY);
      await server.restart({ TALLY_BOOTSTRAP_SECRET: replaced.secret });
      await server.restart();
      expect((await server.client.get('/company')).status).toBe(403);
      expect((await server.clientFor(replaced).get('/company')).status).toBe(403);
      expect((await runCli(server.dataDir, 'key', 'list')).output).toMatchObject([{ key: TEST_KEY, enabled: false }]);
      const warnings = server.lines.map((line) => JSON.parse(line)).filter((entry) => entry.level === 40);
      expect(warnings).toEqual([expect.objectContaining({ key: TEST_KEY, msg: expect.stringContaining('TALLY_BOOTSTRAP_KEY') })]);
      expect(server.lines.join('\n')).not.toContain(replaced.secret);

      // Enabled again by the operator: the secret is the one it had, not the environment's.
      await runCli(server.dataDir, 'key', 'enable', TEST_KEY);
      expect((await server.client.get('/company')).status).toBe(200);
      expect((await server.clientFor(replaced).get('/company')).status).toBe(403);
    } finally {
      await server.dispose();
    }
  });

  it('gives an enabled bootstrap key the secret of TALLY_BOOTSTRAP_SECRET, and says so', async () => {
    const server = await startServer();
    const replaced = { key: TEST_KEY, secret: 'a-rotated-secret' };
    try {
      await server.restart({ TALLY_BOOTSTRAP_SECRET: replaced.secret });
      expect((await server.clientFor(replaced).get('/company')).status).toBe(200);
      expect((await server.client.get('/company')).status).toBe(403);
      const warnings = server.lines.map((line) => JSON.parse(line)).filter((entry) => entry.level === 40);
      expect(warnings).toEqual([expect.objectContaining({ key: TEST_KEY, msg: expect.stringContaining('TALLY_BOOTSTRAP_SECRET') })]);
      expect(server.lines.join('\n')).not.toContain(replaced.secret);
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

  // Only its hash is stored: at a quieter LOG_LEVEL the secret was never shown, and lost for good.
  it('prints the first key and where it listens whatever LOG_LEVEL, silent too; nothing else', async () => {
    const server = await startServer({ noBootstrap: true, env: { LOG_LEVEL: 'silent' } });
    try {
      const printed = server.lines.map((line) => JSON.parse(line));
      expect(printed.map((entry) => entry.msg)).toEqual(['created the first API key; the secret is shown only now', 'listening']);
      const { key, secret } = printed[0];
      expect((await server.clientFor({ key, secret }).get('/company')).status).toBe(200);
      expect(printed[1]).toMatchObject({ backend: expect.stringMatching(/^(native|fallback)$/) });
    } finally {
      await server.dispose();
    }
  });
});
