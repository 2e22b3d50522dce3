/**
 * Request validation with ajv. Every JSON Schema under `schemas/` is loaded
 * at start-up and compiled once per thread (by its `$id`: all of them on the
 * main thread as it starts, `compileSchemas`); handlers call
 * `validate(id, body)`. The `wire` keyword checks a contract wire type and
 * rewrites the value to its canonical form (int64 as a decimal string,
 * datetimes in UTC), so handlers only ever see canonical values.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import type { DataValidationCxt, RegExpEngine } from 'ajv/dist/types/index.js';
import addFormatsModule from 'ajv-formats';
import { formatNames, type FormatName } from 'ajv-formats/dist/formats.js';
import { invalidRequest } from './errors.js';
import type { RequestBodies } from '../wire/types.js';
import { WIRE_DESCRIPTIONS, WIRE_TYPES, type WireType } from './wire.js';

const SCHEMAS_DIR = fileURLToPath(new URL('../../../schemas/', import.meta.url));

// ajv-formats is CommonJS: under NodeNext its function is the `default` of the module.
const addFormats = addFormatsModule.default;

function wireValidate(type: WireType, data: unknown, _schema: unknown, cxt?: DataValidationCxt): boolean {
  const canonical = WIRE_TYPES[type](data);
  if (canonical === undefined) {
    wireValidate.errors = [{ keyword: 'wire', message: WIRE_DESCRIPTIONS[type], params: { type } }];
    return false;
  }
  if (cxt?.parentData !== undefined && canonical !== data) {
    (cxt.parentData as Record<string | number, unknown>)[cxt.parentDataProperty] = canonical;
  }
  return true;
}
wireValidate.errors = undefined as Partial<ErrorObject>[] | undefined;

/**
 * Creates an ajv instance with Tally's formats and the `wire` keyword; a
 * Company's schemas get theirs from company-schemas.ts (`regExp`, `formats`).
 */
export function createAjv(options: { removeAdditional?: boolean; regExp?: RegExpEngine; formats?: FormatName[] } = {}): Ajv {
  const ajv = new Ajv({
    allErrors: false,
    // Errors carry their schema and value: schemaError reads a failed oneOf/anyOf's branches to name the fields of a
    // one-of pair, withRanges a field's bounds.
    verbose: true,
    useDefaults: true,
    removeAdditional: options.removeAdditional ? 'all' : false,
    // Strict mode stays on (unknown keywords are errors); its type lint only warns
    // on stderr about valid patterns such as `required` inside `allOf`.
    strictTypes: false,
    ...(options.regExp ? { code: { regExp: options.regExp } } : {}),
  });
  addFormats(ajv, { formats: options.formats ?? formatNames, keywords: true });
  ajv.addKeyword({
    keyword: 'wire',
    schemaType: 'string',
    modifying: true,
    errors: true,
    validate: wireValidate,
    metaSchema: { enum: Object.keys(WIRE_TYPES) },
  });
  return ajv;
}

function schemaFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return schemaFiles(path);
    return entry.name.endsWith('.json') ? [path] : [];
  });
}

/** A JSON Schema document under `schemas/`, as written (named by its `$id`). */
export type SchemaDocument = Readonly<Record<string, unknown>> & { readonly $id: string };

/**
 * Every schema document under `schemas/` (requests and `responses/`), by `$id`:
 * the one source of validation, the wire types (`server/src/wire/types.ts`) and
 * the OpenAPI document (`server/src/openapi/`).
 */
export const SCHEMA_DOCUMENTS: ReadonlyMap<string, SchemaDocument> = new Map(
  schemaFiles(SCHEMAS_DIR)
    .sort()
    .map((file) => {
      const document = JSON.parse(readFileSync(file, 'utf8')) as SchemaDocument;
      return [document.$id, document] as const;
    }),
);

const ajv = createAjv();
const compiled = new Map<string, ValidateFunction>();
for (const document of SCHEMA_DOCUMENTS.values()) ajv.addSchema(document);

/** The compiled check of a schema, compiled on first use. */
function checkOf(id: string): ValidateFunction {
  let check = compiled.get(id);
  if (!check) {
    check = ajv.getSchema(id);
    if (!check) throw new Error(`no schema with $id ${id} under schemas/`);
    compiled.set(id, check);
  }
  return check;
}

/**
 * Compiles the schemas named (every schema under `schemas/` when none is), once
 * per thread. The main thread compiles them all as it starts, so a broken schema
 * stops the server before it listens; a pool worker compiles only the cart's:
 * every schema costs each thread about 1.5 s of CPU at start.
 */
export function compileSchemas(ids: readonly string[] = [...SCHEMA_DOCUMENTS.keys()]): void {
  for (const id of ids) checkOf(id);
}

/**
 * The fields of a oneOf or anyOf whose branches (two or more) are each `{"required": [field]}` (`customer_id` or
 * `customer_code`), in the schema's order, failed on an object; undefined for any other oneOf or anyOf. (On a value
 * that is not an object, where no `type` stops it first, every `required` holds: no field is at fault.)
 */
