import fc from 'fast-check';
import { isInteger, parse } from 'lossless-json';
import { describe, expect, it } from 'vitest';
import { parseJson, stringifyJson } from './json.js';
import { optionalBoolean, readPerPage, requireInt64, requireWire } from './params.js';
import { createAjv } from './validation.js';
import { toDatetime, toInt64, wireInt } from './wire.js';

const MAX = '9223372036854775807';

describe('wire types (common rule 3) in bodies: the `wire` schema keyword', () => {
  const ajv = createAjv();
  const check = ajv.compile({
    type: 'object',
    properties: {
      id: { wire: 'int64' },
      birth: { wire: 'date' },
      at: { wire: 'datetime' },
      slug: { wire: 'slug' },
    },
  });
  const run = (body: string) => {
    const data = parseJson(body) as Record<string, unknown>;
    return { valid: check(data), data };
  };

  it('keeps int64 ids above 2^53 exact and canonical', () => {
    expect(run(`{"id":${MAX}}`).data.id).toBe(MAX);
    expect(run('{"id":9007199254740993}').data.id).toBe('9007199254740993');
    expect(run('{"id":42}').data.id).toBe('42');
    expect(run('{"id":"007"}').data.id).toBe('7');
  });

  it('rejects 0, negatives, fractions, out-of-range and non-numeric ids', () => {
    for (const id of ['0', '-1', '1.5', '9223372036854775808', '"12a"', 'true', '1.0e30']) {
      expect(run(`{"id":${id}}`).valid, id).toBe(false);
    }
  });

  it('converts datetimes with offsets to UTC', () => {
    expect(run('{"at":"2024-03-10T10:00:00-0500"}').data.at).toBe('2024-03-10T15:00:00Z');
    expect(run('{"at":"2024-03-10T23:30:00-05:00"}').data.at).toBe('2024-03-11T04:30:00Z');
    expect(run('{"at":"2024-03-10T01:00:00+0130"}').data.at).toBe('2024-03-09T23:30:00Z');
    expect(run('{"at":"2024-03-10T10:00:00Z"}').data.at).toBe('2024-03-10T10:00:00Z');
    // Whole seconds, as the contract writes datetimes: a fraction is dropped.
    expect(run('{"at":"2024-03-10T10:00:00.250Z"}').data.at).toBe('2024-03-10T10:00:00Z');
    expect(run('{"at":"2024-03-10T10:00:59.999-0500"}').data.at).toBe('2024-03-10T15:00:59Z');
    // Years below 100 are years, not 1900 to 1999.
    expect(run('{"at":"0050-06-01T10:00:00Z"}').data.at).toBe('0050-06-01T10:00:00Z');
    expect(run('{"at":"0050-06-01T10:00:00-0100"}').data.at).toBe('0050-06-01T11:00:00Z');
    expect(run('{"at":"0099-12-31T23:30:00-0100"}').data.at).toBe('0100-01-01T00:30:00Z');
  });

  it('rejects malformed dates and datetimes', () => {
    for (const at of ['"2024-02-30T10:00:00Z"', '"2024-03-10 10:00:00Z"', '"2024-03-10T25:00:00Z"', '"yesterday"', '12']) {
      expect(run(`{"at":${at}}`).valid, at).toBe(false);
    }
    expect(run('{"birth":"2024-02-29"}').valid).toBe(true);
    expect(run('{"birth":"2023-02-29"}').valid).toBe(false);
    expect(run('{"birth":"1850-01-01"}').valid).toBe(true);
    expect(run('{"birth":"01-01-2000"}').valid).toBe(false);
  });

  it('accepts slugs of letters, digits, underscores and hyphens only', () => {
    expect(run('{"slug":"summer_sale-2024"}').valid).toBe(true);
    expect(run('{"slug":"summer sale"}').valid).toBe(false);
    expect(run('{"slug":"été"}').valid).toBe(false);
  });
});

