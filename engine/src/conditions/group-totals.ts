/**
 * What a grouped line condition sums over its matching lines: `count`, `quantity`,
 * `total` or `original_total`. Sums are exact: cents are integers, and quantities
 * are summed as integers of millionths (0.1 + 0.2 is 0.3 here, not 0.30000000000000004).
 */
import { Decimal } from 'decimal.js';
import { invalidRequest } from '../errors.js';
import type { LineFacts } from './facts.js';
import type { Scalar } from './operators/index.js';
import { money, number } from './value-kinds.js';

export interface GroupTotal {
  /**
   * The condition's value: `fast` compared with `total(...)`, `json` compared by the reference with its own sum. An integer
   * beyond 2^53 stays a bigint in a count and a quantity's `json` (compared exactly); money is refused beyond MAX_AMOUNT.
   */
  value(raw: unknown, path: string): { fast: number | bigint; json: Scalar };
  total(lines: readonly LineFacts[], matches: (line: LineFacts) => boolean): number;
  /** Extra params of the reference's `lines` fact (none: it counts). */
  readonly jreParams: Record<string, string>;
}

const MILLIONTHS = 1e6;

const count: GroupTotal = {
  value(raw, path) {
    const n = number.parse(raw, path, true) as number | bigint;
    return { fast: n, json: n };
  },
  total(lines, matches) {
    let n = 0;
    for (let i = 0; i < lines.length; i++) if (matches(lines[i])) n++;
    return n;
  },
  jreParams: {},
};

function moneyTotal(key: 'total' | 'original_total'): GroupTotal {
  return {
    value(raw, path) {
      const cents = money.parse(raw, path, true) as number;
      return { fast: cents, json: cents };
    },
    total(lines, matches) {
      let cents = 0;
      for (let i = 0; i < lines.length; i++) if (matches(lines[i])) cents += lines[i][key];
      return cents;
    },
    jreParams: { sum: key },
  };
}

const quantity: GroupTotal = {
  value(raw, path) {
    const q = number.parse(raw, path, true) as number | bigint;
    const scaled = new Decimal(String(q)).times(MILLIONTHS);
    if (!scaled.isInteger()) throw invalidRequest(path, 'a quantity has at most six decimals');
    return { fast: scaled.toNumber(), json: q };
  },
  total(lines, matches) {
    let millionths = 0;
    for (let i = 0; i < lines.length; i++) {
      if (!matches(lines[i])) continue;
      const q = lines[i].quantity;
      const scaled = Math.round(q * MILLIONTHS);
      // Exact when q is the double of a number with at most six decimals; rarer quantities take decimal.js.
      if (scaled / MILLIONTHS !== q) return decimalMillionths(lines, matches);
      millionths += scaled;
    }
    return millionths;
  },
  jreParams: { sum: 'quantity' },
};

function decimalMillionths(lines: readonly LineFacts[], matches: (line: LineFacts) => boolean): number {
  let sum = new Decimal(0);
  for (const line of lines) if (matches(line)) sum = sum.plus(String(line.quantity));
  return sum.times(MILLIONTHS).toNumber();
}

export const GROUP_TOTALS: Readonly<Record<string, GroupTotal>> = {
  count,
  quantity,
  total: moneyTotal('total'),
  original_total: moneyTotal('original_total'),
};
