/**
 * uWebSockets.js wiring: copies each request out of uWS (its objects are only
 * valid synchronously), reads the body up to the limit, runs the pipeline and
 * writes the reply corked. Tracks in-flight requests for a graceful stop.
 * With metrics, every answer written is recorded by `write`, the one place
 * all of them pass through.
 */
import { isUtf8 } from 'node:buffer';
import { accessSync, constants } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import type * as Uws from 'uWebSockets.js';
import { StartupRefusal, type TlsFiles } from '../config.js';
import type { Metrics } from '../metrics/metrics.js';
import { errorBody } from './errors.js';
import { stringifyJson } from './json.js';
import type { Pipeline, RawRequest } from './pipeline.js';
import type { Reply } from './types.js';

// uWebSockets.js is CommonJS; load it through require so its native/fallback choice is visible.
const uws = createRequire(import.meta.url)('uWebSockets.js') as typeof Uws;

/** The native module has SSLApp; the pure-JS fallback it silently loads when the binary fails does not. */
export const BACKEND: 'native' | 'fallback' = 'SSLApp' in uws ? 'native' : 'fallback';

/** Largest accepted request body (docs/http.md). */
export const MAX_BODY_BYTES = 1024 * 1024;

/** Status lines, built once. */
const STATUS_LINES: Record<number, string> = {
  200: '200 OK', 400: '400 Bad Request', 402: '402 Payment Required', 403: '403 Forbidden', 404: '404 Not Found',
  405: '405 Method Not Allowed', 409: '409 Conflict', 429: '429 Too Many Requests',
  500: '500 Internal Server Error', 501: '501 Not Implemented', 503: '503 Service Unavailable',
};

export interface HttpServer {
  port: number;
  /** Stops accepting connections and resolves when in-flight requests have been answered. */
  close(): Promise<void>;
}

/** The answer to a request that arrives, on a kept-alive connection, once the server is stopping: retry elsewhere or after the restart. */
const STOPPING: Reply = {
  status: 503,
  headers: { 'Retry-After': '1' },
  body: errorBody('server_error', 'The server is stopping: nothing was done; retry after 1 second'),
};

/** Writes an answer to a request. */
type Write = (res: Uws.HttpResponse, raw: RawRequest, reply: Reply, closeConnection: boolean) => void;

/**
 * The uWS app: HTTPS with TLS files, else plain HTTP. Chosen once, at start,
 * so plain HTTP runs exactly the code it ran before. Made before the store is
 * opened: a TLS setting that cannot work stops the start with its reason
 * (uWS itself only says "App construction failed").
 */
export function createApp(tls: TlsFiles | undefined): Uws.TemplatedApp {
  if (!tls) return uws.App();
  if (BACKEND === 'fallback') {
    throw new StartupRefusal('TLS_CERT_FILE/TLS_KEY_FILE: the pure-JS fallback of uWebSockets.js is running (UWS_USE_FALLBACK, or its native binary did not load: see the warning above) and it cannot serve HTTPS; unset UWS_USE_FALLBACK, run a Node.js version the binary supports, or terminate TLS at a proxy');
  }
  for (const [name, file] of [['TLS_CERT_FILE', tls.certFile], ['TLS_KEY_FILE', tls.keyFile]]) {
    try {
      accessSync(file, constants.R_OK);
    } catch (err) {
      throw new StartupRefusal(`${name} ${file} cannot be read: ${(err as Error).message}`);
    }
  }
  try {
    return uws.SSLApp({ cert_file_name: tls.certFile, key_file_name: tls.keyFile, passphrase: tls.passphrase });
  } catch {
    throw new StartupRefusal(`TLS_CERT_FILE ${tls.certFile} and TLS_KEY_FILE ${tls.keyFile} could not be loaded: not PEM, a key that does not match the certificate, or a wrong or missing TLS_KEY_PASSPHRASE`);
  }
}

