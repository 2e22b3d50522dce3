/**
 * The engine's source stays pure: no clock, no ambient randomness, no Node
 * module or global (the browser bundle test proves it runs; this names the
 * culprit when a change breaks the rule).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('.', import.meta.url));
const FORBIDDEN = [/\bDate\.now\s*\(/, /\bMath\.random\s*\(/, /new Date\(\s*\)/, /\bprocess\./, /from ['"]node:/, /\brequire\(/, /\bperformance\.now\(/];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

describe('engine purity', () => {
  it.each(sources(root).map((path) => [path.slice(root.length)]))('%s uses no clock, random source or Node API', (file) => {
    const code = readFileSync(join(root, file), 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/\/\/.*$/gm, '');
    for (const pattern of FORBIDDEN) expect(code).not.toMatch(pattern);
  });
});
