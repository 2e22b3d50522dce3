import { describe, expect, it } from 'vitest';
import { readConfig } from './config.js';
import { readPoolOptions } from './pool/pool.js';

describe('start-up settings', () => {
  it('state a number\'s range in the words of every other range (docs/decisions.md), naming the setting and the value', () => {
    expect(() => readConfig({ PORT: '70000' })).toThrow('PORT must be an integer between 0 and 65535, got 70000');
    expect(() => readConfig({ METRICS_PORT: '8.5' })).toThrow('METRICS_PORT must be an integer between 0 and 65535, got 8.5');
    expect(() => readConfig({ TALLY_MERGE_DELAY_MS: '-1' })).toThrow('TALLY_MERGE_DELAY_MS must be a number of at least 0, got -1');
    expect(() => readConfig({ AUDIT_LOG_RETENTION_DAYS: 'forever' })).toThrow('AUDIT_LOG_RETENTION_DAYS must be a number of at least 0, got forever');
    expect(() => readConfig({ WEBHOOK_TIMEOUT_MS: '0' })).toThrow('WEBHOOK_TIMEOUT_MS must be a number greater than 0, got 0');
    expect(() => readConfig({ WEBHOOK_RETRY_SECONDS: '30,-1' })).toThrow('WEBHOOK_RETRY_SECONDS must be a number of at least 0, got -1');
    expect(() => readConfig({ REFERRAL_POLL_INTERVAL_MS: '-5' })).toThrow('REFERRAL_POLL_INTERVAL_MS must be a number of at least 0, got -5');
    expect(readConfig({ PORT: '0', METRICS_PORT: '65535' })).toMatchObject({ port: 0, metricsPort: 65535, referralPollMs: 200 });
  });

  // `KEY=${UNSET}` in a compose or unit file: empty read as 0, which turned the failed-authentication limit, queue
  // bounds and settlement off, and listened on a random port.
  it('take a setting set empty as unset: its default applies', () => {
    const empty = Object.fromEntries(['PORT', 'AUTH_FAILURE_LIMIT', 'AUDIT_LOG_RETENTION_DAYS', 'POINTS_SETTLEMENT_INTERVAL_MS', 'STORE_FILE_HEADROOM_MB', 'METRICS_PORT', 'LOG_LEVEL'].map((name) => [name, '']));
    expect(readConfig({ ...empty, WEBHOOK_TIMEOUT_MS: '  ' })).toEqual(readConfig({}));
    expect(readConfig({ AUTH_FAILURE_LIMIT: '' })).toMatchObject({ port: 8080, authFailureLimit: 20, auditRetentionDays: 365 });
    expect(readPoolOptions({ WORKERS: '', CART_QUEUE_LIMIT: '', CART_TASKS_PER_WORKER: '' })).toEqual(readPoolOptions({}));
  });

  it('refuse METRICS_PORT equal to PORT on the same host: metrics have a port of their own', () => {
    expect(() => readConfig({ PORT: '4721', METRICS_PORT: '4721' })).toThrow('METRICS_PORT must be another port than PORT (4721): metrics are served on a port of their own');
    expect(() => readConfig({ PORT: '4721', METRICS_PORT: '4721', HOST: '0.0.0.0', METRICS_HOST: '10.0.0.5' })).toThrow(/^METRICS_PORT must be another port/);
    expect(readConfig({ PORT: '4721', METRICS_PORT: '4721', HOST: '10.0.0.4', METRICS_HOST: '10.0.0.5' })).toMatchObject({ port: 4721, metricsPort: 4721 });
    expect(readConfig({ PORT: '0', METRICS_PORT: '0' })).toMatchObject({ port: 0, metricsPort: 0 });
  });

  it('take LIST_SCAN_LIMIT as a whole number of at least 1 (default 1000): 0 would end no filtered list', () => {
    expect(readConfig({}).listScanLimit).toBe(1000);
    expect(readConfig({ LIST_SCAN_LIMIT: '1' }).listScanLimit).toBe(1);
    for (const value of ['0', '-1', '2.5', 'all']) {
      expect(() => readConfig({ LIST_SCAN_LIMIT: value })).toThrow(`LIST_SCAN_LIMIT must be an integer of at least 1, got ${value}`);
    }
  });

  it('take STORE_FILE_HEADROOM_MB as a whole number of MB (default 64; 0 keeps no headroom)', () => {
    expect(readConfig({}).storeFileHeadroomMb).toBe(64);
    expect(readConfig({ STORE_FILE_HEADROOM_MB: '0' }).storeFileHeadroomMb).toBe(0);
    for (const value of ['-1', '2.5', 'lots']) {
      expect(() => readConfig({ STORE_FILE_HEADROOM_MB: value })).toThrow(`STORE_FILE_HEADROOM_MB must be an integer of at least 0, got ${value}`);
    }
  });

  it('refuse a switch or a name outside its values, naming the setting and what it takes, rather than falling back to a default', () => {
    // `false` or `0` meant to switch the limits off for a load test; only `off` did, and anything else silently left them on.
    for (const value of ['false', '0', 'OFF', 'no']) {
      expect(() => readConfig({ TALLY_RATE_LIMITS: value })).toThrow(`TALLY_RATE_LIMITS must be one of on, off, got ${value}`);
    }
    expect(readConfig({}).rateLimits).toBe(true);
    expect(readConfig({ TALLY_RATE_LIMITS: 'on' }).rateLimits).toBe(true);
    expect(readConfig({ TALLY_RATE_LIMITS: 'off' }).rateLimits).toBe(false);
    // pino's own refusal named neither the setting nor the levels (`default level:verbose must be included in custom levels`).
    expect(() => readConfig({ LOG_LEVEL: 'verbose' })).toThrow('LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got verbose');
    expect(readConfig({}).logLevel).toBe('info');
    expect(readConfig({ LOG_LEVEL: 'warn' }).logLevel).toBe('warn');
  });

  it('refuse a TALLY_BOOTSTRAP_KEY that cannot be stored or sent, naming it (LMDB keys hold at most 1978 bytes)', () => {
    expect(readConfig({ TALLY_BOOTSTRAP_KEY: 'k'.repeat(1978), TALLY_BOOTSTRAP_SECRET: 's'.repeat(16) }).bootstrapKey).toHaveLength(1978);
    expect(() => readConfig({ TALLY_BOOTSTRAP_KEY: 'k'.repeat(1979) })).toThrow('TALLY_BOOTSTRAP_KEY must be at most 1978 bytes (UTF-8), got 1979');
    // Counted in bytes, as stored: 990 two-byte characters.
    expect(() => readConfig({ TALLY_BOOTSTRAP_KEY: 'é'.repeat(990) })).toThrow('TALLY_BOOTSTRAP_KEY must be at most 1978 bytes (UTF-8), got 1980');
    expect(() => readConfig({ TALLY_BOOTSTRAP_KEY: `\u0001${'k'.repeat(1977)}` })).toThrow('TALLY_BOOTSTRAP_KEY must not hold control characters');
    expect(readConfig({}).bootstrapKey).toBeUndefined();
  });

  it('refuse a TALLY_BOOTSTRAP_SECRET under 16 characters, telling its length and never the secret', () => {
    expect(() => readConfig({ TALLY_BOOTSTRAP_SECRET: 's'.repeat(15) })).toThrow('TALLY_BOOTSTRAP_SECRET must be at least 16 characters, got 15');
    expect(() => readConfig({ TALLY_BOOTSTRAP_SECRET: 'secret' })).toThrow(/^TALLY_BOOTSTRAP_SECRET must be at least 16 characters, got 6$/);
    // Characters, not UTF-16 units: 8 emoji are 8 characters.
    expect(() => readConfig({ TALLY_BOOTSTRAP_SECRET: '🔑'.repeat(8) })).toThrow('got 8');
    expect(readConfig({ TALLY_BOOTSTRAP_KEY: 'k', TALLY_BOOTSTRAP_SECRET: 's'.repeat(16) }).bootstrapSecret).toBe('s'.repeat(16));
    expect(readConfig({}).bootstrapSecret).toBeUndefined();
  });

  it('refuse TALLY_BOOTSTRAP_KEY without TALLY_BOOTSTRAP_SECRET and the other way round (both or neither)', () => {
    const message = 'set both TALLY_BOOTSTRAP_KEY and TALLY_BOOTSTRAP_SECRET, or neither';
    expect(() => readConfig({ TALLY_BOOTSTRAP_KEY: 'till-key' })).toThrow(message);
    expect(() => readConfig({ TALLY_BOOTSTRAP_SECRET: 's'.repeat(16) })).toThrow(message);
    // An empty value is no value.
    expect(() => readConfig({ TALLY_BOOTSTRAP_KEY: 'till-key', TALLY_BOOTSTRAP_SECRET: '' })).toThrow(message);
    expect(readConfig({ TALLY_BOOTSTRAP_KEY: '', TALLY_BOOTSTRAP_SECRET: '' })).toMatchObject({ bootstrapKey: undefined, bootstrapSecret: undefined });
  });

  it('take AUTH_FAILURE_LIMIT as a whole number of at least 0 (default 20) and AUTH_FAILURE_WINDOW_MS above 0 (default 60000)', () => {
    expect(readConfig({})).toMatchObject({ authFailureLimit: 20, authFailureWindowMs: 60000 });
    expect(readConfig({ AUTH_FAILURE_LIMIT: '0', AUTH_FAILURE_WINDOW_MS: '500' })).toMatchObject({ authFailureLimit: 0, authFailureWindowMs: 500 });
    expect(() => readConfig({ AUTH_FAILURE_LIMIT: '2.5' })).toThrow('AUTH_FAILURE_LIMIT must be an integer of at least 0, got 2.5');
    expect(() => readConfig({ AUTH_FAILURE_LIMIT: '-1' })).toThrow('AUTH_FAILURE_LIMIT must be an integer of at least 0, got -1');
    expect(() => readConfig({ AUTH_FAILURE_WINDOW_MS: '0' })).toThrow('AUTH_FAILURE_WINDOW_MS must be a number greater than 0, got 0');
  });
});
