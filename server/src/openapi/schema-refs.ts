/**
 * Reading the schema documents of `schemas/` as a whole: what a `$ref` names
 * and whether a document describes a body. Shared by the OpenAPI components
 * and the wire-type generator (scripts/wire-types.mjs).
 */
import type { SchemaDocument } from '../http/validation.js';

export interface SchemaRef {
  /** The `$id` of the document referred to. */
  id: string;
  /** The `$defs` entry, when the reference names one. */
  def?: string;
  /** The JSON pointer after `#` ('' for the whole document). */
  pointer: string;
}

/** Splits `X#/$defs/y`, `#/$defs/y` (inside the document `owner`) or `X`. */
export function parseSchemaRef(ref: string, owner?: string): SchemaRef {
  const hash = ref.indexOf('#');
  const id = hash === -1 ? ref : ref.slice(0, hash) || owner;
  if (id === undefined) throw new Error(`$ref ${ref} has no schema to resolve against`);
  const pointer = hash === -1 ? '' : ref.slice(hash + 1);
  const def = /^\/\$defs\/([^/]+)$/.exec(pointer)?.[1];
  return def === undefined ? { id, pointer } : { id, def, pointer };
}

const ANNOTATIONS = ['$id', '$defs', '$comment', 'title', 'description'];

/** A document that is only a set of `$defs` (common.json, *.params) describes no body. */
export function hasBody(document: SchemaDocument): boolean {
  return Object.keys(document).some((key) => !ANNOTATIONS.includes(key));
}
