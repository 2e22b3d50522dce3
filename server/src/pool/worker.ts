/**
 * The pool's worker entry: opens the same LMDB environment (lmdb-js shares it
 * between threads of a process), keeps one CartService whose program cache
 * lives as long as the thread, and answers each cart of a batch with an Envelope.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { postLeftOut } from '../carts/left-out.js';
import { logCompile, onEachCompile } from '../carts/programs.js';
import { CartService, type CartTask } from '../carts/service.js';
import { compileSchemas } from '../http/validation.js';
import { createLogger } from '../log.js';
import { openStore } from '../store/env.js';
import { envelop, WORKER_LOADED, type Envelope } from './envelope.js';

const log = createLogger();
// The cart's schema only: a worker validates nothing else.
compileSchemas(['carts.cart']);
// The same options as the main thread's: the threads share one LMDB environment.
const { dataDir, trackMetrics } = workerData as { dataDir: string; trackMetrics: boolean };
const env = openStore(dataDir, { trackMetrics });
// The main thread keeps the count of campaigns left out for the metrics (carts/left-out.ts).
const service = new CartService(env, onEachCompile(logCompile(log), postLeftOut((message) => parentPort?.postMessage(message))));

/**
 * A task of pool.ts: a batch of simulated carts, run one after the other, or
 * one realtime or create cart (a writer thread takes several at once, and
 * lmdb-js groups their commits).
 */
export default function run(batch: CartTask[]): Promise<Envelope[]> {
  // Batches arrive while others run: without a fresh snapshot, a cart could miss a write acknowledged before it was sent.
  env.freshReads();
  return Promise.all(batch.map((task) => envelop(() => service.run(task), (err) => log.error({ err }, 'unexpected error in a cart task'))));
}

// Piscina passes messages other than its own on to the pool's 'message' event; last, so the module has loaded.
parentPort?.postMessage(WORKER_LOADED);
