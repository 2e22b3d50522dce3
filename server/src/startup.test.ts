/**
 * Start-up as an operator meets it: settings refused with one line naming
 * them (no stack trace) and exit code 1, and a port another process already
 * listens on refused rather than shared (docs/http.md, Running it).
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { servingSocketPath } from './store/serving-lock.js';
import { startServer, TEST_SECRET, type TestServer } from './testing/server.js';

/** A port free now (the kernel's choice, released at once): an operator's fixed PORT, which PORT=0 is not. */
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** What the harness reports of a start refused as an operator should see it: exit code 1, `line` alone on stderr. */
function refused(line: string): Error {
  return new Error(`server exited (1) before listening: ${line}\n`);
}

/** Resolves true when something accepts connections on the port. */
function listened(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.destroy();
      resolve(true);
    }).on('error', () => resolve(false));
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
      refused(`PORT ${server.port} on 127.0.0.1 cannot be listened on: another process listens on it, or the address is not one of this machine's`),
    );
    // The first server still answers every request.
    for (let i = 0; i < 20; i++) expect((await server.client.get('/company')).status).toBe(200);
  });

  it('stops before listening on a setting it cannot use, with the setting named on stderr', async () => {
    await expect(startServer({ env: { LOG_LEVEL: 'verbose' } })).rejects.toThrow(refused('LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got verbose'));
    await expect(startServer({ env: { TALLY_RATE_LIMITS: 'false' } })).rejects.toThrow(refused('TALLY_RATE_LIMITS must be one of on, off, got false'));
    await expect(startServer({ env: { WORKERS: '-1' } })).rejects.toThrow(refused('WORKERS must be an integer of at least 0, got -1'));
    await expect(startServer({ env: { TALLY_BOOTSTRAP_SECRET: 'short-secret' } })).rejects.toThrow(refused('TALLY_BOOTSTRAP_SECRET must be at least 16 characters, got 12'));
    await expect(startServer({ env: { AUTH_FAILURE_LIMIT: 'ten' } })).rejects.toThrow(refused('AUTH_FAILURE_LIMIT must be an integer of at least 0, got ten'));
    // Refused before the store is opened: nothing is left in DATA_DIR.
    const unopened = join(mkdtempSync(join(tmpdir(), 'tally-test-')), 'store');
    await expect(startServer({ env: { DATA_DIR: unopened, TALLY_BOOTSTRAP_SECRET: '' } })).rejects.toThrow(refused('set both TALLY_BOOTSTRAP_KEY and TALLY_BOOTSTRAP_SECRET, or neither'));
    expect(existsSync(unopened)).toBe(false);
    rmSync(dirname(unopened), { recursive: true });
    const file = join(mkdtempSync(join(tmpdir(), 'tally-test-')), 'not-a-directory');
    writeFileSync(file, '');
    await expect(startServer({ env: { DATA_DIR: file } })).rejects.toThrow(/^server exited \(1\) before listening: DATA_DIR \S+ cannot be opened: [^\n]+\n$/);
    rmSync(dirname(file), { recursive: true });
    // A file named as a one-file store that is not one: lmdb-js's open ended the process with a segmentation fault.
    const notes = join(mkdtempSync(join(tmpdir(), 'tally-test-')), 'notes.txt');
    writeFileSync(notes, 'hello\n');
    await expect(startServer({ env: { DATA_DIR: notes } })).rejects.toThrow(refused(`DATA_DIR ${notes} cannot be opened: ${notes} is not a Tally store (not an LMDB file)`));
    expect(readdirSync(dirname(notes))).toEqual(['notes.txt']);
    rmSync(dirname(notes), { recursive: true });
  });

  // A longer key stopped the start with lmdb-js's stack trace ("Key size is larger than the maximum key size").
  it('refuses a TALLY_BOOTSTRAP_KEY longer than an LMDB key in one line, and starts with one of exactly the limit', async () => {
    await expect(startServer({ env: { TALLY_BOOTSTRAP_KEY: 'k'.repeat(1979) } })).rejects.toThrow(refused('TALLY_BOOTSTRAP_KEY must be at most 1978 bytes (UTF-8), got 1979'));
    const key = 'k'.repeat(1978);
    const own = await startServer({ env: { TALLY_BOOTSTRAP_KEY: key, WORKERS: '0', REALTIME_WORKERS: '1' } });
    try {
      expect((await own.clientFor({ key, secret: TEST_SECRET }).get('/company')).status).toBe(200);
    } finally {
      await own.dispose();
    }
  });

  it('refuses a METRICS_PORT another process listens on, naming it, before the API port listens', async () => {
    const taken: Server = await new Promise((resolve) => {
      const other = createServer().listen(0, '127.0.0.1', () => resolve(other));
    });
    try {
      const metricsPort = (taken.address() as { port: number }).port;
      const port = await freePort();
      await expect(startServer({ env: { PORT: String(port), METRICS_PORT: String(metricsPort), WORKERS: '0', REALTIME_WORKERS: '1' } })).rejects.toThrow(
        refused(`METRICS_PORT ${metricsPort} on 127.0.0.1 cannot be listened on: another process listens on it`),
      );
      expect(await listened(port)).toBe(false);
    } finally {
      await new Promise((closed) => taken.close(closed));
    }
  });
});

