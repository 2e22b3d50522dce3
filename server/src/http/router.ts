/**
 * Matches a method and path against the routing table. Path segments match
 * static names before parameters, and the path is resolved before the method,
 * so `GET /locations/taxonomies` is that path with a missing method, never the
 * location named `taxonomies`. The matcher is built once and frozen.
 */
import { OPERATIONS, type Method, type OperationId, type OperationSpec } from './operations.js';
import { KEY_TEXT_TOO_LONG, longerThanKeyText } from './params.js';

interface Leaf {
  operation: OperationId;
  spec: OperationSpec;
  paramNames: readonly string[];
}

interface Node {
  statics: Map<string, Node>;
  param?: Node;
  methods: Map<Method, Leaf>;
}

export type RouteMatch =
  | { kind: 'found'; operation: OperationId; spec: OperationSpec; params: Record<string, string> }
  | { kind: 'not_found' }
  | { kind: 'method_not_allowed'; allowed: string[] }
  | { kind: 'bad_path'; operation: OperationId; field: string; problem: string };

function newNode(): Node {
  return { statics: new Map(), methods: new Map() };
}

function splitPath(path: string): string[] {
  const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  return trimmed.split('/').slice(1);
}

function insert(root: Node, path: string, method: Method, operation: OperationId, spec: OperationSpec): void {
  let node = root;
  const paramNames: string[] = [];
  for (const segment of splitPath(path)) {
    if (segment.startsWith('{')) {
      paramNames.push(segment.slice(1, -1));
      node.param ??= newNode();
      node = node.param;
    } else {
      let next = node.statics.get(segment);
      if (!next) node.statics.set(segment, (next = newNode()));
      node = next;
    }
  }
  if (node.methods.has(method)) {
    throw new Error(`routing table: ${method} ${path} is declared twice (${operation}, ${node.methods.get(method)!.operation})`);
  }
  node.methods.set(method, { operation, spec, paramNames });
}

function build(): Node {
  const root = newNode();
  for (const [id, spec] of Object.entries(OPERATIONS) as [OperationId, OperationSpec][]) {
    for (const path of [spec.path, ...(spec.aliases ?? [])]) {
      insert(root, path, spec.method, id, spec);
      // Common rule 5: PUT is accepted wherever PATCH is.
      if (spec.method === 'PATCH') insert(root, path, 'PUT', id, spec);
    }
  }
  return root;
}

const ROOT = build();

/** Finds the node of segments[index..end), preferring static segments, backtracking to parameters. */
function resolve(node: Node, segments: string[], index: number, end: number, values: string[]): Node | undefined {
  if (index === end) return node.methods.size > 0 ? node : undefined;
  const segment = segments[index];
  const exact = node.statics.get(segment);
  if (exact) {
    const found = resolve(exact, segments, index + 1, end, values);
    if (found) return found;
  }
  if (node.param && segment !== '') {
    values.push(segment);
    const found = resolve(node.param, segments, index + 1, end, values);
    if (found) return found;
    values.pop();
  }
  return undefined;
}

export function matchRoute(method: string, path: string): RouteMatch {
  const values: string[] = [];
  // Per request, so without splitPath's copies: segments[0] is the empty text before the first `/`.
  const segments = path.split('/');
  const end = path.length > 1 && path.endsWith('/') ? segments.length - 1 : segments.length;
  const node = resolve(ROOT, segments, 1, end, values);
  if (!node) return { kind: 'not_found' };
  // HEAD is GET without content (RFC 9110, 9.3.2): the GET operation runs, and server.ts writes no content.
  const leaf = node.methods.get(method as Method) ?? (method === 'HEAD' ? node.methods.get('GET') : undefined);
  if (!leaf) return { kind: 'method_not_allowed', allowed: [...node.methods.keys()].flatMap((m) => (m === 'GET' ? ['GET', 'HEAD'] : [m])) };
  const params: Record<string, string> = {};
  for (let i = 0; i < leaf.paramNames.length; i++) {
    const name = leaf.paramNames[i];
    let value = values[i];
    if (value.includes('%')) {
      try {
        value = decodeURIComponent(value);
      } catch {
        return { kind: 'bad_path', operation: leaf.operation, field: 'path', problem: 'is not valid URL encoding' };
      }
    }
    // Path values are ids, codes and slugs, read as key parts: one bound for all of them.
    if (longerThanKeyText(value)) return { kind: 'bad_path', operation: leaf.operation, field: name, problem: KEY_TEXT_TOO_LONG };
    params[name] = value;
  }
  return { kind: 'found', operation: leaf.operation, spec: leaf.spec, params };
}
