/**
 * The package an app installs: its build, typings and the sources its source
 * maps point at, without the tests, fixtures or test support.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

describe('@tally/engine package', () => {
  it('packs dist and the sources, no tests', () => {
    const cwd = fileURLToPath(new URL('..', import.meta.url));
    const [pack] = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd, encoding: 'utf8' }));
    const paths: string[] = pack.files.map((file: { path: string }) => file.path);
    expect(paths).toEqual(expect.arrayContaining(['package.json', 'dist/index.js', 'dist/index.d.ts', 'src/index.ts']));
    expect(paths.filter((path) => !/^(dist|src)\//.test(path) && path !== 'package.json')).toEqual([]);
    expect(paths.filter((path) => path.includes('.test.'))).toEqual([]);
  });
});
