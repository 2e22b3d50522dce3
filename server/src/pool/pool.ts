/**
 * The cart pool: cart tasks run on Piscina worker threads, so the main thread
 * keeps to HTTP, authentication, rate limits and idempotency. WORKERS=0 runs
 * the same service inline on the main thread (the bench's comparison).
 * Tuning was measured (bench/README.md):
 * - simulated carts run on WORKERS threads; the ones that arrive during one
 *   turn of the event loop travel together, a batch per message (the
 *   per-message cost and the thread wake-up are paid once per batch);
 * - realtime and create carts, which write, run on their own REALTIME_WORKERS
 *   threads (default 2): one thread parses, evaluates and commits each cart;
 *   a second one evaluates while the first waits for its commit (a third
 *   only takes more turns on LMDB's one write lock). The writers are filled
 *   in order, REALTIME_WRITER_FILL carts each (`writerFor`);
 * - several tasks are in flight per worker, and the body travels as the JSON
 *   text the worker parses itself;
 * - each pool holds a bounded number of carts (`CART_QUEUE_LIMIT`): past it a
 *   cart is shed at once (`Overloaded`, 503) instead of waiting ever longer.
 */
import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import { isLeftOutMessage, type LeftOutCampaigns } from '../carts/left-out.js';
import { logCompile, onEachCompile } from '../carts/programs.js';
import { CartService, type CartTask } from '../carts/service.js';
import { givenSettings, oneOf, settingOutOfRange } from '../config.js';
import { OVERLOADED } from '../http/errors.js';
import type { Logger } from '../log.js';
import type { StoreEnv } from '../store/env.js';
import { envelop, rebuildError, unwrap, WORKER_LOADED, type Envelope } from './envelope.js';

const YOUNG_GENERATION_MB = 96;

/**
 * The carts a pool holds before it sheds, by default: about 250 ms of work at what this 2-core machine drains
 * (bench/README.md: some 17,000 to 20,000 simulated carts a second, 4,000 to 4,500 realtime). Longer, a till
 * times out and sends again while its first cart still waits; shorter, a burst the pool drains in time is refused.
 */
const DEFAULT_QUEUE_LIMITS: QueueLimits = { simulate: 4000, realtime: 1000 };

/** Carts a pool holds (waiting or being evaluated) before it sheds the next; Infinity: unbounded. */
export interface QueueLimits {
  simulate: number;
  /** The writer threads together. */
  realtime: number;
}

export interface PoolOptions {
  /** Worker threads; 0 = evaluate inline on the main thread. */
  workers: number;
  /** Piscina tasks a worker takes at once: batches of simulated carts, or realtime and create carts. */
  tasksPerWorker: number;
  /** Most simulated carts in one batch. */
  batchSize: number;
  /** Worker threads for realtime and create carts (the carts that write). */
  writers: number;
  /** Carts in flight a writer takes before the next writer gets any (`writerFor`). */
  writerFill: number;
  /** `CART_QUEUE_LIMIT` for both pools (0: unbounded), else the defaults. */
  queueLimits: QueueLimits;
  /** `CART_POOL_START`: the threads start with the server (`eager`), or with its first cart (`lazy`). */
  start: 'eager' | 'lazy';
}

export function readPoolOptions(given: NodeJS.ProcessEnv = process.env): PoolOptions {
  const env = givenSettings(given);
  const integer = (name: string, fallback: number, minimum: number): number => {
    const value = Number(env[name] ?? fallback);
    if (!Number.isInteger(value) || value < minimum) throw settingOutOfRange(name, 'integer', { minimum }, env[name]);
    return value;
  };
  const workers = integer('WORKERS', availableParallelism(), 0);
  const tasksPerWorker = integer('CART_TASKS_PER_WORKER', 32, 1);
  const batchSize = integer('CART_BATCH_SIZE', 16, 1);
  const writers = integer('REALTIME_WORKERS', 2, 1);
  const writerFill = integer('REALTIME_WRITER_FILL', 16, 1);
  const queueLimit = env.CART_QUEUE_LIMIT === undefined ? undefined : integer('CART_QUEUE_LIMIT', 0, 0);
  // Infinity for 0: the check per cart stays one comparison.
  const bound = queueLimit === 0 ? Infinity : queueLimit;
  const queueLimits = bound === undefined ? DEFAULT_QUEUE_LIMITS : { simulate: bound, realtime: bound };
  const start = oneOf(env.CART_POOL_START ?? 'eager', 'CART_POOL_START', ['eager', 'lazy'] as const);
  return { workers, tasksPerWorker, batchSize, writers, writerFill, queueLimits, start };
}

/**
 * The worker threads of the pools created so far, each until it has loaded its module. A process that
 * exits while a thread is still loading it can abort (SIGABRT: Node 20 loads the module with require(esm),
 * and V8 fails fatally when the thread is stopped half-way through; seen on SIGTERM right after start).
 */
const loading: Promise<void>[] = [];

/** Resolves once every worker thread started so far has loaded its module (the server waits for it before it exits). */
export async function threadsLoaded(): Promise<void> {
  await Promise.all(loading);
}

