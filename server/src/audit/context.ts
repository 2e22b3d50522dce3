/**
 * Which change a write transaction belongs to (docs/audit-log.md). The
 * pipeline runs an audited operation's handler inside `auditing.run(...)`,
 * the CLI each command; `openStore`'s witness reads the context when
 * `transact` is called (in its caller's async context: handlers interleave,
 * so no module-level "current request" would do) and writes one entry in
 * that transaction once its work has returned. The hot path (`audit: false`)
 * never enters it.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { OPERATIONS, type OperationId, type OperationSpec } from '../http/operations.js';
import type { Handler, Routes, TallyRequest } from '../http/types.js';
import { authorOf } from '../points/author.js';
import type { StoreEnv } from '../store/env.js';
import type { Tenant } from '../tenancy/types.js';
import { redactedPath } from './erase.js';
import { writeEntry, type Actor, type Redaction } from './log.js';

export interface AuditContext {
  /** Where the entry is recorded: the request's Company environment (a CLI command may change several). */
  tenants: readonly Tenant[];
  actor: Actor;
  /** An OPERATIONS id, or `cli.<command>`. */
  operation: string;
  method: string | null;
  path: string | null;
  /** The record changed (`customer:42`), set by the route as it learns it; null when unknown. */
  target: string | null;
  /** The ids of the customers the request named (auditMention), indexed so their delete redacts the entry. */
  mentions?: Set<string>;
  /** The request body (or the CLI's options), redacted when written. */
  body: unknown;
  /** Set when the request erased a person (auditErased): the entry records no body. */
  redaction?: Redaction;
}

const auditing = new AsyncLocalStorage<AuditContext>();

/** POST, PATCH, PUT and DELETE operations but those marked `audit: false` (the hot path). */
const AUDITED: ReadonlySet<string> = new Set(
  (Object.entries(OPERATIONS) as [OperationId, OperationSpec][]).filter(([, spec]) => spec.method !== 'GET' && spec.audit !== false).map(([id]) => id),
);

/** The witness given to `openStore`: an entry per transaction started inside an audited context. */
export function auditWitness(): ((env: StoreEnv) => void) | undefined {
  const context = auditing.getStore();
  return context && ((env) => writeEntry(env, context));
}

/** The routes with every audited operation's handler run in its request's context (the others untouched: no cost per request). */
export function auditRoutes(routes: Routes): Routes {
  const wrapped: Record<string, unknown> = { ...routes };
  for (const operation of AUDITED) {
    const handler = routes[operation as OperationId] as Handler | undefined;
    if (handler) wrapped[operation] = (req: TallyRequest) => runAudited(req, handler);
  }
  return wrapped as Routes;
}

function runAudited(req: TallyRequest, handler: Handler) {
  const context: AuditContext = {
    tenants: [req.tenant],
    actor: { api_key: req.apiKey.key, author: authorOf(req) ?? null },
    operation: req.operation,
    method: req.method,
    path: req.path,
    target: pathTarget(req),
    body: req.body,
  };
  req.audit = context;
  return auditing.run(context, handler, req);
}

/** A request's context as data stored with work it leaves for later (a transfer-new's queued merge): `runRecorded`. */
export type DeferredAudit = Omit<AuditContext, 'mentions'> & { mentions?: string[] };

/** Inside a recorded request's handler: its context as it stands, to store with the work it leaves for later. */
export function deferredAudit(req: TallyRequest): DeferredAudit | undefined {
  if (!req.audit) return undefined;
  const { mentions, ...context } = req.audit;
  return { ...context, ...(mentions ? { mentions: [...mentions] } : {}) };
}

/**
 * Runs later work of a request (`deferredAudit`) in its context, as its handler would: its transactions are recorded
 * as the request's, whether the process that took the request still runs or not (a timer it set would inherit the
 * context only while it does). Without one, outside any request's context: nothing recorded.
 */
export function runRecorded<T>(deferred: DeferredAudit | undefined, work: () => T): T {
  if (!deferred) return auditing.exit(work);
  const { mentions, ...context } = deferred;
  return auditing.run({ ...context, ...(mentions ? { mentions: new Set(mentions) } : {}) }, work);
}

/** Runs a CLI command: its transactions are recorded with actor `cli`. */
export function runAuditedCommand<T>(context: Omit<AuditContext, 'actor'>, work: () => T): T {
  return auditing.run({ ...context, actor: { cli: true } }, work);
}

/** The record a request changes, once the route knows it (a created id, a looked-up code's record). */
export function auditTarget(req: TallyRequest, target: string | undefined): void {
  if (req.audit && target !== undefined) req.audit.target = target;
}

/**
 * The request named these customers (by `customer_id`, `customer_code`, ...) as the route resolved them: the entry
 * is indexed under each, so the customer's delete redacts it too (erase.ts). Undefined ids (none named) are skipped.
 */
export function auditMention(req: TallyRequest, ...ids: (string | undefined)[]): void {
  if (!req.audit) return;
  for (const id of ids) if (id !== undefined) (req.audit.mentions ??= new Set()).add(id);
}

/**
 * The request erased customer `id` (its delete): its own entry records, as the entries it redacted
 * (erase.ts), no body and no path value naming the customer other than by its id.
 */
export function auditErased(req: TallyRequest, id: string, redaction: Redaction): void {
  if (!req.audit) return;
  req.audit.path = redactedPath(req.audit.path, req.audit.operation, id);
  req.audit.redaction = redaction;
}

/** `features:5` for PATCH /taxonomies/{taxonomy_slug}/features/5: the last path parameter, named after the resource. */
function pathTarget(req: TallyRequest): string | null {
  const names = Object.keys(req.params);
  if (names.length === 0) return null;
  const resource = req.operation.slice(0, req.operation.indexOf('.'));
  const singular = resource.endsWith('ies') ? `${resource.slice(0, -3)}y` : resource.replace(/s$/, '');
  return `${singular}:${req.params[names[names.length - 1]]}`;
}
