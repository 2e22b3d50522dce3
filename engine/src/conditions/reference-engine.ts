/**
 * The reference semantics: json-rules-engine's own Engine evaluating the exported JSON.
 * Async and slow (about 9 µs per rule); used by the property tests and the benchmark,
 * never on the hot path. Line leaves run through a nested Engine, one line at a time,
 * so that agreement with the fast path tests json-rules-engine's operators, not a copy of ours.
 */
import { Decimal } from 'decimal.js';
import { Engine, type Almanac, type TopLevelCondition } from 'json-rules-engine';
import type { CompiledRule } from './compiled-rule.js';
import type { CartFacts, LineFacts } from './facts.js';
import { attributeOf } from './fields/field.js';

/** No line is being selected: the rule is used as a condition. */
const NO_FOCUS = -1;

function newEngine(): Engine {
  const engine = new Engine([], { allowUndefinedFacts: false });
  // Orderings hold on numbers only (json-rules-engine alone would compare "12" > 5 as true).
  engine.addOperatorDecorator<unknown, unknown, unknown, unknown>('numeric', (fact, value, next) => (typeof fact === 'number' || typeof fact === 'bigint') && next(fact, value));
  return engine;
}

function copy(json: Record<string, unknown>): TopLevelCondition {
  return JSON.parse(JSON.stringify(json)) as TopLevelCondition;
}

/**
 * Does one line satisfy the leaves? A fresh nested Engine per call: json-rules-engine
 * marks an Engine finished when any of its runs ends, so one Engine shared by the
 * concurrent fact evaluations of a run would skip rules and drop lines from group sums.
 */
async function lineMatches(conditions: TopLevelCondition, line: LineFacts): Promise<boolean> {
  const engine = newEngine();
  engine.addRule({ conditions: copy(conditions as unknown as Record<string, unknown>), event: { type: 'match' } });
  engine.addFact('lineAttribute', async (params, almanac) => attributeOf((await almanac.factValue<LineFacts>('line')).attributes, params.name));
  const { events } = await engine.run({ line });
  return events.length > 0;
}

function addCartFacts(engine: Engine): void {
  const cart = (almanac: Almanac) => almanac.factValue<CartFacts>('cart');
  engine.addFact('cartAttribute', async (params, almanac) => attributeOf((await cart(almanac)).attributes, params.name));
  engine.addFact('customerAttribute', async (params, almanac) => attributeOf((await cart(almanac)).customer.attributes, params.name));
  // Count (or sum of `sum`) over the lines matching `conditions`; quantities summed in decimal.
  engine.addFact('lines', async (params, almanac) => {
    const { lines } = await cart(almanac);
    let total = new Decimal(0);
    for (const line of lines) {
      if (!(await lineMatches(params.conditions, line))) continue;
      total = total.plus(params.sum ? String(line[params.sum as 'quantity' | 'total' | 'original_total']) : 1);
    }
    return total.toNumber();
  });
  // Whether the line being selected matches `conditions` (always true when the rule is used as a condition).
  engine.addFact('lineSelected', async (params, almanac) => {
    const focus = await almanac.factValue<number>('focus');
    return focus === NO_FOCUS || lineMatches(params.conditions, (await cart(almanac)).lines[focus]);
  });
}

export function referenceEngine(rules: { id: string; rule: CompiledRule }[]): {
  matching(facts: CartFacts): Promise<string[]>;
  selectedLines(id: string, facts: CartFacts): Promise<boolean[]>;
} {
  const engineOf = (selected: { id: string; rule: CompiledRule }[]) => {
    const engine = newEngine();
    for (const { id, rule } of selected) engine.addRule({ name: id, conditions: copy(rule.json), event: { type: id } });
    addCartFacts(engine);
    return engine;
  };
  const all = engineOf(rules);
  const single = new Map(rules.map((entry) => [entry.id, engineOf([entry])]));

  return {
    async matching(facts) {
      const { events } = await all.run({ cart: facts, focus: NO_FOCUS });
      const matched = new Set(events.map((event) => event.type));
      return rules.filter(({ id }) => matched.has(id)).map(({ id }) => id);
    },
    async selectedLines(id, facts) {
      const engine = single.get(id);
      if (!engine) throw new Error(`referenceEngine: no rule '${id}'`);
      const selected: boolean[] = [];
      for (let focus = 0; focus < facts.lines.length; focus++) {
        const { events } = await engine.run({ cart: facts, focus });
        selected.push(events.length > 0);
      }
      return selected;
    },
  };
}
