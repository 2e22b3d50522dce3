/** `tally backup <dir>`: a consistent copy of the store, taken while the server runs (docs/storage.md). */
import { mkdirSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { invalidRequest } from '../http/errors.js';
import { OWNER_ONLY_DIRECTORY, type StoreEnv } from '../store/env.js';

export interface Backup {
  /** The directory holding the copy's `data.mdb`. */
  path: string;
  bytes: number;
}

export async function backup(env: StoreEnv, dir: string, compact: boolean): Promise<Backup> {
  const path = resolve(dir);
  mkdirSync(path, { recursive: true, mode: OWNER_ONLY_DIRECTORY });
  // A restore takes the whole directory: nothing else may be mistaken for part of the backup (LMDB would refuse an existing data.mdb anyway).
  if (readdirSync(path).length > 0) throw invalidRequest('dir', `${path} is not empty`);
  await env.backup(path, compact);
  return { path, bytes: statSync(join(path, 'data.mdb')).size };
}
