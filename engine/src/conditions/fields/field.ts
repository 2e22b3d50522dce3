/** A field a leaf can name: how to read it from the facts, and how json-rules-engine reads it. */
import type { ValueKind } from '../value-kinds.js';

export interface Field<F> {
  readonly name: string;
  readonly kind: ValueKind;
  read(facts: F): unknown;
  /** The json-rules-engine fact reference: `{fact, path}` or `{fact, params}`. */
  readonly jre: Readonly<Record<string, unknown>>;
  /** The fact is a list (features): a leaf holds when some element matches (neq/not_in: when none does). */
  readonly many?: boolean;
  /** The fact may hold any JSON value (attributes), so the reference guards orderings by type. */
  readonly untyped?: boolean;
}

/** An own property only: `attributes.constructor` must not reach Object.prototype. */
export function attributeOf(attributes: Readonly<Record<string, unknown>>, name: string): unknown {
  return Object.hasOwn(attributes, name) ? attributes[name] : undefined;
}

/** The name after `prefix` (`attributes.` ...), or undefined when `name` does not start with it. */
export function attributeName(name: string, prefix: string): string | undefined {
  return name.startsWith(prefix) && name.length > prefix.length ? name.slice(prefix.length) : undefined;
}
