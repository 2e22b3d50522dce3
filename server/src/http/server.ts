/**
 * uWebSockets.js wiring: copies each request out of uWS (its objects are only
 * valid synchronously), reads the body up to the limit, runs the pipeline and
 * writes the reply corked. Tracks in-flight requests for a graceful stop.
 */
import { createRequire } from 'node:module';
import type * as Uws from 'uWebSockets.js';
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

export function startHttpServer(host: string, port: number, pipeline: Pipeline): Promise<HttpServer> {
  let inFlight = 0;
  let drained: (() => void) | undefined;
  const done = () => {
    inFlight -= 1;
    if (inFlight === 0) drained?.();
  };

  const app = uws.App().any('/*', (res, req) => {
    inFlight += 1;
    const headers: Record<string, string> = {};
    req.forEach((name, value) => {
      headers[name] = value;
    });
    const raw: RawRequest = {
      method: req.getCaseSensitiveMethod().toUpperCase(),
      url: req.getUrl(),
      query: req.getQuery() ?? '',
      headers,
      body: '',
    };
    // A request stays in flight until it is answered or aborted, and, once its
    // pipeline started, until that settles: shutdown never closes the store under it.
    let aborted = false;
    let started = false;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      done();
    };
    const answer = (reply: Reply, closeConnection = false) => {
      if (!aborted) res.cork(() => writeReply(res, reply, closeConnection));
      release();
    };
    const run = () => {
      started = true;
      awaitReply(pipeline(raw));
    };
    const awaitReply = (reply: Reply | Promise<Reply>) => {
      if (reply instanceof Promise) reply.then(answer, () => answer({ status: 500, body: errorBody('server_error', 'Internal server error') }));
      else answer(reply);
    };
    const onAborted = () => {
      aborted = true;
      if (!started) release();
    };

    const tooLarge = (): void => {
      started = true; // answered: later chunks are ignored
      answer({ status: 400, body: errorBody('invalid_request', `body: is larger than ${MAX_BODY_BYTES} bytes`) }, true);
    };
    const declared = Number(headers['content-length'] ?? '0');
    if (declared === 0 && headers['transfer-encoding'] === undefined) {
      // No body: the pipeline runs now, and a synchronous answer is written
      // inside this handler, where uWebSockets.js corks it already.
      started = true;
      const reply = pipeline(raw);
      if (!(reply instanceof Promise)) {
        writeReply(res, reply, false);
        return release();
      }
      res.onAborted(onAborted);
      return awaitReply(reply);
    }
    res.onAborted(onAborted);
    if (declared > MAX_BODY_BYTES) return tooLarge();
    const chunks: Buffer[] = [];
    let size = 0;
    res.onData((chunk, isLast) => {
      if (started) return;
      size += chunk.byteLength;
      if (size > MAX_BODY_BYTES) return tooLarge();
      if (isLast && chunks.length === 0) {
        // One chunk (the usual case): decode it in place, before uWS reuses its memory.
        raw.body = Buffer.from(chunk).toString('utf8');
        return run();
      }
      chunks.push(Buffer.from(new Uint8Array(chunk))); // copy: uWS reuses the chunk's memory
      if (!isLast) return;
      raw.body = Buffer.concat(chunks).toString('utf8');
      run();
    });
  });

  return new Promise((resolve, reject) => {
    app.listen(host, port, (socket) => {
      if (!socket) return reject(new Error(`cannot listen on ${host}:${port}`));
      resolve({
        port: uws.us_socket_local_port(socket as unknown as Uws.us_socket),
        close: () =>
          new Promise<void>((closed) => {
            uws.us_listen_socket_close(socket);
            if (inFlight === 0) return closed();
            drained = closed;
          }),
      });
    });
  });
}

function writeReply(res: Uws.HttpResponse, reply: Reply, closeConnection: boolean): void {
  const status = reply.status ?? 200;
  res.writeStatus(STATUS_LINES[status] ?? String(status));
  res.writeHeader('Content-Type', 'application/json');
  const headers = reply.headers;
  if (headers) for (const name in headers) res.writeHeader(name, headers[name]);
  res.end(reply.raw ?? stringifyJson(reply.body), closeConnection);
}
