/**
 * combo_price: lines matching every numbered part of a bundle form combos
 * (one unit per part); each combo costs `value`. The discount is the regular
 * price of the combos' units minus the combo prices, split pro rata over the
 * lines that supplied those units. `limits` caps the number of combos.
 */
import type { CompiledEffect } from '../compile/program.js';
import type { LineState } from '../evaluate/cartInput.js';
import { splitProRata, sum, zeros } from './split.js';
import { coveredCents, lineUnits } from './units.js';

export function comboPrice(
  effect: CompiledEffect,
  lines: readonly LineState[],
  available: readonly boolean[],
  bundles: ReadonlyMap<number, readonly number[]>,
): number[] {
  const none = zeros(lines.length);
  if (bundles.size === 0) return none;
  const parts = [...bundles.keys()].sort((a, b) => a - b).map((key) => bundles.get(key) ?? []);
  const free = lines.map((line, i) => (available[i] && line.current > 0 ? lineUnits(line) : 0));
  // How many combos: the scarcest part decides (a line feeds one part only: the first that claims it).
  const claimed = zeros(lines.length).map(() => -1);
  const supply = parts.map((indexes, p) => {
    let units = 0;
    for (const i of indexes) {
      if (claimed[i] === -1 && free[i] > 0) {
        claimed[i] = p;
        units += free[i];
      }
    }
    return units;
  });
  const combos = Math.min(...supply, effect.limits ?? Number.POSITIVE_INFINITY);
  if (combos <= 0) return none;
  const taken = zeros(lines.length);
  parts.forEach((indexes, p) => {
    let need = combos;
    for (const i of indexes) {
      if (claimed[i] !== p || need === 0) continue;
      taken[i] = Math.min(free[i], need);
      need -= taken[i];
    }
  });
  const regular = lines.map((line, i) => (taken[i] > 0 ? coveredCents(line, taken[i]) : 0));
  const base = sum(regular);
  const discount = Math.max(0, base - combos * effect.amount);
  return splitProRata(Math.min(discount, base), regular, lines);
}