describe('wire types in paths and queries', () => {
  it('drops leading zeros and rejects 0 and negatives, naming the field', () => {
    expect(requireInt64('003', 'id')).toBe('3');
    expect(requireInt64(`000${MAX}`, 'id')).toBe(MAX);
    expect(() => requireInt64('000', 'id')).toThrow(/^id: /);
    expect(() => requireInt64('-3', 'customer_id')).toThrow(/^customer_id: /);
    expect(() => requireInt64(undefined, 'id')).toThrow(/id: is required/);
  });

  it('reads datetimes in the query with the offset form', () => {
    expect(requireWire('datetime', '2024-01-01T00:00:00-0100', 'created_at_gt')).toBe('2024-01-01T01:00:00Z');
  });

  it('reads booleans and per_page (default 10, maximum 100)', () => {
    expect(optionalBoolean('true', 'hard')).toBe(true);
    expect(optionalBoolean('false', 'hard')).toBe(false);
    expect([optionalBoolean('1', 'hard'), optionalBoolean('0', 'hard')]).toEqual([true, false]);
    expect(() => optionalBoolean('TRUE', 'hard')).toThrow('hard: must be true or false (or 1 or 0)');
    expect(readPerPage(undefined)).toBe(10);
    expect(readPerPage('050')).toBe(50);
    expect(() => readPerPage('101')).toThrow(/per_page/);
    expect(() => readPerPage('0')).toThrow(/per_page/);
  });
});

describe('JSON with exact int64 on the wire', () => {
  it('writes ids above 2^53 back as JSON numbers, exactly', () => {
    const body = { id: wireInt(MAX), small: wireInt('12'), nested: [{ id: wireInt('9007199254740993') }] };
    expect(stringifyJson(body)).toBe(`{"id":${MAX},"small":12,"nested":[{"id":9007199254740993}]}`);
    expect(stringifyJson(parseJson(`{"a":${MAX},"b":1.5,"c":"x"}`))).toBe(`{"a":${MAX},"b":1.5,"c":"x"}`);
  });
});

describe('properties of the wire types', () => {
  const int64 = fc.bigInt({ min: 1n, max: BigInt(MAX) });

  it('parseJson reads any JSON text as a lossless parse would: integers beyond 2^53 as bigint, the rest as JSON.parse', () => {
    const bigInteger = fc.bigInt({ min: -(2n ** 64n), max: 2n ** 64n }).map((n) => ({ big: n }));
    const text = fc.oneof(fc.json(), fc.array(fc.oneof(fc.jsonValue(), bigInteger)).map((values) => stringifyJson(values)));
    const lossless = (json: string) => parse(json, null, (digits) => (isInteger(digits) && !Number.isSafeInteger(Number(digits)) ? BigInt(digits) : Number(digits)));
    fc.assert(
      fc.property(text, (json) => {
        expect(parseJson(json)).toEqual(lossless(json));
      }),
      { numRuns: 500 },
    );
    expect(parseJson('[9007199254740991,-9007199254740992,{"a":[9007199254740992]}]')).toEqual([9007199254740991, -9007199254740992n, { a: [9007199254740992n] }]);
    // Nesting deeper than the call stack parses (the values are walked with a stack of their own).
    expect(parseJson(`${'['.repeat(20000)}1${']'.repeat(20000)}`)).toBeInstanceOf(Array);
  });

  it('every int64 survives JSON text -> canonical id -> reply text exactly', () => {
    fc.assert(
      fc.property(int64, (n) => {
        const parsed = parseJson(`{"id":${n}}`) as { id: unknown };
        const id = toInt64(parsed.id);
        expect(id).toBe(n.toString());
        expect(stringifyJson({ id: wireInt(id!) })).toBe(`{"id":${n}}`);
      }),
    );
  });

  it('leading zeros never change an id in a path or query', () => {
    fc.assert(
      fc.property(int64, fc.nat({ max: 30 }), (n, zeros) => {
        expect(requireInt64('0'.repeat(zeros) + n.toString(), 'id')).toBe(n.toString());
      }),
    );
  });

  it('a datetime with an offset is the same instant in UTC', () => {
    const instant = fc.integer({ min: Date.UTC(1970, 0, 1), max: Date.UTC(2999, 11, 31) }).map((ms) => Math.floor(ms / 1000) * 1000);
    const offset = fc.integer({ min: -14 * 60, max: 14 * 60 });
    fc.assert(
      fc.property(instant, offset, (ms, minutes) => {
        const local = new Date(ms + minutes * 60_000).toISOString().slice(0, 19);
        const sign = minutes < 0 ? '-' : '+';
        const abs = Math.abs(minutes);
        const zone = `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}${String(abs % 60).padStart(2, '0')}`;
        expect(toDatetime(`${local}${zone}`)).toBe(`${new Date(ms).toISOString().slice(0, 19)}Z`);
      }),
    );
  });
});
