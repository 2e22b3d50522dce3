/**
 * JSON with exact integers: an integer beyond 2^53 parses as a bigint (JSON.parse would round it), as the server
 * reads every body and the engine reads a rule's JSON text, so both compare `9007199254740993` as that integer.
 */
import { isInteger, parse } from 'lossless-json';

function parseNumber(text: string): number | bigint {
  if (isInteger(text)) {
    const n = Number(text);
    return Number.isSafeInteger(n) ? n : BigInt(text);
  }
  return Number(text);
}

/**
 * Parses JSON text; throws SyntaxError when it is not JSON, RangeError when it
 * nests deeper than `maxDepth`. JSON.parse first: only an integer of 2^53 or
 * more can lose digits there, and it parses to a number of that size, so only
 * then is the text parsed again, losslessly. Looking over the parsed values
 * costs 0.7 µs a cart; a regular expression looking for a run of 16 digits in
 * the text cost 1.8 µs. A key repeated in an object keeps its last value, in
 * both parsers (as JSON.parse does).
 */
export function parseJson(text: string, maxDepth = Infinity): unknown {
  const value: unknown = JSON.parse(text);
  return holdsUnsafeNumber(value, maxDepth) ? parse(text, null, { parseNumber, onDuplicateKey: lastValue }) : value;
}

function lastValue({ newValue }: { newValue: unknown }): unknown {
  return newValue;
}

/**
 * Whether a parsed value holds a number beyond ±2^53; throws RangeError past
 * `maxDepth`. Walked with a stack of containers and their depths, so deep
 * nesting cannot overflow it, and one walk checks both.
 */
function holdsUnsafeNumber(root: unknown, maxDepth: number): boolean {
  if (typeof root !== 'object' || root === null) return typeof root === 'number' && unsafe(root);
  let found = false;
  const containers: object[] = [root];
  const depths = [1];
  const visit = (value: unknown, depth: number) => {
    if (typeof value === 'number') {
      if (unsafe(value)) found = true;
    } else if (typeof value === 'object' && value !== null) {
      containers.push(value);
      depths.push(depth + 1);
    }
  };
  while (containers.length > 0) {
    const container = containers.pop()!;
    const depth = depths.pop()!;
    if (depth > maxDepth) throw new RangeError(`nests deeper than ${maxDepth} levels`);
    if (Array.isArray(container)) {
      for (let i = 0; i < container.length; i++) visit(container[i], depth);
    } else {
      for (const key in container) visit((container as Record<string, unknown>)[key], depth);
    }
  }
  return found;
}

function unsafe(value: number): boolean {
  return value >= 2 ** 53 || value <= -(2 ** 53);
}
