/**
 * `npm run schemas`: regenerates what is made from schemas/ — the wire types
 * (server/src/wire/types.ts) and the OpenAPI document (docs/openapi.json).
 * Needs a build of the server (the npm script runs tsc -b first). Tests only
 * compare these files with what the generators make now (schemas/sync.test.ts).
 */
import { writeFileSync } from 'node:fs';
import { SCHEMA_DOCUMENTS } from '../server/dist/http/validation.js';
import { openApiText } from '../server/dist/openapi/document.js';
import { wireTypes } from './wire-types.mjs';

const root = new URL('../', import.meta.url);
const outputs = [
  ['server/src/wire/types.ts', await wireTypes(SCHEMA_DOCUMENTS)],
  ['docs/openapi.json', openApiText()],
];
for (const [path, text] of outputs) {
  writeFileSync(new URL(path, root), text);
  console.log(`wrote ${path}`);
}
