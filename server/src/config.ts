/**
 * Settings read from the environment at start-up (README, docs/http.md). The cart pools' own
 * (`WORKERS`, `REALTIME_WORKERS`, `CART_BATCH_SIZE`, `CART_QUEUE_LIMIT`, ...) are read by `readPoolOptions` (pool/pool.ts).
 */
import type { Bounds } from '@tally/engine';
import { inRange, mustBeIn } from './http/errors.js';
import { LOG_LEVELS, type LogLevel } from './log.js';
import { LMDB_MAX_KEY_BYTES } from './store/keys.js';
import { SCAN_LIMIT_DEFAULT } from './store/paginate.js';
import { PRIVATE_ADDRESSES, type PrivateAddresses } from './webhooks/destinations.js';

export interface Config {
  host: string;
  /** 0 = a free port. */
  port: number;
  dataDir: string;
  bootstrapKey?: string;
  bootstrapSecret?: string;
  /** TALLY_RATE_LIMITS=off disables rate limiting (load tests); `on` (default) or `off`, anything else refused. */
  rateLimits: boolean;
  /** AUTH_FAILURE_LIMIT: failed authentications from one client address within AUTH_FAILURE_WINDOW_MS before it is refused (default 20; 0 = no limit; http/rate-limit.ts). */
  authFailureLimit: number;
  /** AUTH_FAILURE_WINDOW_MS: the window those failures are counted in and the address then refused for, from its first failure (default 60000). */
  authFailureWindowMs: number;
  /** LOG_LEVEL: pino's level (default info). */
  logLevel: LogLevel;
  /** TALLY_MERGE_DELAY_MS: delay before the asynchronous part of transfer-new runs (default 0). */
  mergeDelayMs: number;
  /** LIST_SCAN_LIMIT: records a list's page may read and leave out (its filters refuse them) before it answers (default 1000; at least 1; store/paginate.ts). */
  listScanLimit: number;
  /** CUSTOMER_CACHE_ENTRIES: rendered GET /customers/{value} answers kept in memory (default 250000; 0 = none). */
  customerCacheEntries: number;
  /** STORE_FILE_HEADROOM_MB: how far the store's file is kept past LMDB's last page, its pages read ahead of LMDB's writes (default 64; 0 = not kept; store/file-headroom.ts). */
  storeFileHeadroomMb: number;
  /** STORE_METRICS_INTERVAL_MS: log LMDB's commit counters this often (default 0: not counted; store/metrics.ts). */
  storeMetricsMs: number;
  /** METRICS_PORT: where Prometheus metrics are served (undefined: no metrics; 0 = a free port; metrics/metrics.ts). */
  metricsPort?: number;
  /** METRICS_HOST (default 127.0.0.1: the operator's scraper, not the internet). */
  metricsHost: string;
  /** POINTS_SETTLEMENT_INTERVAL_MS: run the points settlement sweep at start and this often (default 600000; 0 = never; points/settlement.ts). */
  pointsSettlementMs: number;
  /** REFERRAL_POLL_INTERVAL_MS: how often the refer_a_friend consumer looks for pending referrals (default 200; 0 = never; triggers/referrals.ts). */
  referralPollMs: number;
  /** WEBHOOK_POLL_INTERVAL_MS: how often the dispatcher looks for due webhook deliveries (default 1000; 0 = never; webhooks/dispatcher.ts). */
  webhookPollMs: number;
  /** WEBHOOK_TIMEOUT_MS: how long a webhook receiver has to answer (default 10000). */
  webhookTimeoutMs: number;
  /** WEBHOOK_RETRY_SECONDS: delays before the second, third, ... attempt of a webhook delivery (default 30,120,600,3600,10800,21600,43200). */
  webhookRetrySeconds: number[];
  /** WEBHOOK_PRIVATE_ADDRESSES: `allow` (default) or `refuse` webhook destinations on loopback, private, link-local, ... addresses (webhooks/destinations.ts). */
  webhookPrivateAddresses: PrivateAddresses;
  /** AUDIT_LOG_RETENTION_DAYS: audit log entries older than this are removed (default 365, decimals allowed; 0 = kept forever; audit/retention.ts). */
  auditRetentionDays: number;
  /** AUDIT_LOG_PRUNE_INTERVAL_MS: how often the retention sweep runs, and once at start (default 3600000). */
  auditPruneMs: number;
  /** TLS_CERT_FILE and TLS_KEY_FILE (both or neither; TLS_KEY_PASSPHRASE for an encrypted key): serve HTTPS (http/server.ts). */
  tls?: TlsFiles;
}

/** PEM files handed to uWebSockets.js's SSLApp. */
export interface TlsFiles {
  /** The certificate, followed by its intermediates (read as a chain file). */
  certFile: string;
  keyFile: string;
  passphrase?: string;
}

/**
 * A setting the server cannot start with (a value out of range, a file it cannot read, a port it cannot listen on):
 * the operator's to fix, so main prints its message alone, one line naming the setting, and exits 1; any other error
 * at start is a bug and keeps its stack.
 */
