/** Reading a started server's metrics in tests: its scrape, parsed into samples. */
import { expect } from 'vitest';
import type { TestServer } from '../testing/server.js';

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of a Prometheus text exposition (comments skipped). */
export function parseExposition(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) continue;
    const labels: Record<string, string> = {};
    for (const [, name, value] of (match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[name] = value;
    samples.push({ name: match[1], labels, value: Number(match[3]) });
  }
  return samples;
}

/** The value of the series `name` whose labels include `labels` (undefined when there is none). */
export function value(samples: Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  const found = samples.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  return found?.value;
}

/** `GET /metrics` on the server's METRICS_PORT (expected 200, Prometheus text), parsed. */
export async function scrape(server: TestServer): Promise<Sample[]> {
  const res = await fetch(`http://127.0.0.1:${server.metricsPort}/metrics`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return parseExposition(await res.text());
}

/** Scrapes until `check` holds of the samples (10 s at most): the background work moves on its own timers. */
export async function scrapeUntil(server: TestServer, check: (samples: Sample[]) => boolean): Promise<Sample[]> {
  for (let i = 0; i < 200; i++) {
    const samples = await scrape(server);
    if (check(samples)) return samples;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the metrics did not get there in 10 s');
}
