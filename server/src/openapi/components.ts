/**
 * The schema documents of `schemas/` as OpenAPI 3.1 components. A document
 * becomes the component named by its `$id`; each of its `$defs` becomes the
 * component `<$id>.<name>` (tools resolve a flat list more reliably than
 * pointers into a component). References are rewritten to
 * `#/components/schemas/...`, the `wire` keyword (an ajv extension) is
 * replaced by the plain JSON Schema of what it accepts, `patternDescription`
 * (another) by a `description` saying it, where the schema has none of its own,
 * `isoCountry` and `isoLanguage` (the pattern's words already say a country's or a language's code) dropped,
 * and `languageTexts` (a fourth) by a `description` of the rule it checks.
 */
import { MAX_POINTS } from '@tally/engine';
import { mustBeAnyOf } from '../http/errors.js';
import { WIRE_DESCRIPTIONS, type WireType } from '../http/wire.js';
import type { SchemaDocument } from '../http/validation.js';
import { hasBody, parseSchemaRef } from './schema-refs.js';

type Json = Record<string, unknown>;

const WIRE_SCHEMAS: Record<WireType, Json> = {
  int64: { type: ['integer', 'string'], format: 'int64', minimum: 1, pattern: '^[0-9]{1,19}$' },
  points: { type: ['integer', 'string'], format: 'int64', minimum: 1, maximum: MAX_POINTS, pattern: '^[0-9]+$' },
  date: { type: 'string', format: 'date' },
  // Not format date-time: offsets without a colon (-0500) are accepted too.
  datetime: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d{1,9})?(Z|[+-]\\d{2}:?\\d{2})?$' },
  slug: { type: 'string', pattern: '^[A-Za-z0-9_-]+$' },
  big_integer: { type: 'integer' },
};

const COMPONENTS = '#/components/schemas/';

const LANGUAGE_TEXTS = "A text, or an object of texts by language code that holds the Company's default language and only languages the Company configures (PATCH /company `languages`).";

/** `X#/$defs/y` (or `#/$defs/y` inside X) → the component `X.y`; `X` → `X`. */
function componentRef(ref: string, owner?: string): string {
  const { id, def, pointer } = parseSchemaRef(ref, owner);
  return def === undefined ? `${COMPONENTS}${id}${pointer}` : `${COMPONENTS}${id}.${def}`;
}

/** A copy of `schema` with component references and without ajv-only keywords. */
export function toOpenApiSchema(schema: unknown, owner?: string): unknown {
  if (Array.isArray(schema)) return schema.map((item) => toOpenApiSchema(item, owner));
  if (schema === null || typeof schema !== 'object') return schema;
  const out: Json = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === '$id' || key === '$defs' || key === 'isoCountry' || key === 'isoLanguage') continue;
    if (key === '$ref' && typeof value === 'string') out.$ref = componentRef(value, owner);
    else if (key === 'patternDescription') out.description ??= `The value ${mustBeAnyOf(value as string)}.`;
    else if (key === 'languageTexts') out.description ??= LANGUAGE_TEXTS;
    else if (key === 'wire') Object.assign(out, WIRE_SCHEMAS[value as WireType], { description: `The value ${mustBeAnyOf(WIRE_DESCRIPTIONS[value as WireType])}.` });
    else out[key] = toOpenApiSchema(value, owner);
  }
  return out;
}

/** `components.schemas` of every schema document, in `$id` order. */
export function schemaComponents(documents: Iterable<SchemaDocument>): Json {
  const components: Json = {};
  const add = (name: string, schema: unknown, owner: string) => {
    if (name in components) throw new Error(`two schemas make the OpenAPI component ${name}`);
    components[name] = toOpenApiSchema(schema, owner);
  };
  for (const document of [...documents].sort((a, b) => (a.$id < b.$id ? -1 : 1))) {
    const { $defs, ...body } = document as Json & { $defs?: Json };
    if (hasBody(document)) add(document.$id, body, document.$id);
    for (const [name, def] of Object.entries($defs ?? {})) add(`${document.$id}.${name}`, def, document.$id);
  }
  return components;
}