export class StartupRefusal extends Error {}

/**
 * The settings given: a variable set empty (`AUTH_FAILURE_LIMIT=${UNSET}` in a compose or unit file) is unset, so
 * its default applies. It read as 0: no failed-authentication limit, no queue bound, no settlement, a random PORT.
 */
export function givenSettings(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value.trim() !== ''));
}

export function readConfig(given: NodeJS.ProcessEnv = process.env): Config {
  const env = givenSettings(given);
  const port = portNumber(env.PORT ?? '8080', 'PORT');
  const config: Config = {
    host: env.HOST || '127.0.0.1',
    port,
    dataDir: env.DATA_DIR || './data',
    ...bootstrapCredentials(env),
    rateLimits: oneOf(env.TALLY_RATE_LIMITS || 'on', 'TALLY_RATE_LIMITS', ['on', 'off']) === 'on',
    authFailureLimit: count(env.AUTH_FAILURE_LIMIT ?? '20', 'AUTH_FAILURE_LIMIT'),
    authFailureWindowMs: positive(env.AUTH_FAILURE_WINDOW_MS ?? '60000', 'AUTH_FAILURE_WINDOW_MS'),
    logLevel: oneOf(env.LOG_LEVEL || 'info', 'LOG_LEVEL', LOG_LEVELS),
    mergeDelayMs: nonNegative(env.TALLY_MERGE_DELAY_MS, 'TALLY_MERGE_DELAY_MS'),
    // At least 1: a bound of 0 would answer every filtered page empty without reading a record, and no list would end.
    listScanLimit: count(env.LIST_SCAN_LIMIT ?? String(SCAN_LIMIT_DEFAULT), 'LIST_SCAN_LIMIT', 1),
    customerCacheEntries: Math.floor(nonNegative(env.CUSTOMER_CACHE_ENTRIES ?? '250000', 'CUSTOMER_CACHE_ENTRIES')),
    storeFileHeadroomMb: count(env.STORE_FILE_HEADROOM_MB ?? '64', 'STORE_FILE_HEADROOM_MB'),
    storeMetricsMs: nonNegative(env.STORE_METRICS_INTERVAL_MS, 'STORE_METRICS_INTERVAL_MS'),
    metricsPort: env.METRICS_PORT ? portNumber(env.METRICS_PORT, 'METRICS_PORT') : undefined,
    metricsHost: env.METRICS_HOST || '127.0.0.1',
    pointsSettlementMs: nonNegative(env.POINTS_SETTLEMENT_INTERVAL_MS ?? '600000', 'POINTS_SETTLEMENT_INTERVAL_MS'),
    referralPollMs: nonNegative(env.REFERRAL_POLL_INTERVAL_MS ?? '200', 'REFERRAL_POLL_INTERVAL_MS'),
    webhookPollMs: nonNegative(env.WEBHOOK_POLL_INTERVAL_MS ?? '1000', 'WEBHOOK_POLL_INTERVAL_MS'),
    webhookTimeoutMs: positive(env.WEBHOOK_TIMEOUT_MS ?? '10000', 'WEBHOOK_TIMEOUT_MS'),
    webhookRetrySeconds: (env.WEBHOOK_RETRY_SECONDS || '30,120,600,3600,10800,21600,43200').split(',').map((delay) => delaySeconds(delay, 'WEBHOOK_RETRY_SECONDS')),
    webhookPrivateAddresses: oneOf(env.WEBHOOK_PRIVATE_ADDRESSES || 'allow', 'WEBHOOK_PRIVATE_ADDRESSES', PRIVATE_ADDRESSES),
    auditRetentionDays: nonNegative(env.AUDIT_LOG_RETENTION_DAYS ?? '365', 'AUDIT_LOG_RETENTION_DAYS'),
    auditPruneMs: nonNegative(env.AUDIT_LOG_PRUNE_INTERVAL_MS ?? '3600000', 'AUDIT_LOG_PRUNE_INTERVAL_MS'),
    tls: tlsFiles(env),
  };
  checkMetricsPort(config);
  return config;
}

const WILDCARD_HOSTS = ['0.0.0.0', '::'];

/** Metrics never on the API's own port: that start failed naming PORT, "another process listens on it" (itself). */
function checkMetricsPort({ host, port, metricsHost, metricsPort }: Config): void {
  if (metricsPort === undefined || metricsPort === 0 || metricsPort !== port) return;
  if (metricsHost === host || WILDCARD_HOSTS.includes(host) || WILDCARD_HOSTS.includes(metricsHost)) {
    throw new StartupRefusal(`METRICS_PORT must be another port than PORT (${port}): metrics are served on a port of their own`);
  }
}

/**
 * The bootstrap key is stored as an LMDB key: a longer one stopped the start with lmdb-js's stack trace. A control
 * character cannot be sent in an X-Api-Key header (RFC 9110), and ordered-binary escapes some into two bytes.
 */
