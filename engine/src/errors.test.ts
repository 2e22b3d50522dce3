import { describe, expect, it } from 'vitest';
import { inRange, mustBeIn, type Bounds } from './index.js';

describe('mustBeIn: the one wording of a number\'s range', () => {
  it.each<[string, 'integer' | 'number', Bounds, string]>([
    ['both bounds', 'integer', { minimum: 1, maximum: 100 }, 'must be an integer between 1 and 100'],
    ['a minimum', 'integer', { minimum: 0 }, 'must be an integer of at least 0'],
    ['a maximum', 'number', { maximum: 36500 }, 'must be a number of at most 36500'],
    ['an exclusive minimum', 'number', { exclusiveMinimum: 0 }, 'must be a number greater than 0'],
    ['an exclusive maximum', 'number', { exclusiveMaximum: 1 }, 'must be a number less than 1'],
    ['an exclusive and an inclusive bound', 'number', { exclusiveMinimum: 0, maximum: 100 }, 'must be a number greater than 0 and at most 100'],
    ['an inclusive and an exclusive bound', 'number', { minimum: 0, exclusiveMaximum: 1 }, 'must be a number of at least 0 and less than 1'],
    // An integer's exclusive bounds are the inclusive ones they mean.
    ['an integer\'s exclusive bounds', 'integer', { exclusiveMinimum: 0, exclusiveMaximum: 10 }, 'must be an integer between 1 and 9'],
    ['an integer above a fraction', 'integer', { exclusiveMinimum: 0.5 }, 'must be an integer of at least 1'],
    ['the stricter of two bounds on one side', 'number', { minimum: 0, exclusiveMinimum: 0 }, 'must be a number greater than 0'],
    ['int64 bounds', 'integer', { minimum: 1, maximum: 2n ** 63n - 1n }, 'must be an integer between 1 and 9223372036854775807'],
    ['no bound', 'number', {}, 'must be a number'],
  ])('%s', (_name, type, bounds, message) => {
    expect(mustBeIn(type, bounds)).toBe(message);
    expect(`must be ${inRange(type, bounds)}`).toBe(message);
  });

  it('a value the range leaves out, last', () => {
    expect(mustBeIn('number', { minimum: -10, maximum: 10 }, 0)).toBe('must be a number between -10 and 10 other than 0');
    expect(mustBeIn('integer', {}, 0)).toBe('must be an integer other than 0');
  });
});