/** Without metrics, `metrics` is undefined and the request path never reaches prom-client. */
export function startHttpServer(app: Uws.TemplatedApp, host: string, port: number, pipeline: Pipeline, metrics?: Metrics): Promise<HttpServer> {
  const timed = metrics !== undefined;
  const answerWith: Write = metrics
    ? (res, raw, reply, closeConnection) => {
        writeReply(res, raw, reply, closeConnection);
        metrics.answered(raw, reply.status ?? 200);
      }
    : writeReply;

  // Requests answered asynchronously, counted until answered or aborted and,
  // once their pipeline started, until it settles: shutdown never closes the
  // store under one. A synchronous answer needs no count: nothing can run
  // between its start and its end.
  let inFlight = 0;
  let drained: (() => void) | undefined;
  const done = () => {
    inFlight -= 1;
    if (inFlight === 0) drained?.();
  };
  // Once closing, kept-alive connections would go on bringing requests (closing the listening socket closes none of
  // them): each answer closes its connection, and a request arriving meanwhile is refused before it runs, so none
  // starts on a store about to close and the in-flight count reaches 0 for good.
  let closing = false;
  const write: Write = (res, raw, reply, closeConnection) => answerWith(res, raw, reply, closeConnection || closing);

  app.any('/*', (res, req) => {
    const raw = readRequest(req, res, timed ? performance.now() : 0);
    if (closing) return write(res, raw, STOPPING, true);
    const declared = Number(raw.headers['content-length'] ?? '0');
    if (declared === 0 && raw.headers['transfer-encoding'] === undefined) {
      // No body: the pipeline runs now, and a synchronous answer is written
      // inside this callback, where uWebSockets.js corks it already.
      const reply = pipeline(raw);
      if (!(reply instanceof Promise)) return write(res, raw, reply, false);
      inFlight += 1;
      return new PendingAnswer(res, raw, write, done).started().await(reply);
    }
    inFlight += 1;
    const pending = new PendingAnswer(res, raw, write, done);
    if (declared > MAX_BODY_BYTES) return pending.tooLarge();
    const chunks: Buffer[] = [];
    let size = 0;
    res.onData((chunk, isLast) => {
      if (pending.isStarted) return;
      size += chunk.byteLength;
      if (size > MAX_BODY_BYTES) return pending.tooLarge();
      if (isLast && chunks.length === 0) {
        // One chunk (the usual case): decode it in place, before uWS reuses its memory.
        readBody(raw, Buffer.from(chunk));
      } else {
        chunks.push(Buffer.from(new Uint8Array(chunk))); // copy: uWS reuses the chunk's memory
        if (!isLast) return;
        readBody(raw, Buffer.concat(chunks));
      }
      pending.started().await(pipeline(raw));
    });
  });

  return new Promise((resolve, reject) => {
    // Exclusive: uWS sets SO_REUSEPORT by default, so a second server started on a taken PORT (another store, or a
    // restart before the old process stopped) would listen too and the kernel would split the requests between them.
    listenExclusive(app, host, port, (socket) => {
      if (!socket) return reject(new StartupRefusal(`PORT ${port} on ${host} cannot be listened on: another process listens on it, or the address is not one of this machine's`));
      resolve({
        port: uws.us_socket_local_port(socket as unknown as Uws.us_socket),
        close: () =>
          new Promise<void>((closed) => {
            closing = true;
            uws.us_listen_socket_close(socket);
            if (inFlight === 0) return closed();
            drained = closed;
          }),
      });
    });
  });
}

/** uWS's `ListenOptions.LIBUS_LISTEN_EXCLUSIVE_PORT` (a type-only enum of its typings; the pure-JS fallback ignores it, as node:net never shares a port). */
const LIBUS_LISTEN_EXCLUSIVE_PORT = 1;

/** `app.listen(host, port, options, cb)`: native uWS takes it, its typings list options only without a host. */
function listenExclusive(app: Uws.TemplatedApp, host: string, port: number, cb: (socket: Uws.us_listen_socket | false) => void): void {
  const listen = app.listen as unknown as (host: string, port: number, options: number, cb: (socket: Uws.us_listen_socket | false) => void) => void;
  listen.call(app, host, port, LIBUS_LISTEN_EXCLUSIVE_PORT, cb);
}

/**
 * Bodies are UTF-8 (contract): a malformed sequence is flagged for the
 * pipeline's 400 rather than decoded to U+FFFD (isUtf8: ~30 ns per 1.5 KB).
 */
function readBody(raw: RawRequest, bytes: Buffer): void {
  raw.body = bytes.toString('utf8');
  if (!isUtf8(bytes)) raw.bodyNotUtf8 = true;
}

/** The header names are copied by one shared callback (no closure per request). */
let headersRead: Record<string, string> = {};
const readHeader = (name: string, value: string) => {
  headersRead[name] = value;
};

/** Copies the request out of uWS: its object is only valid during the callback. */
function readNativeRequest(req: Uws.HttpRequest, res: Uws.HttpResponse, arrivedAt: number): RawRequest {
  headersRead = {};
  req.forEach(readHeader);
  return {
    arrivedAt,
    operation: undefined, // set by the pipeline: every request keeps the same shape
    // Methods are case-sensitive (RFC 9110); uWS's parser already refuses a lower-case one, so no folding.
    method: req.getCaseSensitiveMethod(),
    url: req.getUrl(),
    query: req.getQuery() ?? '',
    headers: headersRead,
    body: '',
    peer: res,
  };
}

