import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['engine/src/**/*.test.ts', 'server/src/**/*.test.ts', 'property-tests/**/*.test.ts', 'schemas/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
