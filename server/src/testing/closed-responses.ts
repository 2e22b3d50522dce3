/**
 * The response schemas, closed: every object that declares properties gets
 * `unevaluatedProperties: false`, so an answer with a field its schema does
 * not describe fails. The published schemas stay open (clients ignore unknown
 * fields, docs/decisions.md); the contract tests hold Tally's own answers to
 * the closed form, so every field Tally answers is described and typed.
 *
 * A schema used as an `allOf` branch is left open: only the object that joins
 * the branches knows all its fields (JSON Schema 2020-12 unevaluatedProperties).
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { SchemaDocument } from '../http/validation.js';

type Json = Record<string, unknown>;

function allOfDefs(node: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(node)) node.forEach((item) => allOfDefs(item, found));
  else if (node && typeof node === 'object') {
    for (const branch of ((node as Json).allOf as Json[] | undefined) ?? []) {
      if (typeof branch.$ref === 'string') found.add(branch.$ref);
    }
    Object.values(node).forEach((value) => allOfDefs(value, found));
  }
  return found;
}

function close(node: unknown, open: (ref: string) => boolean, owner: string, keepOpen = false): unknown {
  if (Array.isArray(node)) return node.map((item) => close(item, open, owner));
  if (!node || typeof node !== 'object') return node;
  const schema = node as Json;
  const out: Json = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'allOf') out.allOf = (value as unknown[]).map((branch) => close(branch, open, owner, true));
    else if (key === '$defs' || key === 'properties') {
      out[key] = Object.fromEntries(Object.entries(value as Json).map(([name, sub]) => [
        name, close(sub, open, owner, key === '$defs' && open(`${owner}#/$defs/${name}`)),
      ]));
    } else out[key] = close(value, open, owner);
  }
  if (!keepOpen && (schema.properties || schema.allOf) && !('additionalProperties' in schema)) out.unevaluatedProperties = false;
  return out;
}

/** An ajv (JSON Schema 2020-12) holding every schema, the `responses.*` ones closed. */
export function closedResponseAjv(documents: Iterable<SchemaDocument>): Ajv2020 {
  const all = [...documents];
  const branches = allOfDefs(all);
  const ajv = new Ajv2020({ strictTypes: false, allErrors: true, formats: { int64: true } });
  ajv.addKeyword('wire');
  for (const document of all) {
    const id = document.$id;
    const open = (ref: string) => branches.has(ref) || branches.has(ref.replace(`${id}#`, '#'));
    ajv.addSchema(id.startsWith('responses.') ? (close(document, open, id) as Json) : document);
  }
  return ajv;
}