export interface CartPool {
  /** The response's JSON text; throws the task's TallyError, or `OVERLOADED` when the cart's pool is full. */
  run(task: CartTask): Promise<string>;
  /** Piscina's counters, for the metrics (none when carts run inline). */
  counters(): PoolCounters[];
}

/** Piscina's own counters of the simulate pool, or of the realtime writers together. */
export interface PoolCounters {
  pool: 'simulate' | 'realtime';
  /** Tasks waiting for a thread. */
  queueSize: number;
  /** 0 to 1 (a mean over the writers, one thread each). */
  utilization: number;
  /** Tasks completed (a batch of simulated carts is one task). */
  completed: number;
}

/** `leftOut` is told of each program compiled, by the inline service or by a worker's message (carts/left-out.ts). */
export function createCartPool(options: PoolOptions, dataDir: string, env: StoreEnv, log: Logger, leftOut: LeftOutCampaigns): CartPool {
  // Inline, a cart is evaluated as its request is read: there is no queue to bound.
  if (options.workers === 0) {
    const service = new CartService(env, onEachCompile(logCompile(log), leftOut.compiled));
    return {
      run: (task) => envelop(() => service.run(task), (err) => log.error({ err }, 'unexpected error in a cart task')).then(unwrap),
      counters: () => [],
    };
  }
  const threads = (pool: PoolCounters['pool'], count: number) => () => {
    log.info({ pool, threads: count }, 'cart threads starting');
    const piscina = new Piscina<CartTask[], Envelope[]>({
      filename: new URL('./worker.js', import.meta.url).href,
      minThreads: count,
      maxThreads: count,
      concurrentTasksPerWorker: options.tasksPerWorker,
      // Tasks await LMDB commits, so a worker must never block in Atomics.wait between tasks;
      // plain messages measured as fast as 'async' atomics, with a lower p99 (bench/README.md).
      atomics: 'disabled',
      idleTimeout: Infinity,
      // A cart allocates ~100 KB of short-lived objects: a young generation of 96 MB (semi-spaces of 32 MB)
      // lets nearly all of it die before a scavenge; measured 10 to 20% less CPU per cart than V8's default.
      resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
      workerData: { dataDir, trackMetrics: env.tracksMetrics },
    });
    piscina.on('message', (message) => {
      if (isLeftOutMessage(message)) leftOut.told(message);
    });
    let pending = count;
    loading.push(
      new Promise((loaded) =>
        piscina.on('message', (message) => {
          if (message === WORKER_LOADED && --pending === 0) loaded();
        }),
      ),
    );
    return piscina;
  };
  // The threads live as long as the process: the server's stop answers in-flight requests, then exits.
  // One pool per writer, so that the main thread chooses each cart's writer (`writerFor`).
  const eager = options.start === 'eager';
  const writers = Array.from({ length: options.writers }, () => new Threads(threads('realtime', 1), eager));
  return new CartThreads(new Threads(threads('simulate', options.workers), eager), writers, options, env, log);
}

/**
 * A Piscina pool made at once (`CART_POOL_START=eager`) or when a cart first needs it (`lazy`: each thread costs
 * about 0.4 s of CPU to load its modules, which a server that never sees a cart, or only one kind, never pays).
 */
class Threads {
  private pool: Piscina<CartTask[], Envelope[]> | undefined;

  constructor(private readonly make: () => Piscina<CartTask[], Envelope[]>, eager: boolean) {
    if (eager) this.pool = make();
  }

  get(): Piscina<CartTask[], Envelope[]> {
    return (this.pool ??= this.make());
  }

  /** Piscina's counters; zeros before the pool is made (a metrics scrape does not make it). */
  counters(): Omit<PoolCounters, 'pool'> {
    const pool = this.pool;
    return pool ? { queueSize: pool.queueSize, utilization: pool.utilization, completed: pool.completed } : { queueSize: 0, utilization: 0, completed: 0 };
  }
}

interface Waiting {
  task: CartTask;
  resolve: (raw: string) => void;
  reject: (err: unknown) => void;
}

/**
 * The writer a new cart goes to, given each writer's carts in flight: the first holding fewer than `fill`;
 * when every one holds that many, the one holding fewest (the first of those). Filled in order, one writer
 * takes every cart at a till's pace and commits them in bigger groups, so a cart costs fewer pages and less
 * CPU than spread over both; under load the next writer evaluates while the first waits for its commit.
 * Measured against Piscina's spreading: paced at about 3,100 carts a second, CPU a cart 0.88× and p99 0.77
 * to 0.89×; at saturation the same rate with p99 0.90× (bench/README.md, thirteenth session).
 */
export function writerFor(inFlight: readonly number[], fill: number): number {
  let least = 0;
  for (let i = 0; i < inFlight.length; i++) {
    if (inFlight[i] < fill) return i;
    if (inFlight[i] < inFlight[least]) least = i;
  }
  return least;
}