/** Both or neither: refused here, before the store is opened, so a refused start leaves no empty store behind. */
function bootstrapCredentials(env: NodeJS.ProcessEnv): Pick<Config, 'bootstrapKey' | 'bootstrapSecret'> {
  const key = bootstrapKey(env.TALLY_BOOTSTRAP_KEY || undefined);
  const secret = bootstrapSecret(env.TALLY_BOOTSTRAP_SECRET || undefined);
  if ((key === undefined) !== (secret === undefined)) throw new StartupRefusal('set both TALLY_BOOTSTRAP_KEY and TALLY_BOOTSTRAP_SECRET, or neither');
  return { bootstrapKey: key, bootstrapSecret: secret };
}

function bootstrapKey(key: string | undefined): string | undefined {
  if (key === undefined) return undefined;
  if (/[\u0000-\u001f\u007f]/.test(key)) throw new StartupRefusal('TALLY_BOOTSTRAP_KEY must not hold control characters (clients send it as the X-Api-Key header)');
  const bytes = Buffer.byteLength(key);
  if (bytes > LMDB_MAX_KEY_BYTES) throw new StartupRefusal(`TALLY_BOOTSTRAP_KEY must be at most ${LMDB_MAX_KEY_BYTES} bytes (UTF-8), got ${bytes}`);
  return key;
}

/** Generated secrets have 43 characters (tenancy/secrets.ts); a short chosen one is guessed sooner than any limit stops it. */
export const BOOTSTRAP_SECRET_MIN_LENGTH = 16;

/** Its length is told, never the secret (the line goes to the operator's logs). */
function bootstrapSecret(secret: string | undefined): string | undefined {
  if (secret === undefined) return undefined;
  const length = [...secret].length;
  if (length < BOOTSTRAP_SECRET_MIN_LENGTH) throw new StartupRefusal(`TALLY_BOOTSTRAP_SECRET must be at least ${BOOTSTRAP_SECRET_MIN_LENGTH} characters, got ${length}`);
  return secret;
}

/** Half a TLS setting would silently serve plain HTTP: refused instead. */
function tlsFiles(env: NodeJS.ProcessEnv): TlsFiles | undefined {
  // uWebSockets.js's ca_file_name checks a client certificate only when one is offered (none passes): no access control to offer.
  if (env.TLS_CA_FILE) throw new StartupRefusal('TLS_CA_FILE is not supported: client certificates would be checked only when a client offers one; put intermediates after the certificate in TLS_CERT_FILE');
  const certFile = env.TLS_CERT_FILE || undefined;
  const keyFile = env.TLS_KEY_FILE || undefined;
  const passphrase = env.TLS_KEY_PASSPHRASE || undefined;
  if (!certFile && !keyFile && !passphrase) return undefined;
  if (!certFile || !keyFile) {
    const missing = [certFile ? '' : 'TLS_CERT_FILE', keyFile ? '' : 'TLS_KEY_FILE'].filter(Boolean).join(' and ');
    throw new StartupRefusal(`TLS_CERT_FILE and TLS_KEY_FILE must be set together: ${missing} not set`);
  }
  return { certFile, keyFile, passphrase };
}

/**
 * A start-up setting out of its range, `WORKERS must be an integer of at least 0, got -1`: the range worded as every
 * other (mustBeIn), in a start-up error's form (the setting, then the value found).
 */
export function settingOutOfRange(name: string, type: 'integer' | 'number', bounds: Bounds, value: string | undefined): StartupRefusal {
  return new StartupRefusal(`${name} ${mustBeIn(type, bounds)}, got ${value}`);
}

const PORTS: Bounds = { minimum: 0, maximum: 65535 };

function portNumber(value: string, name: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw settingOutOfRange(name, 'integer', PORTS, value);
  return port;
}

export function oneOf<T extends string>(value: string, name: string, accepted: readonly T[]): T {
  if (!accepted.includes(value as T)) throw new StartupRefusal(`${name} must be one of ${accepted.join(', ')}, got ${value}`);
  return value as T;
}

/** A timeout of 0 would fail every attempt at once. */
function positive(value: string, name: string): number {
  const number = Number(value);
  if (!Number.isFinite(number) || number <= 0) throw settingOutOfRange(name, 'number', { exclusiveMinimum: 0 }, value);
  return number;
}

/** One delay of a comma-separated list: an empty item ("30,,60") is a typo, not 0 seconds. */
function delaySeconds(item: string, name: string): number {
  if (item.trim() === '') throw new StartupRefusal(`${name} must be numbers separated by commas, each ${inRange('number', NON_NEGATIVE)}, got an empty item`);
  return nonNegative(item.trim(), name);
}

const NON_NEGATIVE: Bounds = { minimum: 0 };

/** A number of things, at least `minimum`: 2.5 failures means nothing an operator meant. */
function count(value: string, name: string, minimum = 0): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < minimum) throw settingOutOfRange(name, 'integer', { minimum }, value);
  return number;
}

function nonNegative(value: string | undefined, name: string): number {
  const number = Number(value ?? '0');
  if (!Number.isFinite(number) || number < 0) throw settingOutOfRange(name, 'number', NON_NEGATIVE, value);
  return number;
}
