/** The fields a leaf inside a line condition can name (and the `field` a line condition compares). */
import type { LineFacts } from '../facts.js';
import { attribute, id, money, number, text, type ValueKind } from '../value-kinds.js';
import { attributeName, attributeOf, type Field } from './field.js';

function pathField(name: string, kind: ValueKind, read: (line: LineFacts) => unknown): Field<LineFacts> {
  return { name, kind, read, jre: { fact: 'line', path: `$.${name}` } };
}

const FIXED: ReadonlyMap<string, Field<LineFacts>> = new Map(
  [
    pathField('product_id', id, (l) => l.product_id),
    pathField('product_code', text(), (l) => l.product_code),
    pathField('product_ean', text(), (l) => l.product_ean),
    pathField('supplier_id', id, (l) => l.supplier_id),
    pathField('quantity', number, (l) => l.quantity),
    pathField('total', money, (l) => l.total),
    pathField('original_total', money, (l) => l.original_total),
    { ...pathField('feature', text(), (l) => l.features), many: true, jre: { fact: 'line', path: '$.features' } },
  ].map((field) => [field.name, field]),
);

export function lineField(name: string): Field<LineFacts> | undefined {
  const fixed = FIXED.get(name);
  if (fixed) return fixed;
  const lineAttribute = attributeName(name, 'attributes.');
  if (lineAttribute === undefined) return undefined;
  return {
    name,
    kind: attribute,
    untyped: true,
    read: (l) => attributeOf(l.attributes, lineAttribute),
    jre: { fact: 'lineAttribute', params: { name: lineAttribute } },
  };
}
