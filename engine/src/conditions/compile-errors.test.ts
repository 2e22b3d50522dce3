/** Every compile error: a TallyError 'invalid_request' whose message and field name the exact place in the rule, worded as the server's. */
import { describe, expect, it } from 'vitest';
import { TallyError } from '../errors.js';
import { compileRule } from './index.js';

const rule = (...items: unknown[]) => ({ conditions: { and: items } });
const lines = (conditions: unknown[], more: Record<string, unknown> = {}) => ({ array_field: 'lines', conditions, ...more });
const web = { field: 'channel', operator: 'eq', value: 'web' };
const AND0 = 'rule_conditions.conditions.and[0]';
const LINE0 = `${AND0}.conditions[0]`;

function deep(levels: number): unknown {
  let group: unknown = { and: [] };
  for (let i = 1; i < levels; i++) group = { and: [group] };
  return { conditions: group };
}

const cases: [title: string, raw: unknown, field: string, message: string][] = [
  ['not an object', 42, 'rule_conditions', 'must be an object or a JSON string'],
  ['an array', [web], 'rule_conditions', 'must be an object or a JSON string'],
  ['invalid JSON', '{"conditions": ', 'rule_conditions', 'is not valid JSON (Unexpected end of JSON input)'],
  ['unknown top-level property', { conditions: { and: [] }, when: 1 }, 'rule_conditions.when', 'is not an accepted field'],
  ['conditions without and/or', { conditions: {} }, 'rule_conditions.conditions', 'must be {"and": [...]} or {"or": [...]}'],
  ['and not a list', { conditions: { and: {} } }, 'rule_conditions.conditions.and', 'must be an array'],
  ['both and and or', { conditions: { and: [], or: [] } }, 'rule_conditions.conditions.or', 'cannot be sent with rule_conditions.conditions.and'],
  ['an item that is not an object', rule(web, 3), 'rule_conditions.conditions.and[1]', 'must be an object'],
  ['nested too deep', deep(17), 'rule_conditions.conditions' + '.and[0]'.repeat(16), 'nested deeper than 16 levels'],
  ['missing field', rule({ operator: 'eq', value: 1 }), `${AND0}.field`, 'is required'],
  ['field not a string', rule({ field: 3, operator: 'eq', value: 1 }), `${AND0}.field`, 'must be a string'],
  ['unknown cart field', rule({ field: 'colour', operator: 'eq', value: 1 }), `${AND0}.field`, "unknown cart field 'colour'"],
  ['attribute without a name', rule({ field: 'attributes.', operator: 'eq', value: 1 }), `${AND0}.field`, "unknown cart field 'attributes.'"],
  ['a line field at cart level', rule({ field: 'product_id', operator: 'eq', value: 1 }), `${AND0}.field`, "unknown cart field 'product_id'"],
  ['missing operator', rule({ field: 'channel', value: 'web' }), `${AND0}.operator`, 'is required'],
  ['unknown operator', rule(web, web, { field: 'channel', operator: 'foo', value: 'web' }), 'rule_conditions.conditions.and[2].operator', "unknown operator 'foo'"],
  ['an ordering on an id', rule({ field: 'location_id', operator: 'gt', value: 1 }), `${AND0}.operator`, "'gt' does not apply to field 'location_id'"],
  ['an ordering on text', rule({ field: 'channel', operator: 'lte', value: 'web' }), `${AND0}.operator`, "'lte' does not apply to field 'channel'"],
  ['a weekday past Sunday', rule({ field: 'creation_date.weekday', operator: 'eq', value: 8 }), `${AND0}.value`, 'must be an integer between 1 and 7'],
  ['an hour of 24', rule({ field: 'creation_date.hour', operator: 'in', values: [9, 24] }), `${AND0}.values[1]`, 'must be an integer between 0 and 23'],
  ['a fraction of an hour', rule({ field: 'creation_date.hour', operator: 'gte', value: 9.5 }), `${AND0}.value`, 'must be an integer between 0 and 23'],
  ['missing value', rule({ field: 'channel', operator: 'eq' }), `${AND0}.value`, 'is required'],
  ['null value', rule({ field: 'channel', operator: 'eq', value: null }), `${AND0}.value`, 'is required'],
  ['in without values', rule({ field: 'channel', operator: 'in' }), `${AND0}.values`, 'is required'],
  ['in with a single value', rule({ field: 'channel', operator: 'in', values: 'web' }), `${AND0}.values`, "'in' takes a list"],
  ['in with an empty list', rule({ field: 'channel', operator: 'not_in', value: [] }), `${AND0}.value`, 'must not be empty'],
  ['eq with a list', rule({ field: 'channel', operator: 'eq', value: ['web'] }), `${AND0}.value`, "'eq' takes one value, not a list"],
  ['eq with values', rule({ field: 'channel', operator: 'eq', values: ['web'] }), `${AND0}.values`, "'eq' takes one value, not values"],
  ['both value and values', rule({ field: 'channel', operator: 'in', value: ['web'], values: ['app'] }), `${AND0}.values`, `cannot be sent with ${AND0}.value`],
  ['money with three decimals', rule({ field: 'total', operator: 'gte', value: 10.005 }), `${AND0}.value`, 'must have at most two decimals'],
  ['money as text', rule({ field: 'total', operator: 'gte', value: 'ten' }), `${AND0}.value`, 'must be a number'],
  ['an id that is not digits', rule({ field: 'location_id', operator: 'in', values: [1, 'abc'] }), `${AND0}.values[1]`, 'must be an integer between 1 and 9223372036854775807'],
  ['an id that is not a number or a string', rule({ field: 'location_id', operator: 'eq', value: true }), `${AND0}.value`, 'must be an id'],
  ['id zero', rule({ field: 'location_id', operator: 'eq', value: '000' }), `${AND0}.value`, 'must be an integer between 1 and 9223372036854775807'],
  ['id beyond int64', rule({ field: 'location_id', operator: 'eq', value: '9223372036854775808' }), `${AND0}.value`, 'must be an integer between 1 and 9223372036854775807'],
  ['id number beyond 2^53', rule({ field: 'location_id', operator: 'eq', value: 2 ** 60 }), `${AND0}.value`, 'is above 2^53: send it as a string or bigint'],
  ['text that is not a string', rule({ field: 'channel', operator: 'eq', value: true }), `${AND0}.value`, 'must be a string'],
  ['a number field given text', rule({ field: 'creation_date.weekday', operator: 'eq', value: 'monday' }), `${AND0}.value`, 'must be a number'],
  ['a boolean field given text', rule({ field: 'customer.identified', operator: 'eq', value: 'yes' }), `${AND0}.value`, 'must be true or false'],
  ['an attribute ordering given text', rule({ field: 'attributes.visits', operator: 'gte', value: '3' }), `${AND0}.value`, 'must be a number for an ordering operator'],
  ['an attribute value that is an object', rule({ field: 'attributes.visits', operator: 'eq', value: { a: 1 } }), `${AND0}.value`, 'must be a string, a number or a boolean'],
  ['a misspelt property', rule({ ...web, valeus: ['x'] }), `${AND0}.valeus`, 'is not an accepted field'],
  ['grouped on a cart leaf', rule({ ...web, grouped: true }), `${AND0}.grouped`, 'only a line condition is grouped'],
  ['bundle on a cart leaf', rule({ ...web, bundle: 1 }), `${AND0}.bundle`, 'only a line condition is a bundle part'],
  ['unknown array_field', rule({ array_field: 'items', conditions: [] }), `${AND0}.array_field`, "unknown array_field 'items' (only 'lines')"],
  ['line conditions without array_field', rule({ conditions: [] }), `${AND0}.array_field`, `is required with ${AND0}.conditions`],
  ['line conditions not a list', rule(lines({} as never)), `${AND0}.conditions`, 'must be a list of leaves on line fields'],
  ['a group inside a line condition', rule(lines([{ and: [] }])), LINE0, 'a line condition holds leaves on line fields only'],
  ['a line item that is not an object', rule(lines(['x'])), LINE0, 'must be an object'],
  ['a property a line leaf does not take', rule(lines([{ field: 'quantity', operator: 'gt', value: 1, grouped: true }])), `${LINE0}.grouped`, 'is not an accepted field'],
  ['a cart field in a line condition', rule(lines([{ field: 'channel', operator: 'eq', value: 'web' }])), `${LINE0}.field`, "unknown line field 'channel'"],
  ['an unknown operator in a line condition', rule(lines([{ field: 'quantity', operator: '>=', value: 1 }])), `${LINE0}.operator`, "unknown operator '>='"],
  ['an ordering on feature', rule(lines([{ field: 'feature', operator: 'gt', value: 'a' }])), `${LINE0}.operator`, "'gt' does not apply to field 'feature'"],
  ['operator without field', rule(lines([], { operator: 'gte', value: 1 })), `${AND0}.field`, `is required with ${AND0}.operator`],
  ['grouped without field', rule(lines([], { grouped: true })), `${AND0}.field`, `is required with ${AND0}.grouped`],
  ['grouped not a boolean', rule(lines([], { grouped: 'yes' })), `${AND0}.grouped`, 'must be a boolean'],
  ['grouped over text', rule(lines([], { field: 'product_code', operator: 'eq', value: 'A', grouped: true })), `${AND0}.field`, "a group sums quantity, total, original_total or count, not 'product_code'"],
  ['a group without operator', rule(lines([], { field: 'total', value: 1, grouped: true })), `${AND0}.operator`, 'is required'],
  ['a group quantity with seven decimals', rule(lines([], { field: 'quantity', operator: 'gte', value: 0.1234567, grouped: true })), `${AND0}.value`, 'a quantity has at most six decimals'],
  ['a group total with three decimals', rule(lines([], { field: 'total', operator: 'in', values: [1, 2.555], grouped: true })), `${AND0}.values[1]`, 'must have at most two decimals'],
  ['a non-grouped field of unknown name', rule(lines([], { field: 'weight', operator: 'gt', value: 1 })), `${AND0}.field`, "unknown line field 'weight'"],
  ['bundle zero', rule(lines([], { bundle: 0 })), `${AND0}.bundle`, 'must be an integer of at least 1'],
  ['bundle not an integer', rule(lines([], { bundle: 1.5 })), `${AND0}.bundle`, 'must be an integer of at least 1'],
];

describe('compile errors', () => {
  it.each(cases)('%s', (_, raw, field, message) => {
    let thrown: unknown;
    try {
      compileRule(raw, 'rule_conditions');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(TallyError);
    const error = thrown as TallyError;
    expect(error.code).toBe('invalid_request');
    expect(error.field).toBe(field);
    expect(error.message).toBe(`${field}: ${message}`);
  });

  it('names the rule field it was given', () => {
    expect(() => compileRule({ conditions: { or: [{ field: 'x', operator: 'eq', value: 1 }] } }, 'rule_application')).toThrow(
      "rule_application.conditions.or[0].field: unknown cart field 'x'",
    );
  });

  it('rejects a malformed rule given as a JSON string with the same message', () => {
    expect(() => compileRule(JSON.stringify(rule({ field: 'total', operator: 'foo', value: 1 })), 'rule_conditions')).toThrow(
      "rule_conditions.conditions.and[0].operator: unknown operator 'foo'",
    );
  });
});
