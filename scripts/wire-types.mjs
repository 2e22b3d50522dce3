/**
 * The TypeScript types of every schema under schemas/ (server/src/wire/types.ts),
 * made with json-schema-to-typescript from one bundle of all the documents, so
 * a shape referenced by several schemas is declared once.
 *
 * - A request schema `customers.create` is `CustomersCreate`; a schema with a
 *   `title` takes it (the response schemas: `CustomerResponse`, ...).
 * - A `$defs` entry with properties is a named type `<Schema><Def>`; a scalar
 *   one (int64, text, ...) is written inline.
 * - The `wire` keyword is a string: after validate() an int64 is a canonical
 *   decimal string and a datetime is in UTC (docs/http.md).
 * - A request property with a `default` is required in its type: validate()
 *   fills it in (ajv's useDefaults; strict mode refuses a default where ajv
 *   would ignore it, under anyOf, oneOf or not).
 * - `RequestBodies` maps each request schema `$id` to its type (the typed
 *   `validate`), `ResponseBodies` each response schema `$id`.
 */
import { compile } from 'json-schema-to-typescript';
import { hasBody, parseSchemaRef } from '../server/dist/openapi/schema-refs.js';

const BANNER = `/* Generated from schemas/ by \`npm run schemas\` (scripts/wire-types.mjs). Do not edit: edit the schemas. */`;

const pascal = (text) => text.split(/[^A-Za-z0-9]+/).filter(Boolean).map((part) => part[0].toUpperCase() + part.slice(1)).join('');
const isResponse = (id) => id.startsWith('responses.');
const typeName = (document) => document.title ?? pascal(document.$id);
const defName = (id, def) => pascal(id.replace(/^responses\./, '')) + pascal(def);
const hasProperties = (schema) => JSON.stringify(schema).includes('"properties"');
const key = (id) => id.replace(/\./g, '_');
const COMBINATORS = ['allOf', 'anyOf', 'oneOf'];
const SHAPE_KEYWORDS = ['type', 'properties', '$ref', 'items', 'enum', 'const', 'wire', ...COMBINATORS];
/**
 * A branch of allOf/anyOf/oneOf that only constrains (`{required: [...]}`,
 * `{not: ...}`) adds nothing to the TypeScript shape; kept, it would become an
 * index-signature type. Such branches are left out of the types (ajv checks them).
 */
const isShape = (branch) => SHAPE_KEYWORDS.some((keyword) => keyword in branch);

/** The document id and `$defs` entry a `$ref` names (only whole documents and `$defs` entries are used in schemas/). */
function target(ref, owner) {
  const { id, def, pointer } = parseSchemaRef(ref, owner);
  if (pointer !== '' && def === undefined) throw new Error(`$ref ${ref}: only whole schemas and $defs entries are supported`);
  return [id, def];
}

/** The properties of an object schema that have a default. */
const defaulted = (schema) =>
  Object.entries(schema.properties ?? {}).filter(([, property]) => typeof property === 'object' && 'default' in property).map(([name]) => name);

function rewrite(schema, owner, documents) {
  if (Array.isArray(schema)) return schema.map((item) => rewrite(item, owner, documents));
  if (schema === null || typeof schema !== 'object') return schema;
  if (typeof schema.wire === 'string') {
    const { wire, ...rest } = schema;
    // A big integer stays the parser's bigint; every other wire type is canonical text after validate().
    return wire === 'big_integer' ? { ...rewrite(rest, owner, documents), tsType: 'bigint' } : { ...rewrite(rest, owner, documents), type: 'string' };
  }
  if (typeof schema.$ref === 'string') {
    const [id, def] = target(schema.$ref, owner);
    const document = documents.get(id);
    if (!document) throw new Error(`$ref ${schema.$ref} in ${owner}: no schema ${id}`);
    const referenced = def === undefined ? document : document.$defs?.[def];
    if (referenced === undefined) throw new Error(`$ref ${schema.$ref} in ${owner}: not found`);
    const { $ref, ...siblings } = schema;
    if (def !== undefined && !hasProperties(referenced)) return { ...rewrite(referenced, id, documents), ...rewrite(siblings, owner, documents) };
    return { ...rewrite(siblings, owner, documents), $ref: def === undefined ? `#/$defs/${key(id)}` : `#/$defs/${key(id)}/$defs/${def}` };
  }
  const out = {};
  const filled = isResponse(owner) ? [] : defaulted(schema);
  if (filled.length > 0) out.required = [...new Set([...(schema.required ?? []), ...filled])];
  for (const [name, value] of Object.entries(schema)) {
    if (name === '$id' || name === '$comment' || (name === 'required' && 'required' in out)) continue;
    if (name === 'properties') {
      // A map of names to schemas, not a schema itself.
      out[name] = Object.fromEntries(Object.entries(value).map(([property, schema]) => [property, rewrite(schema, owner, documents)]));
    } else if (COMBINATORS.includes(name)) {
      const shapes = value.filter(isShape);
      if (shapes.length > 0) out[name] = rewrite(shapes, owner, documents);
    } else {
      out[name] = rewrite(value, owner, documents);
    }
  }
  return out;
}

/** One JSON Schema holding every document under `$defs`, rooted at the two maps of bodies. */
function bundle(documents) {
  const defs = {};
  const requests = {};
  const responses = {};
  for (const document of [...documents.values()].sort((a, b) => (a.$id < b.$id ? -1 : 1))) {
    const { $defs = {}, ...rest } = rewrite(document, document.$id, documents);
    const named = Object.fromEntries(Object.entries($defs).map(([name, def]) => [name, hasProperties(def) ? { ...def, title: defName(document.$id, name) } : def]));
    defs[key(document.$id)] = { ...rest, title: typeName(document), $defs: named };
    if (hasBody(document)) (isResponse(document.$id) ? responses : requests)[document.$id] = { $ref: `#/$defs/${key(document.$id)}` };
  }
  const map = (title, description, properties) => ({ title, description, type: 'object', additionalProperties: false, required: Object.keys(properties), properties });
  return {
    title: 'WireBodies',
    description: 'Every body type by schema $id.',
    type: 'object',
    additionalProperties: false,
    required: ['requests', 'responses'],
    properties: {
      requests: map('RequestBodies', 'Request bodies after validate() (canonical values), by schema $id.', requests),
      responses: map('ResponseBodies', 'Response bodies, by schema $id.', responses),
    },
    $defs: defs,
  };
}

/** The text of server/src/wire/types.ts for these schema documents (by `$id`). */
export async function wireTypes(documents) {
  return compile(bundle(documents), 'WireBodies', {
    bannerComment: BANNER,
    additionalProperties: false,
    strictIndexSignatures: true,
    unknownAny: true,
    declareExternallyReferenced: true,
    ignoreMinAndMaxItems: true,
    style: { singleQuote: true, printWidth: 120 },
  });
}
