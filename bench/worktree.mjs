/**
 * The baseline checkout of the A/B benches (service-ab.mjs, http-ab.mjs): a
 * `git worktree add <dir> <rev>` of this repository, made ready to run.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, symlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Links the baseline's node_modules to this checkout's (its @tally packages are its own: one lmdb-js for both builds) and builds it. */
function prepareBaseline(dir) {
  const modules = join(dir, 'node_modules');
  if (!existsSync(modules)) {
    mkdirSync(join(modules, '@tally'), { recursive: true });
    for (const entry of readdirSync(join(ROOT, 'node_modules'))) {
      if (entry !== '@tally') symlinkSync(join(ROOT, 'node_modules', entry), join(modules, entry));
    }
    for (const pkg of ['engine', 'server']) symlinkSync(join(dir, pkg), join(modules, '@tally', pkg));
  }
  if (!existsSync(join(dir, 'server/dist/carts/service.js'))) execFileSync('npx', ['tsc', '-b'], { cwd: dir, stdio: 'inherit' });
}

/** The baseline checkout named on the command line of `script`, made ready; exits with its usage when there is none. */
export function baselineFromArgs(script) {
  const baseline = process.argv[2] && resolve(process.argv[2]);
  if (!baseline || !existsSync(join(baseline, 'server/src'))) {
    console.error(`usage: node bench/${script} <baseline checkout (a git worktree of this repository)>`);
    process.exit(2);
  }
  prepareBaseline(baseline);
  return baseline;
}
