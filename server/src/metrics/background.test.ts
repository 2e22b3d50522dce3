/**
 * The background work's metrics (`tally_background_*`, label `work`): each run counted by outcome and timed, its
 * end time and its last success's (what an alert "has not run for an hour" reads), and the items it processed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../testing/server.js';
import { scrape, scrapeUntil, value, type Sample } from './testing.js';

const runs = (samples: Sample[], work: string, outcome = 'ok') => value(samples, 'tally_background_runs_total', { work, outcome }) ?? 0;
const items = (samples: Sample[], work: string) => value(samples, 'tally_background_items_total', { work }) ?? 0;

describe('background work metrics', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startServer({ env: { METRICS_PORT: '0', POINTS_SETTLEMENT_INTERVAL_MS: '200', AUDIT_LOG_PRUNE_INTERVAL_MS: '200', REFERRAL_POLL_INTERVAL_MS: '100' } });
  });
  afterAll(() => server.dispose());

  it('times and counts each sweep run, with its end and its last success', async () => {
    const first = await scrapeUntil(server, (s) => ['points_settlement', 'audit_retention', 'referrals'].every((work) => runs(s, work) >= 1));
    const startedAt = Date.now() / 1000;
    for (const work of ['points_settlement', 'audit_retention', 'referrals']) {
      const lastSuccess = value(first, 'tally_background_last_success_timestamp_seconds', { work })!;
      expect(lastSuccess).toBeGreaterThan(startedAt - 60);
      expect(lastSuccess).toBeLessThanOrEqual(startedAt + 1);
      expect(value(first, 'tally_background_last_run_timestamp_seconds', { work })).toBeGreaterThanOrEqual(lastSuccess);
      expect(value(first, 'tally_background_run_duration_seconds_count', { work })).toBeGreaterThanOrEqual(runs(first, work));
      expect(value(first, 'tally_background_items_total', { work })).toBe(0);
      expect(runs(first, work, 'failed')).toBe(0);
    }
    // They run again on their timers: the counts and the last success move.
    const later = await scrapeUntil(server, (s) => ['points_settlement', 'audit_retention', 'referrals'].every((work) => runs(s, work) > runs(first, work)));
    for (const work of ['points_settlement', 'audit_retention', 'referrals']) {
      expect(value(later, 'tally_background_last_success_timestamp_seconds', { work })).toBeGreaterThan(value(first, 'tally_background_last_success_timestamp_seconds', { work })!);
    }
  });

  it('counts the referrals rewarded', async () => {
    const before = items(await scrape(server), 'referrals');
    expect((await server.client.post('/customers', { id: 1, name: 'N1', registration_location_id: 1 })).status).toBe(200);
    expect((await server.client.post('/customers', { id: 2, name: 'N2', registration_location_id: 1, referred_by: 1 })).status).toBe(200);
    await scrapeUntil(server, (s) => items(s, 'referrals') === before + 1);
  });

  it('counts each asynchronous merge of transfer-new as a run, the merge completed as its item', async () => {
    expect(runs(await scrape(server), 'merges')).toBe(0);
    for (const id of [10, 11]) expect((await server.client.post('/customers', { id, name: `N${id}`, registration_location_id: 1 })).status).toBe(200);
    expect((await server.client.post('/customers/transfer-new', { old_customer_id: 10, new_customer_id: 11 })).status).toBe(200);
    const merged = await scrapeUntil(server, (s) => runs(s, 'merges') === 1);
    expect(items(merged, 'merges')).toBe(1);
    expect(value(merged, 'tally_background_last_success_timestamp_seconds', { work: 'merges' })).toBeGreaterThan(0);
  });
});
