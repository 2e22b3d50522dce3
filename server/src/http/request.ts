/**
 * The request object routes receive. A class, so every request has the same
 * shape (cheap for V8); a query string is parsed once, by the pipeline, which
 * checks its names (an empty one only if a route reads it).
 */
import type { ApiKeyView, CompanySettings, Tenant } from '../tenancy/types.js';
import type { OperationId } from './operations.js';
import { OperationQuery } from './query.js';
import type { TallyRequest } from './types.js';
import type { AuditContext } from '../audit/context.js';

export interface RawRequest {
  method: string;
  url: string;
  /** The query string without `?`. */
  query: string;
  /** Lower-case header names. */
  headers: Readonly<Record<string, string>>;
  body: string;
  /** Set when the body bytes are not valid UTF-8 (answered 400 before the body is parsed). */
  bodyNotUtf8?: boolean;
  /** The operation the pipeline routed to (undefined: not routed): the metrics' label. */
  operation?: OperationId;
  /** performance.now() at arrival, when metrics are on. */
  arrivedAt?: number;
  /** The connection's other end: uWS's HttpResponse, whose address is read only when needed (clientAddress). */
  peer?: Peer;
}

/** What gives the client's address: valid while the request is being answered synchronously. */
export interface Peer {
  getRemoteAddressAsText(): ArrayBuffer;
}

/** The client's IP address as text (the connection's: a proxy's header is not trusted); '' when unknown. */
export function clientAddress(raw: RawRequest): string {
  return raw.peer ? Buffer.from(raw.peer.getRemoteAddressAsText()).toString('latin1') : '';
}

export class IncomingRequest implements TallyRequest {
  readonly method: string;
  readonly path: string;
  readonly rawBody: string;
  // Set by the pipeline after authentication (tenant stays undefined for anonymous GET /check).
  tenant!: Tenant;
  settings!: CompanySettings;
  apiKey!: ApiKeyView;
  language: string | undefined;
  now!: Date;
  audit: AuditContext | undefined = undefined;

  constructor(
    readonly operation: OperationId,
    private readonly raw: RawRequest,
    readonly params: Readonly<Record<string, string>>,
    readonly body: Record<string, unknown>,
    /** Parsed and checked by the pipeline when the request has one. */
    private parsedQuery: OperationQuery | undefined,
  ) {
    this.method = raw.method;
    this.path = raw.url;
    this.rawBody = raw.body;
  }

  get query(): URLSearchParams {
    return (this.parsedQuery ??= new OperationQuery(this.raw.query, this.operation));
  }

  header(name: string): string | undefined {
    return this.raw.headers[name];
  }
}
