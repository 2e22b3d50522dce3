/**
 * The JSON Schemas a Company writes (custom event definitions, the customer
 * attribute schema): compiled on an ajv instance that cannot be made to stall
 * or crash the server, and checked against data that may hold int64 bigints.
 */
import type { Ajv, ValidateFunction } from 'ajv';
import type { RegExpEngine } from 'ajv/dist/types/index.js';
import { formatNames } from 'ajv-formats/dist/formats.js';
import { RE2JS } from 're2js';
import { invalidRequest } from './errors.js';
import { createAjv, schemaError } from './validation.js';

/**
 * A Company's `pattern` and `patternProperties` run on RE2JS (a pure-JS port of
 * RE2), which matches in time linear in the input: with the built-in engine a
 * pattern such as `^(a+)+$` backtracks for minutes and stalls the event loop
 * (ReDoS). Patterns RE2 cannot run (lookarounds, backreferences) do not compile.
 */
const linearRegExp: RegExpEngine = Object.assign((pattern: string) => RE2JS.compile(RE2JS.translateRegExp(pattern)), {
  // What standalone ajv code would call; Tally never generates standalone code.
  code: 'RE2JS.compile',
});

/**
 * The ajv-formats formats a Company's schema may use: all but the deprecated
 * `url`, whose expression takes time quadratic in the input (minutes for a
 * 1 MB string); `uri` is the JSON Schema format for it.
 */
const COMPANY_FORMATS = formatNames.filter((name) => name !== 'url');

/** An ajv instance for a Company's schemas (`removeAdditional`: drop fields the schema does not name). */
export function createCompanyAjv(options: { removeAdditional?: boolean } = {}): Ajv {
  return createAjv({ ...options, regExp: linearRegExp, formats: COMPANY_FORMATS });
}

/**
 * Compiles a schema a Company wrote, or invalid_request naming `field`. Its `$id` is dropped (one ajv
 * instance compiles many of them: a second schema with the same `$id` would not compile). `$async` is
 * refused: such a check answers a Promise that rejects on invalid data, unhandled (the process would stop),
 * and below the root ajv refuses it. Schemas are compiled here when saved and again when used, so one
 * stored before these checks is refused at use too.
 */
export function compileCompanySchema(ajv: Ajv, schema: Record<string, unknown>, field: string): ValidateFunction {
  let check: ValidateFunction;
  try {
    check = ajv.compile({ ...schema, $id: undefined });
  } catch (err) {
    throw invalidRequest(field, `is not a valid JSON Schema: ${(err as Error).message}`);
  }
  if ((check as { $async?: boolean }).$async) throw invalidRequest(field, 'must not be asynchronous ($async)');
  return check;
}

/**
 * Checks data against a schema from compileCompanySchema; throws invalid_request naming `root`.
 * Integers beyond 2^53 arrive as bigints (the body is parsed losslessly), which ajv counts as neither
 * integer nor number: they are checked as their nearest double, which keeps type and bounds exact (a
 * schema's integer bounds beyond 2^53 are bigints too, which ajv refuses in a schema; multipleOf sees the
 * double), then put back, so every digit is kept.
 */
export function checkCompanyData(check: ValidateFunction, data: unknown, root: string): void {
  if (!withBigintsAsNumbers(data, () => check(data))) throw schemaError(check.errors, root);
}

function withBigintsAsNumbers<T>(data: unknown, run: () => T): T {
  const swapped: { at: Record<string, unknown>; key: string; value: bigint }[] = [];
  const visit = (at: Record<string, unknown>) => {
    for (const key of Object.keys(at)) {
      const value = at[key];
      if (typeof value === 'bigint') {
        swapped.push({ at, key, value });
        at[key] = Number(value);
      } else if (typeof value === 'object' && value !== null) {
        visit(value as Record<string, unknown>);
      }
    }
  };
  if (typeof data === 'object' && data !== null) visit(data as Record<string, unknown>);
  try {
    return run();
  } finally {
    for (const { at, key, value } of swapped) if (at[key] === Number(value)) at[key] = value;
  }
}
