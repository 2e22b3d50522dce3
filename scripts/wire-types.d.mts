/** Types of wire-types.mjs for the TypeScript tests that import it (schemas/sync.test.ts). */
export function wireTypes(documents: ReadonlyMap<string, Readonly<Record<string, unknown>>>): Promise<string>;
