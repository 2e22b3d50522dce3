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
import { cannotBeSentWith, invalidRequest, requiredOr } from './errors.js';
import { atMostCharacters } from './params.js';
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
    // one-of pair, and a bigint's bounds from the schema that declares its field.
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
  if (sent.length > 1) return cannotBeSentWith(name(sent[1]), name(sent[0]));
  return requiredOr(name(fields[0]), ...fields.slice(1).map(name));
}

/** The types a `type` error names (`["integer", "null"]` reaches ajv's params as `integer,null`). */
const typesOf = (error: Partial<ErrorObject>) => String((error.params as { type: string | string[] }).type).split(',');

/** `must be string`, `must be string or null`, `must be string, number or null`: null last, the value to clear a field. */
function mustBe(types: readonly string[]): string {
  const unique = [...new Set(types)];
  const names = [...unique.filter((type) => type !== 'null'), ...unique.filter((type) => type === 'null')];
  return `must be ${names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}`}`;
}

/**
 * An integer beyond 2^53: the body is parsed losslessly, so it arrives as a bigint, which ajv reports as "must be
 * integer". The value is a number, out of the field's range (not the type error it would be for a string field).
 */
const outOfRange = (error: Partial<ErrorObject>) =>
  error.keyword === 'type' && typeof error.data === 'bigint' && typesOf(error).some((type) => type === 'integer' || type === 'number');

/** The value is not of a type the schema (or one alternative of an anyOf/oneOf) takes, at `at`. */
const mismatch = (error: Partial<ErrorObject>, at: string | undefined) => error.keyword === 'type' && error.instancePath === at && !outOfRange(error);

/**
 * The error to answer. With allErrors off, validation stops at the first failed keyword: its error is the last,
 * and when it is an anyOf or a oneOf that no alternative passed (`[string, null]` for a field null clears), the
 * alternatives' errors come before it. Then the alternative whose type the value has says what is wrong (`surname_1:
 * must be at most 255 characters`, not the first alternative's `must be null`), first one that failed inside
 * the value (`coupons_desired[0]: must be string`, not the enum alternative's complaint); when the value has none of
 * their types, the answer lists them (`code: must be string or null`). Otherwise the first error, as ajv lists them.
 */
function reportedError(errors: readonly Partial<ErrorObject>[]): Partial<ErrorObject> {
  const failed = errors[errors.length - 1];
  // A oneOf more than one alternative passed: its own message says so (errors before it are of those that failed).
  if (failed.keyword === 'oneOf' && (failed.params as { passingSchemas?: unknown }).passingSchemas) return failed;
  if (failed.keyword !== 'anyOf' && failed.keyword !== 'oneOf') return errors[0];
  const theirs = errors.slice(0, -1).filter((error) => error.keyword !== 'anyOf' && error.keyword !== 'oneOf');
  const inside = theirs.find((error) => error.instancePath?.startsWith(`${failed.instancePath}/`));
  const telling = inside ?? theirs.find((error) => !mismatch(error, failed.instancePath));
  if (telling || theirs.length === 0) return telling ?? failed;
  return { ...failed, keyword: 'type', params: { type: theirs.flatMap(typesOf).join(',') } };
}

/** An enum's values listed in its message up to this many; a longer list is not read in an error line. */
const LISTED_VALUES = 10;

/** A value of an enum or const as the messages write it: text bare, as the routes list theirs (`must be one of a, b`), but `""`. */
const valueText = (value: unknown) => (typeof value === 'string' && value !== '' ? value : JSON.stringify(value));

/** `at least 2 items`, `at most 1 item`. */
const count = (limit: number, noun: string) => `${limit} ${noun}${limit === 1 ? '' : 's'}`;

/**
 * ajv's messages of sizes and allowed values in the words the routes and the engine use for the same checks
 * (`must be at most 255 characters`, `must not be empty`, `must be one of a, b`): ajv's own ("must NOT have more
 * than 255 characters", "must be equal to one of the allowed values") are another wording, and name no value.
 */
function ownMessage(error: Partial<ErrorObject>): string | undefined {
  const params = (error.params ?? {}) as { limit?: number; allowedValues?: unknown[]; allowedValue?: unknown; i?: number; j?: number };
  const limit = Number(params.limit);
  const atLeast = (verb: string, noun: string) => (limit === 1 ? 'must not be empty' : `must ${verb} at least ${count(limit, noun)}`);
  switch (error.keyword) {
    case 'maxLength':
      return atMostCharacters(limit);
    case 'minLength':
      return atLeast('be', 'character');
    case 'maxItems':
      return `must have at most ${count(limit, 'item')}`;
    case 'minItems':
      return atLeast('have', 'item');
    case 'maxProperties':
      return `must have at most ${count(limit, 'field')}`;
    case 'minProperties':
      return atLeast('have', 'field');
    case 'uniqueItems': {
      const [first, second] = [Number(params.i), Number(params.j)].sort((a, b) => a - b);
      return `must not have duplicate items (items ${first} and ${second} are identical)`;
    }
    case 'enum': {
      const values = params.allowedValues ?? [];
      return `must be one of ${values.length <= LISTED_VALUES ? values.map(valueText).join(', ') : 'the allowed values'}`;
    }
    case 'const':
      return `must be ${valueText(params.allowedValue)}`;
    default:
      return undefined;
  }
}

/** The message of an error: a type error names its types as the answers write alternatives, a bigint its range. */
function messageOf(error: Partial<ErrorObject>): string {
  if (outOfRange(error)) {
    // The bounds of the schema that declares the field, wherever it is ($ref'd documents included).
    const { minimum, maximum } = (error.parentSchema ?? {}) as { minimum?: unknown; maximum?: unknown };
    return typeof minimum === 'number' && typeof maximum === 'number' ? `is out of range: must be ${minimum}..${maximum}` : 'is out of range';
  }
  if (error.keyword === 'type') return mustBe(typesOf(error));
  return ownMessage(error) ?? error.message ?? 'is invalid';
}

/**
 * Turns ajv's errors into invalid_request naming the field, written as
 * the engine and the routes write fields: `lines[0].order`.
 */
export function schemaError(errors: readonly Partial<ErrorObject>[] | null | undefined, root = ''): Error {
  if (!errors || errors.length === 0) return invalidRequest(root || 'body', 'is invalid');
  const alternatives = alternativesError(errors, root);
  if (alternatives) return alternatives;
  const error = reportedError(errors);
  let field = fieldOfPointer(root, error.instancePath ?? '');
  let message = messageOf(error);
  if (error.keyword === 'required') {
    field = [field, (error.params as { missingProperty: string }).missingProperty].filter(Boolean).join('.');
    message = 'is required';
  } else if (error.keyword === 'additionalProperties') {
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
 * Validates (and canonicalises, in place) a request body against the schema
 * `id` from `schemas/`; throws invalid_request naming the field. The body is
 * typed by the schema (`RequestBodies`, generated from `schemas/` by
 * `npm run schemas`).
 */
export function validate<K extends keyof RequestBodies>(id: K, data: unknown): RequestBodies[K] {
  // The schema of `id` is what RequestBodies[K] was generated from: ajv's guard narrows `data` to it.
  const check = checkOf(id) as ValidateFunction<RequestBodies[K]>;
  if (!check(data)) throw schemaError(check.errors);
  return data;
}