/** The pure-JS fallback's HttpRequest: a wrapper around node:http's request, kept in `request`. */
interface FallbackRequest {
  request: IncomingMessage;
}

/**
 * The fallback's forEach and getCaseSensitiveMethod throw "Not implemented", its getQuery throws on every
 * request (it parses the path alone as an absolute URL) and its getUrl keeps the query: every request threw
 * out of the handler and took the process down. So its request is read from node:http's, into the shape
 * the native one gives: lower-case header names, the last of a repeated header, the path and query apart.
 */
function readFallbackRequest(req: Uws.HttpRequest, _res: Uws.HttpResponse, arrivedAt: number): RawRequest {
  const { method, url = '', rawHeaders, socket } = (req as unknown as FallbackRequest).request;
  const headers: Record<string, string> = {};
  for (let i = 0; i < rawHeaders.length; i += 2) headers[rawHeaders[i].toLowerCase()] = rawHeaders[i + 1];
  const queryAt = url.indexOf('?');
  return {
    arrivedAt,
    operation: undefined,
    method: method ?? '', // node:http's parser accepts only upper-case methods it knows
    url: queryAt === -1 ? url : url.slice(0, queryAt),
    query: queryAt === -1 ? '' : url.slice(queryAt + 1),
    headers,
    body: '',
    // The fallback's HttpResponse throws "Not implemented" for the address: node:http's socket knows it.
    peer: { getRemoteAddressAsText: () => new TextEncoder().encode(socket.remoteAddress ?? '').buffer as ArrayBuffer },
  };
}

const readRequest = BACKEND === 'native' ? readNativeRequest : readFallbackRequest;

/** A request answered after the callback returned: it must watch for the client going away. */
class PendingAnswer {
  private aborted = false;
  isStarted = false;
  private released = false;

  constructor(
    private readonly res: Uws.HttpResponse,
    private readonly raw: RawRequest,
    private readonly write: Write,
    private readonly done: () => void,
  ) {
    res.onAborted(() => {
      this.aborted = true;
      if (!this.isStarted) this.release();
    });
  }

  /** The pipeline runs from now on: the request stays in flight until it answers. */
  started(): this {
    this.isStarted = true;
    return this;
  }

  await(reply: Reply | Promise<Reply>): void {
    if (!(reply instanceof Promise)) return this.answer(reply);
    reply.then(
      (settled) => this.answer(settled),
      () => this.answer({ status: 500, body: errorBody('server_error', 'Internal server error') }),
    );
  }

  tooLarge(): void {
    this.isStarted = true; // answered: later chunks are ignored
    this.answer({ status: 400, body: errorBody('invalid_request', `body: is larger than ${MAX_BODY_BYTES} bytes`) }, true);
  }

  private answer(reply: Reply, closeConnection = false): void {
    if (!this.aborted) this.res.cork(() => this.write(this.res, this.raw, reply, closeConnection));
    this.release();
  }

  private release(): void {
    if (this.released) return;
    this.released = true;
    this.done();
  }
}

function writeReply(res: Uws.HttpResponse, raw: RawRequest, reply: Reply, closeConnection: boolean): void {
  const status = reply.status ?? 200;
  // uWS answers 200 OK unless told otherwise.
  if (status !== 200) res.writeStatus(STATUS_LINES[status] ?? String(status));
  res.writeHeader('Content-Type', 'application/json');
  // Answers hold personal data: no cache (a browser's, a proxy's) keeps them, and none is read as other than JSON.
  res.writeHeader('Cache-Control', 'no-store');
  res.writeHeader('X-Content-Type-Options', 'nosniff');
  const headers = reply.headers;
  if (headers) for (const name in headers) res.writeHeader(name, headers[name]);
  const content = reply.raw ?? stringifyJson(reply.body);
  // A HEAD's answer has the GET's headers and no content (RFC 9110): a client reads none, so content would be taken
  // for the start of the next answer on the connection (a closing one has none). endWithoutBody with arguments (a
  // reported length) does not end the response in this uWS build (it aborts the process), so the length is a header
  // of ours. The fallback has no endWithoutBody ("Not implemented"): its node:http leaves a HEAD's content out itself
  // but reports no length, so it is given the header too.
  if (raw.method === 'HEAD' && !closeConnection) {
    res.writeHeader('Content-Length', String(Buffer.byteLength(content)));
    if (BACKEND === 'native') return void res.endWithoutBody();
  }
  res.end(content, closeConnection);
}
