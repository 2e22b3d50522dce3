/**
 * Test harness: starts the REAL built server (`node server/dist/main.js`) as
 * a child process on a free port with a temporary DATA_DIR and bootstrap
 * credentials, and gives tests an HTTP client carrying the auth headers.
 * Every 2xx answer must match its operation's response schema, closed: a
 * mismatch throws, so each HTTP test also guards the schemas (docs/api.md).
 * Build first (`npx tsc -b`); `npm test` does.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { Agent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ValidateFunction } from 'ajv';
import { parseJson, stringifyJson } from '../http/json.js';
import type { OperationId } from '../http/operations.js';
import { matchRoute } from '../http/router.js';
import { SCHEMA_DOCUMENTS } from '../http/validation.js';
import { RESPONSE_BODIES, responseBodySchema } from '../openapi/bodies.js';
import { closedResponseAjv } from './closed-responses.js';

const MAIN = fileURLToPath(new URL('../../dist/main.js', import.meta.url));
export const TEST_KEY = 'test-key';
export const TEST_SECRET = 'test-secret-of-the-suite';

export interface Credentials {
  key: string;
  secret: string;
}

export interface TestResponse {
  status: number;
  /** Parsed with Tally's lossless parser: integers above 2^53 arrive as bigint. */
  body: any;
  text: string;
  headers: Headers;
}

export interface RequestOptions {
  /** An object is sent as JSON; a string is sent as is. */
  body?: unknown;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  /** Credentials other than the bootstrap key; `null` sends none. */
  auth?: Credentials | null;
}

export interface Client {
  request(method: string, path: string, options?: RequestOptions): Promise<TestResponse>;
  get(path: string, options?: RequestOptions): Promise<TestResponse>;
  post(path: string, body?: unknown, options?: RequestOptions): Promise<TestResponse>;
  patch(path: string, body?: unknown, options?: RequestOptions): Promise<TestResponse>;
  put(path: string, body?: unknown, options?: RequestOptions): Promise<TestResponse>;
  delete(path: string, options?: RequestOptions): Promise<TestResponse>;
}

export interface TestServer {
  readonly url: string;
  readonly port: number;
  /** The metrics listener's port (METRICS_PORT), from its `metrics listening` line; undefined without one. */
  readonly metricsPort: number | undefined;
  readonly dataDir: string;
  /** Every stdout line of the current process, as printed. */
  readonly lines: string[];
  client: Client;
  /** A client with other credentials (e.g. a key made with the CLI). */
  clientFor(auth: Credentials | null): Client;
  /** SIGTERM; resolves with the exit code. */
  stop(): Promise<number | null>;
  /** Stops and starts again on the same DATA_DIR (a new port); `env` is added to the environment, for this start and the later ones. */
  restart(env?: Record<string, string>): Promise<void>;
  /** kill -9: the process dies at once, nothing is flushed or answered; `restart()` starts it again. */
  crash(): Promise<void>;
  /** Stops and removes the DATA_DIR. */
  dispose(): Promise<void>;
}

export interface StartOptions {
  /**
   * Extra environment variables (TALLY_RATE_LIMITS defaults to off, AUTH_FAILURE_LIMIT to 0: every test comes from
   * 127.0.0.1, and many send wrong secrets; WORKERS and REALTIME_WORKERS to 1, CART_POOL_START to lazy: each worker
   * thread costs about 0.45 s of CPU to start, about half the servers of the suite never see a cart, and a test of
   * what two workers or writers do, or of the eager start, asks for it; STORE_FILE_HEADROOM_MB to 0: reading a new
   * store's 64 MB of headroom costs a start about 0.4 s of CPU, and the tests of the headroom and of a crash ask for it).
   */
  env?: Record<string, string>;
  /** Omit the bootstrap key variables. */
  noBootstrap?: boolean;
  /** Start on this DATA_DIR (e.g. a backup) instead of a new temporary one; `dispose()` removes it too. */
  dataDir?: string;
}

interface Running {
  child: ChildProcess;
  port: number;
  metricsPort: number | undefined;
  lines: string[];
}

function launch(dataDir: string, options: StartOptions): Promise<Running> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOST: '127.0.0.1',
    PORT: '0',
    DATA_DIR: dataDir,
    TALLY_RATE_LIMITS: 'off',
    AUTH_FAILURE_LIMIT: '0',
    WORKERS: '1',
    REALTIME_WORKERS: '1',
    CART_POOL_START: 'lazy',
    STORE_FILE_HEADROOM_MB: '0',
    ...(options.noBootstrap ? {} : { TALLY_BOOTSTRAP_KEY: TEST_KEY, TALLY_BOOTSTRAP_SECRET: TEST_SECRET }),
    ...options.env,
  };
  const child = spawn(process.execPath, [MAIN], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  // A test that fails before dispose() must not leave its server running.
  const orphanGuard = () => child.kill('SIGKILL');
  process.once('exit', orphanGuard);
  child.once('exit', () => process.off('exit', orphanGuard));
  const lines: string[] = [];
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve, reject) => {
    let buffered = '';
    let metricsPort: number | undefined;
    child.stdout!.on('data', (d: Buffer) => {
      buffered += d.toString();
      const parts = buffered.split('\n');
      buffered = parts.pop()!;
      for (const line of parts) {
        lines.push(line);
        if (!line.startsWith('{')) continue;
        const entry = JSON.parse(line) as { msg?: string; port?: number };
        // Logged before `listening`.
        if (entry.msg === 'metrics listening') metricsPort = entry.port;
        if (entry.msg === 'listening') resolve({ child, port: entry.port!, metricsPort, lines });
      }
    });
    // 'close', not 'exit': stderr has been read to its end, so the error carries the server's reason.
    child.on('close', (code) => reject(new Error(`server exited (${code}) before listening: ${stderr}`)));
  });
}

