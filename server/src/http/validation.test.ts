/** The request schemas are compiled once per thread: the cart's by a pool worker as it starts, every other on its first use. */
import { describe, expect, it } from 'vitest';
import { compileSchemas, SCHEMA_DOCUMENTS, validate } from './validation.js';

describe('schema compilation', () => {
  it('compiles a schema on its first use, and names an unknown one', () => {
    expect(() => validate('carts.cart', { creation_date: '2026-11-20T10:00:00Z', total: 1, lines: 'none' })).toThrow(/lines/);
    expect(() => compileSchemas(['no.such.schema'])).toThrow('no schema with $id no.such.schema under schemas/');
  });

  it('compiles every request schema under schemas/ (the main thread compiles each on its first use)', () => {
    expect(SCHEMA_DOCUMENTS.size).toBeGreaterThan(50);
    expect(() => compileSchemas()).not.toThrow();
  });

  it('leaves the response schemas to the tests: the server validates no answer', () => {
    expect(SCHEMA_DOCUMENTS.has('responses.cart')).toBe(true);
    expect(() => compileSchemas(['responses.cart'])).toThrow('no schema with $id responses.cart under schemas/');
  });
});
