/**
 * The store holds customers' personal data, password hashes, webhook secrets and balances: what Tally creates on
 * disk (DATA_DIR, its LMDB files, a backup) is readable by its owner only, whatever the umask (a shared host's other
 * users must not copy the store).
 */
import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer } from '../points/testing.js';
import { runCli } from '../testing/cli.js';
import { startServer } from '../testing/server.js';

/** The permission bits of a path (`0o600`), as `ls -l` reads them. */
const mode = (path: string) => statSync(path).mode & 0o777;

describe('file modes of the store and its backups', () => {
  let scratch: string;
  beforeAll(() => {
    scratch = mkdtempSync(join(tmpdir(), 'tally-modes-'));
  });
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('a server started on a DATA_DIR that does not exist makes it 0700 and its LMDB files 0600', async () => {
    const parent = join(scratch, 'srv');
    const dataDir = join(parent, 'tally');
    const server = await startServer({ dataDir });
    try {
      await createCustomer(server.client, 7, { email: 'ann@example.com' });
      expect(mode(parent)).toBe(0o700);
      expect(mode(dataDir)).toBe(0o700);
      expect(mode(join(dataDir, 'data.mdb'))).toBe(0o600);
      expect(mode(join(dataDir, 'lock.mdb'))).toBe(0o600);

      // A backup into a new directory, and into an empty one the operator made readable by others.
      const fresh = join(scratch, 'backups', 'fresh');
      expect((await runCli(dataDir, 'backup', fresh)).code).toBe(0);
      expect(mode(join(scratch, 'backups'))).toBe(0o700);
      expect(mode(fresh)).toBe(0o700);
      expect(mode(join(fresh, 'data.mdb'))).toBe(0o600);
      const existing = join(scratch, 'existing');
      mkdirSync(existing, { mode: 0o755 });
      expect((await runCli(dataDir, 'backup', existing, '--compact')).code).toBe(0);
      expect(mode(join(existing, 'data.mdb'))).toBe(0o600);
    } finally {
      await server.dispose();
    }
  });

  it('tally company create makes a new store 0600 in a 0700 directory, a single-file one too', async () => {
    const dataDir = join(scratch, 'cli', 'data');
    expect((await runCli(dataDir, 'company', 'create', 'acme')).code).toBe(0);
    expect(mode(join(scratch, 'cli'))).toBe(0o700);
    expect(mode(dataDir)).toBe(0o700);
    expect(mode(join(dataDir, 'data.mdb'))).toBe(0o600);
    expect(mode(join(dataDir, 'lock.mdb'))).toBe(0o600);
    const file = join(scratch, 'single', 'tally.db');
    expect((await runCli(file, 'company', 'create', 'acme')).code).toBe(0);
    expect(mode(join(scratch, 'single'))).toBe(0o700);
    expect(mode(file)).toBe(0o600);
    expect(mode(`${file}-lock`)).toBe(0o600);
  });
});
