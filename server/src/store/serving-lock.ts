/**
 * One server per store. LMDB lets several processes write one store safely, and the CLI does while the server
 * runs, but a server keeps what it serves in memory (customer answers, compiled programs, rate limits, the
 * duplicate-request window): a second server on the same DATA_DIR would answer from a memory the first one's
 * writes never reach. So a server holds a Unix socket beside the store while it runs, and a second one finds it
 * answering and stops (docs/operations.md, One server per store).
 *
 * A socket rather than a lock file: the kernel releases it with the process, so a server killed with -9 leaves
 * only a file nobody answers on, which the next start removes; no process id to compare (a container's server is
 * process 1 every time).
 */
import { createHash } from 'node:crypto';
import { unlinkSync } from 'node:fs';
import { connect, createServer, type Server } from 'node:net';
import { platform } from 'node:os';
import { join, resolve } from 'node:path';
import { isSingleFileStore } from './env.js';

/** A Unix socket path's longest length on Linux and macOS (`sun_path` less its terminating zero, macOS's 104). */
const SOCKET_PATH_BYTES = 103;

/** The socket a server serving `dataDir` holds: beside the store, as LMDB's lock file is. */
export function servingSocketPath(dataDir: string): string {
  const path = isSingleFileStore(dataDir) ? `${resolve(dataDir)}-server.sock` : join(resolve(dataDir), 'server.sock');
  if (Buffer.byteLength(path) <= SOCKET_PATH_BYTES) return path;
  // Too long for a socket file: Linux's abstract namespace, named by the path (no file; released with the process).
  if (platform() === 'linux') return `\0tally-server-${createHash('sha256').update(path).digest('hex')}`;
  throw new Error(`DATA_DIR ${dataDir} is too long a path to hold its server socket (${path}): at most ${SOCKET_PATH_BYTES} bytes`);
}

/** Holds the store's serving socket, or throws (the start's refusal) when another server holds it; `close` lets it go. */
export async function holdServingLock(dataDir: string): Promise<{ close(): Promise<void> }> {
  const path = servingSocketPath(dataDir);
  // An abstract socket's name starts with a zero byte, written `@` as ss and netstat write it.
  const shown = path.startsWith('\0') ? `@${path.slice(1)}` : path;
  let server: Server;
  try {
    server = await listen(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw new Error(`DATA_DIR ${dataDir} cannot hold its server socket ${shown}: ${(err as Error).message}`);
    if (await answers(path)) throw new Error(`DATA_DIR ${dataDir} is served by another Tally server (its socket ${shown} answers): one server per store`);
    // Left by a server that did not stop (kill -9, a crash): nobody answers on it.
    unlinkSync(path);
    server = await listen(path);
  }
  server.unref();
  return { close: () => new Promise((done) => server.close(() => done())) };
}

function listen(path: string): Promise<Server> {
  return new Promise((resolve, reject) => {
    // It answers nothing: a connection only tells the one who made it that this store is served.
    const server = createServer((socket) => socket.destroy());
    server.once('error', reject);
    server.listen(path, () => {
      server.off('error', reject);
      resolve(server);
    });
  });
}

function answers(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(path, () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
