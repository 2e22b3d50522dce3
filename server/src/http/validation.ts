/**
 * Request validation with ajv. Every request schema under `schemas/` is loaded
 * at start-up and compiled once per thread, on its first use (by its `$id`; a
 * pool worker compiles the cart's as it starts, `compileSchemas`); handlers call
 * `validate(id, body)`. The `wire` keyword checks a contract wire type and
 * rewrites the value to its canonical form (int64 as a decimal string,
 * datetimes in UTC), so handlers only ever see canonical values. The
 * `languageTexts` keyword checks a text per language against the Company's
 * languages: a schema holding one is validated with the Company's settings.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isMainThread } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import type { DataValidationCxt, RegExpEngine } from 'ajv/dist/types/index.js';
import addFormatsModule from 'ajv-formats';
import { isCountry } from '@tally/engine';
import { formatNames, type FormatName } from 'ajv-formats/dist/formats.js';
import { atMostOf, cannotBeSentWith, counted, invalidRequest, mustBe, mustBeAnyOf, mustBeIn, requiredOr, requiredWith, typeName, type JsonType } from './errors.js';
import { FORMAT_DESCRIPTIONS } from './formats.js';
import { textsProblem } from './language.js';
import { atMostCharacters, notACountry } from './params.js';
import type { CompanySettings } from '../tenancy/types.js';
import type { RequestBodies } from '../wire/types.js';
import { WIRE_DESCRIPTIONS, WIRE_TYPES, type WireType } from './wire.js';

const SCHEMAS_DIR = fileURLToPath(new URL('../../../schemas/', import.meta.url));

// ajv-formats is CommonJS: under NodeNext its function is the `default` of the module.
const addFormats = addFormatsModule.default;

function wireValidate(type: WireType, data: unknown, _schema: unknown, cxt?: DataValidationCxt): boolean {
  const canonical = WIRE_TYPES[type](data);
  if (canonical === undefined) {
    wireValidate.errors = [{ keyword: 'wire', message: mustBeAnyOf(WIRE_DESCRIPTIONS[type]), params: { type } }];
    return false;
  }
  if (cxt?.parentData !== undefined && canonical !== data) {
    (cxt.parentData as Record<string | number, unknown>)[cxt.parentDataProperty] = canonical;
  }
  return true;
}
wireValidate.errors = undefined as Partial<ErrorObject>[] | undefined;

/** The `isoCountry` keyword: a code of the right form must also be a country's (XX is none), named in the message. */
function isoCountryValidate(enabled: boolean, data: unknown): boolean {
  if (!enabled || typeof data !== 'string' || isCountry(data)) return true;
  isoCountryValidate.errors = [{ keyword: 'isoCountry', message: notACountry(data), params: {} }];
  return false;
}
isoCountryValidate.errors = undefined as Partial<ErrorObject>[] | undefined;

/** The languages ICU names (the ISO 639-1 codes and their deprecated aliases, `iw`, `in`...): `qq` has no name. */
const LANGUAGE_NAMES = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' });

/** The `isoLanguage` keyword: a code of the right form must also be a language's (qq is none), named in the message. */
function isoLanguageValidate(enabled: boolean, data: unknown): boolean {
  if (!enabled || typeof data !== 'string' || !/^[a-z]{2}$/.test(data) || LANGUAGE_NAMES.of(data) !== undefined) return true;
  isoLanguageValidate.errors = [{ keyword: 'isoLanguage', message: `${data} is not an ISO 639-1 language`, params: {} }];
  return false;
}
isoLanguageValidate.errors = undefined as Partial<ErrorObject>[] | undefined;

/** What validate() passes its checks as their `this` (ajv's passContext): the Company a request writes to. */
interface ValidationContext {
  settings?: CompanySettings;
}

/**
 * The `languageTexts` keyword, on a text that may be sent per language: such an object must hold the Company's default
 * language and only languages it configures (language.ts), named in the error (`rule_params.name.fr`). The Company's
 * settings are the check's context; a schema with such a text checked without them is a route's bug, not a request's.
 */
