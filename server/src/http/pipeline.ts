/**
 * One request, from raw HTTP to a Reply, in the contract's order: route,
 * authenticate, rate-limit, parse and check the body, run the operation's
 * handler (through idempotency), turn any error into `{error, code}`.
 * Independent of uWebSockets.js (server.ts does the wiring).
 */
import { TallyError } from '@tally/engine';
import type { ServerContext } from '../context.js';
import { authenticate, checksSecret, hasCredentials, principalOf } from './auth.js';
import { FORBIDDEN, errorBody, errorReply, invalidRequest } from './errors.js';
import { Idempotency } from './idempotency.js';
import { canonicalBody, canonicalJson, parseJsonObject } from './json.js';
import { canonicalQuery } from './params.js';
import { OperationQuery } from './query.js';
import { selectLanguage } from './language.js';
import { tooManyRequests, type AuthFailureLimiter, type RateLimiter } from './rate-limit.js';
import { clientAddress, IncomingRequest, type RawRequest } from './request.js';
import { matchRoute } from './router.js';
import type { Handler, PublicHandler, Reply, Routes } from './types.js';

export type { RawRequest };

/** Answers synchronously when the handler does (no I/O wait), else with a promise. */
export type Pipeline = (raw: RawRequest) => Reply | Promise<Reply>;

export interface Protocol {
  routes: Routes;
  idempotency: Idempotency;
  /** Absent when TALLY_RATE_LIMITS=off. */
  rateLimiter?: RateLimiter;
  /** Absent when AUTH_FAILURE_LIMIT=0. */
  authFailures?: AuthFailureLimiter;
}

export function createPipeline(ctx: ServerContext, protocol: Protocol): Pipeline {
  const route = (raw: RawRequest) => handle(ctx, protocol, raw);
  return (raw) => settle(route, raw, ctx);
}

/** Runs `work(input)`, turning its throw or rejection into an `{error, code}` answer (no closure per request). */
function settle<T>(work: (input: T) => Reply | Promise<Reply>, input: T, ctx: ServerContext): Reply | Promise<Reply> {
  try {
    const reply = work(input);
    return reply instanceof Promise ? reply.catch((err: unknown) => errorReply(err, ctx.log)) : reply;
  } catch (err) {
    return errorReply(err, ctx.log);
  }
}

/** Synchronous up to the handler (a throw there is caught by settle). */
function handle(ctx: ServerContext, protocol: Protocol, raw: RawRequest): Reply | Promise<Reply> {
  const match = matchRoute(raw.method, raw.url);
  if (match.kind === 'found' || match.kind === 'bad_path') raw.operation = match.operation;
  const credentials = {
    key: raw.headers['x-api-key'],
    secret: raw.headers['x-api-secret'],
    version: raw.headers['x-api-version'],
  };
  // Credentials are checked before the route is reported, so paths cannot be probed anonymously.
  const isPublic = match.kind === 'found' && match.spec.public === true;
  const needsAuthentication = !isPublic || hasCredentials(credentials);
  const failures = needsAuthentication ? protocol.authFailures : undefined;
  // The address is read only while some address has failed lately: otherwise a request pays one size check.
  const address = failures && !failures.idle() ? clientAddress(raw) : undefined;
  const refusedFor = address === undefined ? undefined : failures!.refusal(address);
  if (refusedFor !== undefined) {
    ctx.metrics?.authFailureRefused();
    return tooManyRequests(refusedFor, 'Too many failed authentications from this address');
  }
  const apiKey = needsAuthentication ? authenticate(credentials, ctx.tenancy) : undefined;
  if (needsAuthentication && !apiKey) {
    // Only a secret checked can be a guess: a request without one, or with a missing or wrong X-Api-Version (refused
    // before its secret is looked at), is a misconfigured client or a probe, and counting it would let one till
    // without the version header lock out every till behind its NAT.
    if (failures && checksSecret(credentials)) countFailure(ctx, failures, address ?? clientAddress(raw));
    return FORBIDDEN;
  }

  if (match.kind === 'not_found') throw new TallyError('route_not_found', `No operation at ${raw.method} ${raw.url}`);
  if (match.kind === 'method_not_allowed') {
    // 405 and 429 carry a header besides the `{error, code}` body.
    return {
      status: 405,
      headers: { Allow: match.allowed.join(', ') },
      body: errorBody('method_not_allowed', `${raw.method} is not accepted on ${raw.url}`),
    };
  }
  if (match.kind === 'bad_path') throw invalidRequest(match.field, match.problem);

  const settings = apiKey ? ctx.tenancy.getSettings(principalOf(apiKey).tenant) : undefined;
  if (apiKey && settings && protocol.rateLimiter) {
    const limited = protocol.rateLimiter.take(apiKey, settings, match.spec);
    if (limited !== undefined) {
      ctx.metrics?.rateLimited(match.spec.tier);
      return tooManyRequests(limited.retryAfter, `Rate limit of ${limited.budgets.join(' and ')} exceeded`);
    }
  }

  if (match.spec.jsonContentType && !isJson(raw.headers['content-type'])) {
    throw invalidRequest('Content-Type', 'header must be application/json');
  }
  const handler = protocol.routes[match.operation];
  if (!handler) throw new TallyError('not_implemented', `${match.operation} is not implemented yet`);
  const query = raw.query === '' ? undefined : new OperationQuery(raw.query, match.operation).refuseUnknown();
  if (raw.bodyNotUtf8) throw invalidRequest('body', 'is not valid UTF-8');
  const req = new IncomingRequest(match.operation, raw, match.params, match.spec.workerParsesBody ? {} : parseJsonObject(raw.body), query);
  if (!apiKey || !settings) return (handler as PublicHandler)(req);

  const principal = principalOf(apiKey);
  req.tenant = principal.tenant;
  req.apiKey = principal.view;
  req.settings = settings;
  req.language = selectLanguage(raw.headers['accept-language'], settings);
  req.now = new Date();
  // Errors become answers before idempotency stores them; a handler may also throw synchronously.
  const idempotencyKey = raw.headers['idempotency-key'];
  if (idempotencyKey === undefined || !Idempotency.applies(raw.method)) return settle(handler as Handler, req, ctx);
  return protocol.idempotency.run(
    {
      tenant: req.tenant,
      key: idempotencyKey,
      operation: match.operation,
      params: JSON.stringify(match.params),
      query: canonicalQuery(raw.query),
      // Parsed again here only for a worker-parsed body: the hot path without a key never pays for it.
      body: match.spec.workerParsesBody ? canonicalBody(raw.body) : canonicalJson(req.body),
    },
    async () => settle(handler as Handler, req, ctx),
  );
}

/** Logged once per window, when the address reaches the limit: an operator sees who is guessing secrets. */
function countFailure(ctx: ServerContext, failures: AuthFailureLimiter, address: string): void {
  if (failures.fail(address)) ctx.log.warn({ address }, 'failed authentications: client address refused (429) until its window ends');
}

function isJson(contentType: string | undefined): boolean {
  if (contentType === 'application/json') return true; // what nearly every client sends: no copies
  return contentType !== undefined && contentType.split(';')[0].trim().toLowerCase() === 'application/json';
}