describe('one server per store', () => {
  const small = { WORKERS: '0', REALTIME_WORKERS: '1' };

  /** Starts a server on `dataDir`, checks a second one on it is refused while the first answers, and disposes of the first. */
  async function refusesASecondServer(dataDir: string, socket: string): Promise<void> {
    const first = await startServer({ dataDir, env: small });
    try {
      await expect(startServer({ dataDir, env: small })).rejects.toThrow(
        refused(`DATA_DIR ${dataDir} is served by another Tally server (its socket ${socket} answers): one server per store`),
      );
      expect((await first.client.post('/locations', { id: 1, code: 'L1', name: 'Barcelona', country: 'ES' })).status).toBe(200);
      expect((await first.client.get('/company')).status).toBe(200);
    } finally {
      await first.dispose();
    }
  }

  it('refuses a second server on a DATA_DIR a server runs on (it would answer from a memory the first one\'s writes never reach)', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'tally-test-'));
    await refusesASecondServer(dataDir, join(dataDir, 'server.sock'));
  });

  it('refuses it on a one-file DATA_DIR, and on a path too long for a socket file (Linux\'s abstract namespace)', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'tally-test-'));
    try {
      const file = join(parent, 'tally.db');
      await refusesASecondServer(file, `${file}-server.sock`);
      const long = join(parent, 'a'.repeat(60), 'b'.repeat(60));
      expect(servingSocketPath(long)).toMatch(/^\0tally-server-[0-9a-f]{64}$/);
      await refusesASecondServer(long, `@${servingSocketPath(long).slice(1)}`);
    } finally {
      rmSync(parent, { recursive: true, force: true });
    }
  });

  // lmdb-js takes a path named with an extension for a one-file store: this directory stopped the start ("Is a directory").
  it('takes an existing directory named with a dot (mktemp -d\'s tmp.AbC123) for the store\'s directory', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'tally-test-'));
    try {
      const dir = join(parent, 'tally-2.1');
      mkdirSync(dir);
      const server = await startServer({ dataDir: dir, env: small });
      try {
        expect(readdirSync(dir).sort()).toEqual(['data.mdb', 'lock.mdb', 'server.sock']);
        expect((await server.client.post('/locations', { id: 1, code: 'L1', name: 'Barcelona', country: 'ES' })).status).toBe(200);
        await server.restart();
        expect((await server.client.get('/locations/1')).status).toBe(200);
      } finally {
        await server.dispose();
      }
    } finally {
      rmSync(parent, { recursive: true, force: true });
    }
  });

  it('starts again after a kill -9, whose socket file nobody answers on, and lets the socket go when it stops', async () => {
    const server = await startServer({ env: small });
    const socket = join(server.dataDir, 'server.sock');
    try {
      await server.crash();
      expect(existsSync(socket)).toBe(true);
      await server.restart();
      expect((await server.client.get('/company')).status).toBe(200);
      expect(await server.stop()).toBe(0);
      expect(existsSync(socket)).toBe(false);
    } finally {
      await server.dispose();
    }
  });
});
