import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger, type Logger } from '../log.js';
import { startServer, type TestServer } from '../testing/server.js';
import { openStore } from './env.js';
import { keepFileHeadroom } from './file-headroom.js';

const MB = 2 ** 20;

describe('the store file headroom (store/file-headroom.ts)', () => {
  const dirs: string[] = [];
  const servers: TestServer[] = [];
  afterEach(async () => {
    for (const server of servers.splice(0)) await server.dispose();
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('keeps the file past LMDB\'s last page and never cuts a page LMDB wrote, also when LMDB outruns it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tally-headroom-'));
    dirs.push(dir);
    let env = openStore(dir);
    const stop = keepFileHeadroom(env, 2 * MB, createLogger('silent'));
    const records = env.db('records');
    const sizes: number[] = [];
    // 1 MB records, three a transaction: LMDB appends faster than a check every 100 ms grows the file.
    for (let i = 0; i < 40; i++) {
      await env.transact(() => {
        for (let k = 0; k < 3; k++) records.putSync(i * 3 + k, Buffer.alloc(MB, i * 3 + k));
      });
      sizes.push(statSync(env.file).size);
      if (i % 10 === 0) await new Promise((resolve) => setTimeout(resolve, 150));
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    const used = env.usedBytes();
    const size = statSync(env.file).size;
    sizes.push(size);
    expect(sizes).toEqual([...sizes].sort((a, b) => a - b));
    expect(size).toBeGreaterThanOrEqual(used + MB);
    await stop();
    await env.close();
    env = openStore(dir);
    const reopened = env.db('records');
    for (let n = 0; n < 120; n++) {
      const value = reopened.get(n) as Buffer;
      expect(value.length).toBe(MB);
      expect(value.every((byte) => byte === n % 256)).toBe(true);
    }
    expect(statSync(env.file).size).toBe(size);
    await env.close();
  });

  it('logs one line and keeps no headroom when the file cannot be grown, the store going on', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tally-headroom-'));
    dirs.push(dir);
    const env = openStore(dir);
    const logged: string[] = [];
    const log = { error: (_: unknown, message: string) => logged.push(message) } as unknown as Logger;
    const stop = keepFileHeadroom({ ...env, transact: () => Promise.reject(new Error('refused')) }, 2 * MB, log);
    await new Promise((resolve) => setTimeout(resolve, 450));
    // Once, not every 100 ms. (In-process, vitest loads the sources, where the reader thread's built file is absent:
    // its failure is logged too. The started servers below run it.)
    expect(logged.filter((message) => message.startsWith('store file headroom not grown'))).toEqual(['store file headroom not grown: no longer kept until the next start']);
    expect(statSync(env.file).size).toBeLessThan(MB);
    await env.transact(() => env.db('records').putSync(1, 'kept'));
    expect(env.db('records').get(1)).toBe('kept');
    await stop();
    await env.close();
  });

  it('is a hole of the file that a started server keeps ahead of its writes, taking no disk space, and a restart serves the store', async () => {
    const server = await startServer({ env: { STORE_FILE_HEADROOM_MB: '8' } });
    servers.push(server);
    const file = join(server.dataDir, 'data.mdb');
    await expect.poll(() => statSync(file).size).toBeGreaterThanOrEqual(8 * MB);
    expect(statSync(file).blocks * 512).toBeLessThan(4 * MB);
    expect(server.lines.filter((line) => line.includes('store file headroom'))).toEqual([]);
    const created = await server.client.post('/customers', '{"id":9223372036854775807,"name":"Headroom","registration_location_id":1}');
    expect(created.status).toBe(200);
    await server.restart();
    const read = await server.client.get('/customers/9223372036854775807', { query: { search_param: 'id' } });
    expect(read.status).toBe(200);
    expect(read.text).toContain('"id":9223372036854775807');
  });

  it('is not kept with STORE_FILE_HEADROOM_MB=0: the file is LMDB\'s own', async () => {
    const server = await startServer({ env: { STORE_FILE_HEADROOM_MB: '0' } });
    servers.push(server);
    const created = await server.client.post('/customers', { id: 1, name: 'No headroom', registration_location_id: 1 });
    expect(created.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(statSync(join(server.dataDir, 'data.mdb')).size).toBeLessThan(4 * MB);
  });
});
