/**
 * The thread that reads the store file's headroom into the page cache
 * (file-headroom.ts): each 4 KB page alone, from the end backwards, so the
 * kernel sees no sequence and reads ahead nothing, giving each page a folio
 * of its own. Reading a hole costs no disk I/O; reading a page LMDB has
 * written meanwhile changes nothing.
 */
import { openSync, readSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import type { HeadroomRange } from './file-headroom.js';

const PAGE = 4096;
const fd = openSync((workerData as { file: string }).file, 'r');
const page = Buffer.alloc(PAGE);

parentPort!.on('message', ({ from, to }: HeadroomRange) => {
  const first = Math.floor(from / PAGE) * PAGE;
  for (let offset = Math.ceil(to / PAGE) * PAGE - PAGE; offset >= first; offset -= PAGE) readSync(fd, page, 0, PAGE, offset);
});