function languageTextsValidate(this: ValidationContext | undefined, enabled: boolean, data: Record<string, string>, _schema: unknown, cxt?: DataValidationCxt): boolean {
  if (!enabled) return true;
  const settings = this?.settings;
  if (settings === undefined) throw new Error('a text per language was validated without the Company: call validate(id, body, req.settings)');
  const problem = textsProblem(data, settings);
  if (problem === undefined) return true;
  const at = cxt?.instancePath ?? '';
  languageTextsValidate.errors = [{ keyword: 'languageTexts', message: problem.message, params: {}, instancePath: problem.language === undefined ? at : `${at}/${problem.language}` }];
  return false;
}
languageTextsValidate.errors = undefined as Partial<ErrorObject>[] | undefined;

/**
 * Creates an ajv instance with Tally's formats and the `wire`, `patternDescription`, `isoCountry` and `isoLanguage` keywords; a
 * Company's schemas get theirs from company-schemas.ts (`regExp`, `formats`). `requests`: the instance of `schemas/`,
 * with the `languageTexts` keyword, which needs the Company validate() passes (a Company's own schemas, checked with
 * none, cannot use it: it is an unknown keyword there).
 * `validateSchema: false`: add schemas without checking them against the meta-schema (a thread other than the one
 * that checked them).
 */
