/**
 * A JSON file cannot import the engine's constants: the bounds common.json repeats are checked against them here.
 */
import { readFileSync } from 'node:fs';
import { MAX_AMOUNT } from '@tally/engine';
import { describe, expect, it } from 'vitest';

const defs = (JSON.parse(readFileSync(new URL('common.json', import.meta.url), 'utf8')) as { $defs: Record<string, Record<string, unknown>> }).$defs;

describe('schemas/common.json', () => {
  it("bounds money at the engine's MAX_AMOUNT, the amounts whose cents stay exact (toCents)", () => {
    expect(defs.money).toMatchObject({ type: 'number', minimum: -MAX_AMOUNT, maximum: MAX_AMOUNT });
    expect(defs.money_non_negative).toMatchObject({ type: 'number', minimum: 0, maximum: MAX_AMOUNT });
  });
});
