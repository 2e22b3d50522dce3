import { defineConfig } from 'vitest/config';

// vitest 5's reporter calls Map.groupBy (Node 21+) when it prints a failure;
// Node 20 lacks it, and the reporter would crash and hide the failing test.
if (typeof (Map as { groupBy?: unknown }).groupBy !== 'function') {
  Object.defineProperty(Map, 'groupBy', {
    configurable: true,
    writable: true,
    value<K, T>(items: Iterable<T>, keyOf: (item: T, index: number) => K): Map<K, T[]> {
      const groups = new Map<K, T[]>();
      let index = 0;
      for (const item of items) {
        const key = keyOf(item, index++);
        const group = groups.get(key);
        if (group) group.push(item);
        else groups.set(key, [item]);
      }
      return groups;
    },
  });
}

export default defineConfig({
  test: {
    include: ['engine/src/**/*.test.ts', 'server/src/**/*.test.ts', 'property-tests/**/*.test.ts', 'schemas/**/*.test.ts'],
    // vitest runs availableParallelism() - 1 files at once: one on these 2-core machines. Most files wait on a
    // server process they started, so two at once halve the wall time without starving either.
    maxWorkers: 2,
    // One process per vitest worker for all its files, not one per file: no test file mocks modules or changes
    // process-wide state, and each file's import of the harness and the server's modules was paid again.
    isolate: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