export function createAjv(options: { removeAdditional?: boolean; regExp?: RegExpEngine; formats?: FormatName[]; requests?: boolean; validateSchema?: boolean } = {}): Ajv {
  const ajv = new Ajv({
    allErrors: false,
    validateSchema: options.validateSchema ?? true,
    // Errors carry their schema and value: schemaError reads a failed oneOf/anyOf's branches to name the fields of a
    // one-of pair, and a bigint's bounds from the schema that declares its field.
    verbose: true,
    useDefaults: true,
    removeAdditional: options.removeAdditional ? 'all' : false,
    // Strict mode stays on (unknown keywords are errors); its type lint only warns
    // on stderr about valid patterns such as `required` inside `allOf`.
    strictTypes: false,
    // Keyword checks get validate()'s context as `this` (languageTexts: the Company's languages).
    passContext: options.requests === true,
    // ajv's passes that tidy the generated code halve a compile's cost and leave a check as fast (a cart's parse
    // and check 19 µs either way): every thread compiles at start, and a Company's schemas compile on a request.
    code: { optimize: false, ...(options.regExp ? { regExp: options.regExp } : {}) },
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
  // What the `pattern` beside it means, in words that take an article ("an email address"): its error says the value
  // must be that, not ajv's "must match pattern" and the expression. An annotation: it checks nothing.
  ajv.addKeyword({ keyword: 'patternDescription', schemaType: 'string' });
  // A string keyword runs after `pattern`: a code of the wrong form is answered in the pattern's words first.
  ajv.addKeyword({ keyword: 'isoCountry', type: 'string', schemaType: 'boolean', errors: true, validate: isoCountryValidate });
  ajv.addKeyword({ keyword: 'isoLanguage', type: 'string', schemaType: 'boolean', errors: true, validate: isoLanguageValidate });
  if (options.requests) {
    // An object keyword runs after the `anyOf` beside it: each text is checked (length, characters) before its languages.
    ajv.addKeyword({ keyword: 'languageTexts', type: 'object', schemaType: 'boolean', errors: true, validate: languageTextsValidate });
  }
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

/** The request schemas: the server validates no answer (the tests check answers against `responses/`). */
const REQUEST_SCHEMA_IDS = [...SCHEMA_DOCUMENTS.keys()].filter((id) => !id.startsWith('responses.'));
// The main thread checks every schema against the meta-schema; a pool worker takes them as the main thread checked them.
const ajv = createAjv({ requests: true, validateSchema: isMainThread });
const compiled = new Map<string, ValidateFunction>();
for (const id of REQUEST_SCHEMA_IDS) ajv.addSchema(SCHEMA_DOCUMENTS.get(id)!);

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
 * Compiles the request schemas named (every one under `schemas/` when none is), once per thread: a pool worker
 * compiles the cart's as it starts, so no cart waits for it; the main thread compiles each on its first use (every
 * one cost a start about 0.5 s of CPU, and a server answers a few operations in its first minutes; the tests compile
 * every one, so a schema that does not compile fails `npm test`, not a request).
 */
export function compileSchemas(ids: readonly string[] = REQUEST_SCHEMA_IDS): void {
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
const typesOf = (error: Partial<ErrorObject>) => String((error.params as { type: string | string[] }).type).split(',') as JsonType[];

/** The JSON types a wire type's values have, beside `string` (the others'). */
const WIRE_JSON_TYPES: Partial<Record<WireType, JsonType[]>> = { int64: ['integer', 'string'], points: ['integer', 'string'], big_integer: ['integer'] };

/** A value's JSON type, every number (a bigint too: an integer beyond 2^53 parsed losslessly) a `number`. */
function typeOf(value: unknown): JsonType {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'bigint') return 'number';
  return typeof value as JsonType;
}

/** Whether a value of the JSON type `type` (typeOf) is of one of `types`: an integer type takes numbers too, as ajv tells them apart. */
const isOf = (type: JsonType, types: readonly JsonType[]) => types.some((taken) => taken === type || (taken === 'integer' && type === 'number'));

/**
 * An integer beyond 2^53: the body is parsed losslessly, so it arrives as a bigint, which ajv reports as "must be
 * integer". The value is a number, out of the field's range (not the type error it would be for a string field).
 */
const outOfRange = (error: Partial<ErrorObject>) =>
  error.keyword === 'type' && typeof error.data === 'bigint' && typesOf(error).some((type) => type === 'integer' || type === 'number');

/** The words of a pattern, from its schema's `patternDescription` (ajv's `verbose` errors carry the schema). */
function patternDescription(error: Partial<ErrorObject>): string | undefined {
  const description = (error.parentSchema as { patternDescription?: unknown } | undefined)?.patternDescription;
  return typeof description === 'string' ? description : undefined;
}

/** An enum's values listed in its message up to this many; a longer list is not read in an error line. */
const LISTED_VALUES = 10;

/** A value of an enum or const as the messages write it: text bare, as the routes list theirs (`must be one of a, b`), but `""`. */
const valueText = (value: unknown) => (typeof value === 'string' && value !== '' ? value : JSON.stringify(value));

/**
 * What an alternative of an anyOf or oneOf takes, when its error says the value is not of that kind (a type, a wire
 * type, a format, a described pattern, an enum's or a const's values), rather than of it and wrong (`must be at
 * most 255 characters`): the phrases a message lists (`a string`, `a date YYYY-MM-DD`, `all`), and whether the value
 * has the alternative's JSON type (a text that is no date has a date's type; a number has not).
 */
function kindOf(error: Partial<ErrorObject>): { phrases: string[]; fits: boolean } | undefined {
  const params = (error.params ?? {}) as { type?: WireType; format?: FormatName; allowedValues?: unknown[]; allowedValue?: unknown };
  const type = typeOf(error.data);
  switch (error.keyword) {
    case 'type':
      return outOfRange(error) ? undefined : { phrases: typesOf(error).map(typeName), fits: false };
    case 'wire':
      return { phrases: [WIRE_DESCRIPTIONS[params.type!]], fits: isOf(type, WIRE_JSON_TYPES[params.type!] ?? ['string']) };
    // A format or a pattern applies only to the types it checks: the value that failed one is of its type.
    case 'format':
      return { phrases: [FORMAT_DESCRIPTIONS[params.format!]], fits: true };
    case 'pattern': {
      const description = patternDescription(error);
      return description === undefined ? undefined : { phrases: [description], fits: true };
    }
    case 'enum': {
      const values = params.allowedValues ?? [];
      const phrases = values.length <= LISTED_VALUES ? values.map(valueText) : ['one of the allowed values'];
      return { phrases, fits: values.some((value) => typeOf(value) === type) };
    }
    case 'const':
      return { phrases: [valueText(params.allowedValue)], fits: typeOf(params.allowedValue) === type };
    default:
      return undefined;
  }
}

/**
 * The error to answer. With allErrors off, validation stops at the first failed keyword: its error is the last,
 * and when it is an anyOf or a oneOf that no alternative passed (`[string, null]` for a field null clears), the
 * alternatives' errors come before it. Then what is wrong inside the value answers, first (`coupons_desired[0]:
 * must be a string`, `rule_params.name.EN`, a key), else what is wrong with a value of an alternative's kind
 * (`surname_1: must be at most 255 characters`, not the first alternative's `must be null`); else the alternatives
 * whose type the value has, or when it has none of them, all of them: one answers with its own message (`code: must
 * be a slug (...)`), more are listed (`available_from: must be a date YYYY-MM-DD or an ISO 8601 datetime (...)`,
 * `code: must be a string or null`, `coupons_desired: must be all, selected or an array`). Otherwise the first
 * error, as ajv lists them.
 */
function reportedError(errors: readonly Partial<ErrorObject>[]): Partial<ErrorObject> {
  const failed = errors[errors.length - 1];
  // A oneOf more than one alternative passed: its own message says so (errors before it are of those that failed).
  if (failed.keyword === 'oneOf' && (failed.params as { passingSchemas?: unknown }).passingSchemas) return failed;
  if (failed.keyword !== 'anyOf' && failed.keyword !== 'oneOf') return errors[0];
  // A key's propertyNames error follows the error of the key itself, which names it (propertyName).
  const theirs = errors.slice(0, -1).filter((error) => error.keyword !== 'anyOf' && error.keyword !== 'oneOf' && error.keyword !== 'propertyNames');
  const inside = theirs.find((error) => error.instancePath?.startsWith(`${failed.instancePath}/`) || error.propertyName !== undefined);
  if (inside) return inside;
  const alternatives = theirs.map((error) => ({ error, kind: kindOf(error) }));
  const wrong = alternatives.find(({ kind }) => kind === undefined);
  if (wrong || alternatives.length === 0) return wrong?.error ?? failed;
  const fitting = alternatives.filter(({ kind }) => kind!.fits);
  const listed = fitting.length > 0 ? fitting : alternatives;
  if (listed.length === 1) return listed[0].error;
  return { ...failed, params: {}, message: mustBeAnyOf(...listed.flatMap(({ kind }) => kind!.phrases)) };
}

/** The words of each bound of a format (ajv-formats' `formatMinimum`, ...), which only dates and times have. */
const FORMAT_BOUNDS = { formatMinimum: 'on or after', formatExclusiveMinimum: 'after', formatMaximum: 'on or before', formatExclusiveMaximum: 'before' } as const;

/**
 * A date's or a time's range, stated whole whichever bound failed, as a number's is (`must be between 2026-01-01 and
 * 2026-12-31`, `must be on or before 2026-12-31`, `must be after 09:00:00Z and before 17:00:00Z`), in the words of
 * time, not ajv-formats' `should be <= 2026-12-31`.
 */
function formatRangeMessage(error: Partial<ErrorObject>): string {
  const schema = (error.parentSchema ?? {}) as Record<string, unknown>;
  const bound = (keywords: readonly (keyof typeof FORMAT_BOUNDS)[]) => keywords.find((keyword) => typeof schema[keyword] === 'string');
  const lower = bound(['formatExclusiveMinimum', 'formatMinimum']);
  const upper = bound(['formatExclusiveMaximum', 'formatMaximum']);
  if (lower === 'formatMinimum' && upper === 'formatMaximum') return `must be between ${schema[lower]} and ${schema[upper]}`;
  return `must be ${[lower, upper].flatMap((keyword) => (keyword ? [`${FORMAT_BOUNDS[keyword]} ${schema[keyword]}`] : [])).join(' and ')}`;
}

/**
 * ajv's messages in the words the routes and the engine use for the same checks (`must be at most 255 characters`,
 * `must not be empty`, `must be one of a, b`, `must be an email address`): ajv's own ("must NOT have more than 255
 * characters", "must be equal to one of the allowed values", "must match format \"email\"") are another wording,
 * name no value, or show an expression where a reader wants words.
 */
function ownMessage(error: Partial<ErrorObject>): string | undefined {
  const params = (error.params ?? {}) as {
    limit?: unknown; allowedValues?: unknown[]; allowedValue?: unknown; i?: number; j?: number;
    format?: FormatName; pattern?: string; multipleOf?: number; passingSchemas?: number[] | null;
  };
  const limit = Number(params.limit);
  const atLeast = (verb: string, noun: string) => (limit === 1 ? 'must not be empty' : `must ${verb} at least ${counted(limit, noun)}`);
  switch (error.keyword) {
    case 'maxLength':
      return atMostCharacters(limit);
    case 'minLength':
      return atLeast('be', 'character');
    case 'maxItems':
    case 'additionalItems':
      return atMostOf(limit, 'item');
    case 'minItems':
      return atLeast('have', 'item');
    case 'maxProperties':
      return atMostOf(limit, 'field');
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
    case 'format':
      return mustBeAnyOf(FORMAT_DESCRIPTIONS[params.format!]);
    case 'pattern': {
      const description = patternDescription(error);
      return description === undefined ? `must match the pattern ${params.pattern}` : mustBeAnyOf(description);
    }
    case 'multipleOf':
      return `must be a multiple of ${params.multipleOf}`;
    case 'formatMaximum':
    case 'formatMinimum':
    case 'formatExclusiveMaximum':
    case 'formatExclusiveMinimum':
      return formatRangeMessage(error);
    case 'false schema':
      return 'is not accepted';
    case 'oneOf': {
      // More than one alternative held (of a oneOf none held, reportedError lists the alternatives in the message).
      const passing = params.passingSchemas;
      return passing ? `must match exactly one alternative (it matches alternatives ${passing.map((index) => index + 1).join(' and ')})` : undefined;
    }
    default:
      return undefined;
  }
}

/** The keywords of a number's bounds, which `rangeMessage` words. */
const BOUNDS = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'] as const;

/**
 * A number's range, stated whole whichever bound failed (`must be an integer between 1 and 2147483647`, not ajv's
 * `must be >= 1`): every bound of the schema that declares the field (ajv's `verbose` errors carry it, behind a `$ref`
 * to another document too), as an integer when the schema's type takes one. An integer beyond 2^53 (a bigint) is a
 * number no field here holds exactly: its range is also within ±(2^53 - 1), on a side the schema leaves open too.
 */
function rangeMessage(error: Partial<ErrorObject>): string {
  const schema = (error.parentSchema ?? {}) as Record<string, unknown>;
  const bounds: Partial<Record<(typeof BOUNDS)[number], number>> = Object.fromEntries(
    BOUNDS.filter((keyword) => typeof schema[keyword] === 'number').map((keyword) => [keyword, schema[keyword]]),
  );
  const type = [schema.type].flat().includes('integer') ? 'integer' : 'number';
  const otherThan = excludedNumber(schema);
  if (!outOfRange(error)) return mustBeIn(type, bounds, otherThan);
  const minimum = Math.max(bounds.minimum ?? -Infinity, Number.MIN_SAFE_INTEGER);
  const maximum = Math.min(bounds.maximum ?? Infinity, Number.MAX_SAFE_INTEGER);
  return mustBeIn(type, { ...bounds, minimum, maximum }, otherThan);
}

/** The number a number's schema leaves out of its range, `not: {const: 0}` (a cart line's quantity). */
function excludedNumber(schema: Record<string, unknown>): number | undefined {
  const excluded = (schema.not as { const?: unknown } | undefined)?.const;
  return typeof excluded === 'number' ? excluded : undefined;
}

/** The message of an error: a type error names its types (`mustBe`), a number out of its bounds or left out its range (a bigint too). */
function messageOf(error: Partial<ErrorObject>): string {
  const excluded = error.keyword === 'not' && excludedNumber((error.parentSchema ?? {}) as Record<string, unknown>) !== undefined;
  if (outOfRange(error) || excluded || (BOUNDS as readonly string[]).includes(error.keyword ?? '')) return rangeMessage(error);
  if (error.keyword === 'type') return mustBe(...typesOf(error));
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
  const at = fieldOfPointer(root, error.instancePath ?? '');
  const name = (member: string) => [at, member].filter(Boolean).join('.');
  const params = error.params as { missingProperty: string; additionalProperty: string; property: string };
  let field = at;
  let message = messageOf(error);
  if (error.keyword === 'required') {
    field = name(params.missingProperty);
    message = 'is required';
  } else if (error.keyword === 'additionalProperties') {
    field = name(params.additionalProperty);
    message = 'is not an accepted field';
  } else if (error.keyword === 'dependencies') {
    // A field that needs another (a schema's `dependencies`), worded as the routes word it.
    return requiredWith(name(params.missingProperty), name(params.property));
  } else if (error.propertyName !== undefined) {
    // A key that propertyNames refuses (a language code, ...): the key is named, as an unknown field is.
    field = name(error.propertyName);
    message = `is not an accepted field (a key ${message})`;
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
 * `npm run schemas`). `settings`, the Company written to, is needed by a
 * schema with texts per language (`languageTexts`).
 */
export function validate<K extends keyof RequestBodies>(id: K, data: unknown, settings?: CompanySettings): RequestBodies[K] {
  const check = checkOf(id);
  const context: ValidationContext = { settings };
  if (!check.call(context, data)) throw schemaError(check.errors);
  // The schema of `id` is what RequestBodies[K] was generated from (called with a context, ajv's guard cannot narrow).
  return data as RequestBodies[K];
}
