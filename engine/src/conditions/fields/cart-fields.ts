/** The fields a cart-level leaf can name (`field` of a leaf outside a line condition). */
import type { CartFacts } from '../facts.js';
import { attribute, boolean, id, money, text, wholeNumber, type ValueKind } from '../value-kinds.js';
import { attributeName, attributeOf, type Field } from './field.js';

function pathField(name: string, kind: ValueKind, read: (facts: CartFacts) => unknown): Field<CartFacts> {
  return { name, kind, read, jre: { fact: 'cart', path: `$.${name}` } };
}

const FIXED: ReadonlyMap<string, Field<CartFacts>> = new Map(
  [
    pathField('total', money, (f) => f.total),
    pathField('original_total', money, (f) => f.original_total),
    pathField('location_id', id, (f) => f.location_id),
    pathField('location_code', text(), (f) => f.location_code),
    // A list, as a line's `feature`: in/eq hold when one of the location's features matches.
    { ...pathField('location_feature', text(), (f) => f.location_features), many: true, jre: { fact: 'cart', path: '$.location_features' } },
    pathField('channel', text(), (f) => f.channel),
    // ISO codes are capitals in the contract; a rule written in lower case means the same.
    pathField('currency', text({ upperCase: true }), (f) => f.currency),
    pathField('customer.identified', boolean, (f) => f.customer.identified),
    pathField('customer.id', id, (f) => f.customer.id),
    pathField('customer.code', text(), (f) => f.customer.code),
    pathField('customer.country', text({ upperCase: true }), (f) => f.customer.country),
    pathField('customer.gender', text(), (f) => f.customer.gender),
    pathField('customer.kind', text(), (f) => f.customer.kind),
    pathField('customer.tier', text(), (f) => f.customer.tier),
    // 1 Monday .. 7 Sunday, 0..23 (docs/rules.md): a weekday 8 or an hour 24 made a campaign that never ran.
    pathField('creation_date.weekday', wholeNumber(1, 7), (f) => f.creation_date.weekday),
    pathField('creation_date.hour', wholeNumber(0, 23), (f) => f.creation_date.hour),
  ].map((field) => [field.name, field]),
);

export function cartField(name: string): Field<CartFacts> | undefined {
  const fixed = FIXED.get(name);
  if (fixed) return fixed;
  const customerAttribute = attributeName(name, 'customer.attributes.');
  if (customerAttribute !== undefined) {
    return {
      name,
      kind: attribute,
      untyped: true,
      read: (f) => attributeOf(f.customer.attributes, customerAttribute),
      jre: { fact: 'customerAttribute', params: { name: customerAttribute } },
    };
  }
  const cartAttribute = attributeName(name, 'attributes.');
  if (cartAttribute !== undefined) {
    return {
      name,
      kind: attribute,
      untyped: true,
      read: (f) => attributeOf(f.attributes, cartAttribute),
      jre: { fact: 'cartAttribute', params: { name: cartAttribute } },
    };
  }
  return undefined;
}
