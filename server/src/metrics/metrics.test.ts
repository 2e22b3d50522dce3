import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cartBody } from '../testing/carts.js';
import { startServer, type TestServer } from '../testing/server.js';
import { scrape as scrapeServer, value, type Sample } from './testing.js';

const metricsLines = (server: TestServer) => server.lines.filter((line) => line.includes('"metrics listening"'));

describe('without METRICS_PORT', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ env: { WORKERS: '0' } });
  });
  afterAll(() => server.dispose());

  it('starts no metrics listener', async () => {
    expect((await server.client.get('/company')).status).toBe(200);
    expect(metricsLines(server)).toEqual([]);
    expect(server.metricsPort).toBeUndefined();
  });
});

describe('METRICS_PORT=0: Prometheus metrics on their own listener', () => {
  let server: TestServer;
  const scrape = (): Promise<Sample[]> => scrapeServer(server);
  beforeAll(async () => {
    server = await startServer({ env: { METRICS_PORT: '0', WORKERS: '1', REALTIME_WORKERS: '1', TALLY_RATE_LIMITS: 'on' } });
  });
  afterAll(() => server.dispose());

  it('logs `metrics listening` with its host and port', () => {
    const [line] = metricsLines(server).map((l) => JSON.parse(l) as { host: string; port: number });
    expect(line.host).toBe('127.0.0.1');
    expect(line.port).toBe(server.metricsPort);
    expect(line.port).not.toBe(server.port);
  });

  it('counts answers by operation id and status, and times them', async () => {
    const requests = { operation: 'customers.create' };
    const before = await scrape();
    expect((await server.client.post('/customers', { id: 1, name: 'N', registration_location_id: 1 })).status).toBe(200);
    expect((await server.client.post('/customers', { id: 'not a number' })).status).toBe(400);
    const after = await scrape();
    const count = (samples: Sample[], status: string) => value(samples, 'tally_http_requests_total', { ...requests, status }) ?? 0;
    expect(count(after, '200') - count(before, '200')).toBe(1);
    expect(count(after, '400') - count(before, '400')).toBe(1);
    // The histogram counts every answer of the operation, whatever its status.
    const total = after.filter((s) => s.name === 'tally_http_requests_total' && s.labels.operation === 'customers.create').reduce((sum, s) => sum + s.value, 0);
    expect(value(after, 'tally_http_request_duration_seconds_count', requests)).toBe(total);
    expect(value(after, 'tally_http_request_duration_seconds_bucket', { ...requests, le: '+Inf' })).toBe(total);
    expect(value(after, 'tally_http_request_duration_seconds_sum', requests)).toBeGreaterThan(0);
  });

  it('counts a path no operation answers as "unknown", never by its path', async () => {
    const res = await server.client.get('/no/such/path/42');
    expect(res.status).toBe(404);
    const samples = await scrape();
    expect(value(samples, 'tally_http_requests_total', { operation: 'unknown', status: '404' })).toBeGreaterThanOrEqual(1);
    expect(samples.some((s) => Object.values(s.labels).some((v) => v.includes('/no/such')))).toBe(false);
  });

  it('counts a path refused for its value under the operation it names', async () => {
    // Routed to customers.get, refused before its handler (the value is longer than a key holds).
    expect((await server.client.get(`/customers/${'x'.repeat(2_000)}`)).status).toBe(400);
    const samples = await scrape();
    expect(value(samples, 'tally_http_requests_total', { operation: 'customers.get', status: '400' })).toBe(1);
  });

  it('reads the cart pools\' Piscina counters at scrape time', async () => {
    expect((await server.client.post('/carts/realtime', cartBody(10, { id: 1 }))).status).toBe(200);
    expect((await server.client.post('/carts/simulate', cartBody(10))).status).toBe(200);
    const samples = await scrape();
    for (const pool of ['simulate', 'realtime']) {
      expect(value(samples, 'tally_pool_queue_size', { pool })).toBe(0);
      expect(value(samples, 'tally_pool_utilization', { pool })).toBeGreaterThanOrEqual(0);
      expect(value(samples, 'tally_pool_tasks_completed_total', { pool })).toBeGreaterThanOrEqual(1);
    }
  });

  it('reads LMDB\'s commit counters and file size at scrape time', async () => {
    const before = await scrape();
    expect((await server.client.post('/customers', { id: 2, name: 'N', registration_location_id: 1 })).status).toBe(200);
    const after = await scrape();
    expect(value(after, 'tally_store_transactions_total')!).toBeGreaterThan(value(before, 'tally_store_transactions_total')!);
    expect(value(after, 'tally_store_pages_written_total')!).toBeGreaterThan(value(before, 'tally_store_pages_written_total')!);
    for (const name of ['lock_wait', 'transaction', 'page_write', 'sync']) {
      expect(value(after, `tally_store_${name}_seconds_total`)).toBeGreaterThanOrEqual(value(before, `tally_store_${name}_seconds_total`)!);
    }
    expect(value(after, 'tally_store_file_bytes')).toBeGreaterThan(0);
    // prom-client's process and Node metrics, under the same prefix.
    expect(value(after, 'tally_process_cpu_seconds_total')).toBeGreaterThan(0);
  });

  it('answers 404 on the metrics port for anything but GET /metrics', async () => {
    for (const [method, path] of [['GET', '/'], ['GET', '/customers'], ['POST', '/metrics']]) {
      expect((await fetch(`http://127.0.0.1:${server.metricsPort}${path}`, { method })).status).toBe(404);
    }
  });

  it('does not serve metrics on the API port', async () => {
    const res = await server.client.get('/metrics');
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('route_not_found');
    expect(res.text).not.toContain('tally_');
  });

  it('counts the requests the rate limits refused, by tier', async () => {
    // GET /company is Tier 3 (10 a second): a burst meets 429s.
    const answers = await Promise.all(Array.from({ length: 60 }, () => server.client.get('/company')));
    const limited = answers.filter((a) => a.status === 429).length;
    expect(limited).toBeGreaterThan(0);
    const samples = await scrape();
    expect(value(samples, 'tally_rate_limited_total', { tier: 'tier_3' })).toBe(limited);
    expect(value(samples, 'tally_http_requests_total', { operation: 'company.get', status: '429' })).toBe(limited);
  });
});