/**
 * Sends each cart to its pool. Simulated carts of one turn of the event loop
 * (the requests uWebSockets.js read in one poll) go as few batches as
 * `batchSize` allows (`evenBatchSize`); Piscina gives each to the least busy
 * worker, so the workers take the turns' batches in alternation. Realtime and
 * create carts go one by one to the writer threads, filled in order
 * (`writerFor`).
 *
 * A pool holding its limit of carts sheds the next one before it is sent:
 * counted in carts, not Piscina tasks (a task is a batch of simulated carts,
 * and Piscina's `maxQueue` counts only the tasks beyond the
 * `concurrentTasksPerWorker` each worker already holds, per writer pool).
 */
class CartThreads implements CartPool {
  private waiting: Waiting[] = [];
  /** Simulated carts sent to the workers and not yet answered. */
  private evaluating = 0;
  /** Carts sent to each writer and not yet answered. */
  private readonly inFlight: number[];
  /** Their sum. */
  private writing = 0;
  /** Carts shed since the last report (`reportShed`). */
  private shed = { simulate: 0, realtime: 0 };

  constructor(
    private readonly evaluators: Threads,
    private readonly writers: Threads[],
    private readonly options: PoolOptions,
    private readonly env: StoreEnv,
    private readonly log: Logger,
  ) {
    this.inFlight = writers.map(() => 0);
  }

  run(task: CartTask): Promise<string> {
    const limits = this.options.queueLimits;
    if (task.operation !== 'simulate') {
      if (this.writing >= limits.realtime) return this.shedOne('realtime');
      // A batch answers when its last cart is done: carts that wait for their own commit travel alone
      // (batched, they measured slower: bench/README.md).
      return new Promise((resolve, reject) => this.send([{ task, resolve, reject }], true));
    }
    if (this.waiting.length + this.evaluating >= limits.simulate) return this.shedOne('simulate');
    return new Promise((resolve, reject) => {
      if (this.waiting.length === 0) setImmediate(this.flush);
      this.waiting.push({ task, resolve, reject });
    });
  }

  counters(): PoolCounters[] {
    let queueSize = 0;
    let utilization = 0;
    let completed = 0;
    for (const writer of this.writers) {
      const counters = writer.counters();
      queueSize += counters.queueSize;
      utilization += counters.utilization;
      completed += counters.completed;
    }
    return [
      { pool: 'simulate', ...this.evaluators.counters() },
      { pool: 'realtime', queueSize, utilization: utilization / this.writers.length, completed },
    ];
  }

  /** One shared error: shedding stays cheap when the server is busiest. Logged once a second at most, with the counts. */
  private shedOne(pool: 'simulate' | 'realtime'): Promise<never> {
    if (this.shed.simulate + this.shed.realtime === 0) setTimeout(this.reportShed, 1000).unref();
    this.shed[pool] += 1;
    return Promise.reject(OVERLOADED);
  }

  private readonly reportShed = (): void => {
    this.log.warn({ shed: this.shed, limits: this.options.queueLimits }, 'cart pool full: carts shed (503) in the last second');
    this.shed = { simulate: 0, realtime: 0 };
  };

  private readonly flush = (): void => {
    const waiting = this.waiting;
    this.waiting = [];
    const size = evenBatchSize(waiting.length, this.options.batchSize);
    for (let start = 0; start < waiting.length; start += size) this.send(waiting.slice(start, start + size), false);
  };

  private send(batch: Waiting[], writes: boolean): void {
    const writer = writes ? writerFor(this.inFlight, this.options.writerFill) : undefined;
    this.hold(writer, batch.length);
    (writer !== undefined ? this.writers[writer] : this.evaluators).get().run(batch.map((entry) => entry.task)).then(
      (envelopes) => {
        this.hold(writer, -batch.length);
        if (writer !== undefined) {
          // A writer committed these carts: the main thread's next reads must see them (its lmdb-js
          // snapshot is otherwise renewed only by a timer), since their 200s go out now.
          this.env.freshReads();
        }
        for (let i = 0; i < batch.length; i++) {
          const envelope = envelopes[i];
          if (envelope.ok) batch[i].resolve(envelope.raw);
          else batch[i].reject(rebuildError(envelope));
        }
      },
      (err: unknown) => {
        this.hold(writer, -batch.length);
        for (const entry of batch) entry.reject(err);
      },
    );
  }

  /** Counts `carts` more (or fewer) held by `writer`, or by the simulate workers when undefined. */
  private hold(writer: number | undefined, carts: number): void {
    if (writer === undefined) {
      this.evaluating += carts;
      return;
    }
    this.inFlight[writer] += carts;
    this.writing += carts;
  }
}

/**
 * The size of the batches `count` carts travel in: as few batches as `cap` allows, evenly sized (10 carts
 * go as one batch, 20 as two of 10, 40 as three of 14). The per-message cost is paid per batch: one batch
 * a turn instead of one per worker measured 3 to 18% more simulated carts a second (bench/README.md).
 */
export function evenBatchSize(count: number, cap: number): number {
  return Math.ceil(count / Math.ceil(count / cap));
}
