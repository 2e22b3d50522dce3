/**
 * What a route sees and returns. A route is a short function: validate the
 * request, call a store or the engine, return a Reply. Errors are thrown as
 * TallyError and turned into `{error, code}` by the pipeline (errors.ts).
 */
import type { OperationId, PublicOperationId } from './operations.js';
import type { ApiKeyView, CompanySettings, Tenant } from '../tenancy/types.js';
import type { AuditContext } from '../audit/context.js';

export interface Reply {
  /** HTTP status; 200 when absent. */
  status?: number;
  /** Serialized as JSON; bigint values are written as JSON numbers (ids above 2^53). */
  body: unknown;
  headers?: Readonly<Record<string, string>>;
  /** Exact bytes to send instead of serializing `body` (replays of stored answers). */
  raw?: string;
}

/** A request before authentication: what a public operation (GET /check) gets. */
export interface PublicRequest {
  operation: OperationId;
  method: string;
  /** The path as sent (an alias when a legacy path was used). */
  path: string;
  /** Path parameters, URL-decoded, named as in the routing table. */
  params: Readonly<Record<string, string>>;
  query: URLSearchParams;
  /** The parsed JSON body: an object (empty when no body was sent). */
  body: Record<string, unknown>;
  /** The raw body text, as received. */
  rawBody: string;
  /** A request header by lower-case name. */
  header(name: string): string | undefined;
  /** Present when valid credentials were sent (always, for authenticated operations). */
  tenant?: Tenant;
}

/** An authenticated request: its Company, environment and API key. */
export interface TallyRequest extends PublicRequest {
  /** The Company and environment whose data this request may touch. */
  tenant: Tenant;
  settings: CompanySettings;
  apiKey: ApiKeyView;
  /** The language selected by Accept-Language (common rule 7); undefined = default values. */
  language: string | undefined;
  /** Server time of the request (one clock read per request). */
  now: Date;
  /** The audit log's record of this request, when its operation is audited (audit/context.ts). */
  audit: AuditContext | undefined;
}

/** A handler that needs no I/O wait may answer synchronously (the Tier 1 reads do: it saves a turn of the event loop). */
export type Handler = (req: TallyRequest) => Reply | Promise<Reply>;
export type PublicHandler = (req: PublicRequest | TallyRequest) => Reply | Promise<Reply>;

/** What a resource folder exports: handlers by operation id. */
export type Routes = { [K in OperationId]?: K extends PublicOperationId ? PublicHandler : Handler };

export function ok(body: unknown): Reply {
  return { body };
}

/** The body of mutating operations (common rule 10). */
export function success(extra: Record<string, unknown> = {}): Reply {
  return { body: { status: 'success', ...extra } };
}