const responseAjv = closedResponseAjv(SCHEMA_DOCUMENTS.values());
const responseChecks = new Map<OperationId, ValidateFunction>();

/** Throws when a 2xx answer does not match its operation's response schema (plain JSON.parse: what a client sees). */
function checkAnswer(method: string, url: URL, status: number, text: string): void {
  if (status < 200 || status > 299) return;
  const route = matchRoute(method, url.pathname);
  const body = route.kind === 'found' ? RESPONSE_BODIES[route.operation] : undefined;
  if (route.kind !== 'found' || !body) return;
  let check = responseChecks.get(route.operation);
  if (!check) responseChecks.set(route.operation, (check = responseAjv.compile(responseBodySchema(body))));
  if (check(JSON.parse(text))) return;
  const errors = check.errors!.map((e) => `${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`);
  throw new Error(`${method} ${url.pathname} (${route.operation}): the answer does not match its response schema:\n${errors.join('\n')}\n${text}`);
}

/** Connections kept open between requests, as fetch does. */
const keptAlive = new Agent({ keepAlive: true });

/** An answer as node:http gives it, its text read whole. */
export interface SentAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

/**
 * One request to 127.0.0.1:`port` with node:http rather than fetch: undici's streams and abort signals cost the test
 * process twice the CPU a request (about 560 against 300 µs here), in a suite bound by its 2 cores. A body sent whole
 * gets its Content-Length (0 for a POST, PUT or PATCH without one), as fetch sends it.
 */
export function send(port: number, method: string, path: string, headers: Record<string, string>, body?: string, agent: Agent = keptAlive): Promise<SentAnswer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method, path, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** What fetch would give as its answer's headers. */
function fetchHeaders(received: IncomingHttpHeaders): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(received)) {
    for (const one of Array.isArray(value) ? value : [value ?? '']) headers.append(name, one);
  }
  return headers;
}

function makeClient(base: () => string, auth: Credentials | null): Client {
  const request = async (method: string, path: string, options: RequestOptions = {}): Promise<TestResponse> => {
    const creds = options.auth === undefined ? auth : options.auth;
    const headers: Record<string, string> = creds
      ? { 'X-Api-Key': creds.key, 'X-Api-Secret': creds.secret, 'X-Api-Version': '1' }
      : {};
    let body: string | undefined;
    if (options.body !== undefined) {
      body = typeof options.body === 'string' ? options.body : stringifyJson(options.body);
      headers['Content-Type'] = 'application/json';
    }
    Object.assign(headers, options.headers);
    const query = options.query ? `?${new URLSearchParams(options.query)}` : '';
    const url = new URL(`${base()}${path}${query}`);
    const { status, text, headers: received } = await send(Number(url.port), method, `${url.pathname}${url.search}`, headers, body);
    checkAnswer(method, url, status, text);
    let parsed: unknown;
    try {
      parsed = text === '' ? undefined : parseJson(text);
    } catch {
      parsed = undefined;
    }
    return { status, body: parsed, text, headers: fetchHeaders(received) };
  };
  return clientOf(request);
}

/** A client whose every method goes through `request` (e.g. another client's, wrapped to count what it sends). */
export function clientOf(request: Client['request']): Client {
  return {
    request,
    get: (path, options) => request('GET', path, options),
    post: (path, body, options) => request('POST', path, { ...options, body }),
    patch: (path, body, options) => request('PATCH', path, { ...options, body }),
    put: (path, body, options) => request('PUT', path, { ...options, body }),
    delete: (path, options) => request('DELETE', path, options),
  };
}

export async function startServer(options: StartOptions = {}): Promise<TestServer> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'tally-test-'));
  let running: Running | undefined = await launch(dataDir, options);
  const url = () => `http://127.0.0.1:${running!.port}`;
  const stop = async (): Promise<number | null> => {
    const current = running;
    if (!current) return null;
    running = undefined;
    if (current.child.exitCode !== null) return current.child.exitCode;
    const exited = new Promise<number | null>((resolve) => current.child.once('exit', (code) => resolve(code)));
    current.child.kill('SIGTERM');
    return exited;
  };
  return {
    get url() {
      return url();
    },
    get port() {
      return running!.port;
    },
    get metricsPort() {
      return running!.metricsPort;
    },
    get lines() {
      return running!.lines;
    },
    dataDir,
    client: makeClient(url, { key: TEST_KEY, secret: TEST_SECRET }),
    clientFor: (auth) => makeClient(url, auth),
    stop,
    async restart(env) {
      await stop();
      if (env) options = { ...options, env: { ...options.env, ...env } };
      running = await launch(dataDir, options);
    },
    async crash() {
      const current = running;
      if (!current) return;
      running = undefined;
      if (current.child.exitCode !== null || current.child.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => current.child.once('exit', () => resolve()));
      current.child.kill('SIGKILL');
      await exited;
    },
    async dispose() {
      await stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