function alternativesOf(error: Partial<ErrorObject>): string[] | undefined {
  if (error.keyword !== 'oneOf' && error.keyword !== 'anyOf') return undefined;
  if (!Array.isArray(error.schema) || error.schema.length < 2) return undefined;
  if (error.data === null || typeof error.data !== 'object' || Array.isArray(error.data)) return undefined;
  const fields = (error.schema as unknown[]).map((branch) => {
    const required = (branch as { required?: unknown } | null)?.required;
    const single = branch !== null && typeof branch === 'object' && Object.keys(branch).length === 1;
    return single && Array.isArray(required) && required.length === 1 && typeof required[0] === 'string' ? required[0] : undefined;
  });
  return fields.every((field) => field !== undefined) ? (fields as string[]) : undefined;
}

/**
 * A one-of pair of fields (`oneOf`/`anyOf` of `required` branches) answered as the routes that check one in code
 * answer it: none sent, `customer_id: is required (or customer_code)`; two sent where one is allowed,
 * `customer_code: cannot be sent with customer_id`. ajv's own messages name neither field. With allErrors off,
 * validation stops at the failed keyword, so its error is the last one (the branches' errors come before it).
 */
function alternativesError(errors: readonly Partial<ErrorObject>[], root: string): Error | undefined {
  const error = errors[errors.length - 1];
  const fields = alternativesOf(error);
  if (!fields) return undefined;
  const at = fieldOfPointer(root, error.instancePath ?? '');
  const name = (field: string) => [at, field].filter(Boolean).join('.');
  // oneOf's passingSchemas: the branches that held when more than one did (null when none did); anyOf fails only on none.
  const sent = ((error.params as { passingSchemas?: number[] | null }).passingSchemas ?? []).map((branch) => fields[branch]);
  if (sent.length > 1) return invalidRequest(name(sent[1]), `cannot be sent with ${name(sent[0])}`);
  return invalidRequest(name(fields[0]), `is required (or ${fields.slice(1).map(name).join(' or ')})`);
}

/**
 * Turns the first ajv error into invalid_request naming the field, written as
 * the engine and the routes write fields: `lines[0].order`.
 */
export function schemaError(errors: readonly Partial<ErrorObject>[] | null | undefined, root = ''): Error {
  const alternatives = errors && errors.length > 0 ? alternativesError(errors, root) : undefined;
  if (alternatives) return alternatives;
  const error = errors?.[0];
  let field = fieldOfPointer(root, error?.instancePath ?? '');
  let message = error?.message ?? 'is invalid';
  if (error?.keyword === 'required') {
    field = [field, (error.params as { missingProperty: string }).missingProperty].filter(Boolean).join('.');
    message = 'is required';
  } else if (error?.keyword === 'additionalProperties') {
    field = [field, (error.params as { additionalProperty: string }).additionalProperty].filter(Boolean).join('.');
    message = 'is not an accepted field';
  }
  return invalidRequest(field || 'body', message);
}

/** A JSON pointer's tokens, unescaped (`/a~1b/0` → `a/b`, `0`). */
const pointer = (path: string) => path.split('/').slice(1).map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));

/** A JSON pointer (`/lines/0/order`) as a field name (`lines[0].order`), under `root`. */
function fieldOfPointer(root: string, path: string): string {
  let field = root;
  for (const name of pointer(path)) field = /^(0|[1-9][0-9]*)$/.test(name) ? `${field}[${name}]` : [field, name].filter(Boolean).join('.');
  return field;
}

/**
 * The body is parsed losslessly, so an integer beyond 2^53 arrives as a bigint, which ajv reports as "must be
 * integer": the first error then says the value is out of the field's range, with its schema's bounds when it
 * declares both. The schema is the error's own (`parentSchema`, kept by `verbose`), so a field behind a `$ref`,
 * to another document too (`campaigns.params#/$defs/priority`), names its bounds as well.
 */
function withRanges(errors: ValidateFunction['errors']): ValidateFunction['errors'] {
  const error = errors?.[0];
  if (error?.keyword !== 'type' || typeof error.data !== 'bigint') return errors;
  const { minimum, maximum } = (error.parentSchema ?? {}) as { minimum?: number; maximum?: number };
  const bounds = minimum !== undefined && maximum !== undefined ? `: must be ${minimum}..${maximum}` : '';
  return [{ ...error, message: `is out of range${bounds}` }, ...errors!.slice(1)];
}

/**
 * Validates (and canonicalises, in place) a request body against the schema
 * `id` from `schemas/`; throws invalid_request naming the field. The body is
 * typed by the schema (`RequestBodies`, generated from `schemas/` by
 * `npm run schemas`).
 */
export function validate<K extends keyof RequestBodies>(id: K, data: unknown): RequestBodies[K] {
  // The schema of `id` is what RequestBodies[K] was generated from: ajv's guard narrows `data` to it.
  const check = checkOf(id) as ValidateFunction<RequestBodies[K]>;
  if (!check(data)) throw schemaError(withRanges(check.errors));
  return data;
}
