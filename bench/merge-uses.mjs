#!/usr/bin/env node
/**
 * What a customer merge's `once` uses cost under LMDB's write lock (`npm run build` first):
 * `node bench/merge-uses.mjs`. For each size (BENCH_GROUPS, default 1000,10000,100000) a new store in a temp dir
 * holds that many (campaign, period key) groups of uses counters: 100 campaigns, one period key a day
 * (`once: num_day`), BENCH_CUSTOMERS_A_GROUP customers each (default 3, of 1,000), written through the counter
 * store; the old customer holds a use in 5 of them. Times `usesOf` (7 runs) and `moveOnceUses` inside a
 * transaction (5 runs, there and back), and reports the medians.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../server/dist/store/env.js';
import { LmdbCounterStore } from '../server/dist/counters/store.js';
import { moveOnceUses } from '../server/dist/merges/once-uses.js';

const tenant = { companyId: '1', environment: 'production' };
const CAMPAIGNS = 100;
const sizes = (process.env.BENCH_GROUPS ?? '1000,10000,100000').split(',').map(Number);
const perGroup = Number(process.env.BENCH_CUSTOMERS_A_GROUP ?? 3);
const OLD = '5000';
const NEW = '6000';
const day = (i) => new Date(Date.UTC(2024, 0, 1) + i * 86_400_000).toISOString().slice(0, 10);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (since) => Number(process.hrtime.bigint() - since) / 1e6;

for (const groups of sizes) {
  const dir = mkdtempSync(join(tmpdir(), 'merge-uses-'));
  const env = openStore(dir);
  try {
    const counters = new LmdbCounterStore(env);
    const held = new Set([0, Math.floor(groups / 4), Math.floor(groups / 2), groups - 7, groups - 1]);
    const BATCH = 5000;
    for (let first = 0; first < groups; first += BATCH) {
      await env.transact(() => {
        for (let g = first; g < Math.min(groups, first + BATCH); g++) {
          const campaign = String(1000 + (g % CAMPAIGNS));
          const period = day(Math.floor(g / CAMPAIGNS));
          for (let c = 0; c < perGroup; c++) counters.addUsesInTransaction(tenant, campaign, period, String(1 + ((g * 7 + c * 331) % 1000)), 1);
          if (held.has(g)) counters.addUsesInTransaction(tenant, campaign, period, OLD, 1);
        }
      });
    }
    env.freshReads();
    const reads = [];
    let found = 0;
    for (let run = 0; run < 7; run++) {
      const start = process.hrtime.bigint();
      found = counters.usesOf(tenant, OLD).length;
      reads.push(ms(start));
    }
    const moves = [];
    for (let run = 0; run < 5; run++) {
      const [from, to] = run % 2 === 0 ? [OLD, NEW] : [NEW, OLD];
      await env.transact(() => {
        const start = process.hrtime.bigint();
        moveOnceUses(counters, tenant, from, to);
        moves.push(ms(start));
      });
    }
    console.log(`${groups} groups (${perGroup} customers each): usesOf ${median(reads).toFixed(2)} ms (found ${found}), moveOnceUses in the transaction ${median(moves).toFixed(2)} ms`);
  } finally {
    await env.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
