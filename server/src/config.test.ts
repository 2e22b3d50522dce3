import { describe, expect, it } from 'vitest';
import { readConfig } from './config.js';

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
});
