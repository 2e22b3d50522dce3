/**
 * The query parameters an operation accepts: those `openapi/parameters.ts`
 * lists for it, with `starting_after` and `per_page` on a paged list. Any
 * other name is 400 before the handler runs, as an unknown body field is: a
 * misspelt filter (`customer_idd`) would otherwise answer the whole list.
 *
 * The list is also what routes may read: `OperationQuery` throws when a route
 * reads a name it does not hold, so a parameter a route reads and the list
 * (and with it the OpenAPI document) leaves out fails every test reaching
 * that route, rather than being refused from clients.
 */
import { RESPONSE_BODIES } from '../openapi/bodies.js';
import { PAGE_PARAMETERS, QUERY_PARAMETERS, type QueryParameter } from '../openapi/parameters.js';
import { invalidRequest } from './errors.js';
import { OPERATIONS, type OperationId } from './operations.js';

/** A repeatable parameter (an array schema) is also accepted as `name[]` (params.ts, listParam). */
function namesOf(parameter: QueryParameter): string[] {
  return parameter.schema.type === 'array' ? [parameter.name, `${parameter.name}[]`] : [parameter.name];
}

function parametersOf(id: OperationId): QueryParameter[] {
  return [...(QUERY_PARAMETERS[id] ?? []), ...(RESPONSE_BODIES[id]?.wrap === 'page' ? PAGE_PARAMETERS : [])];
}

const ACCEPTED = new Map<OperationId, ReadonlySet<string>>(
  (Object.keys(OPERATIONS) as OperationId[]).map((id) => [id, new Set(parametersOf(id).flatMap(namesOf))]),
);

/** The names that take a list, so may be sent more than once. */
const REPEATABLE = new Map<OperationId, ReadonlySet<string>>(
  (Object.keys(OPERATIONS) as OperationId[]).map((id) => [id, new Set(parametersOf(id).filter((p) => p.schema.type === 'array').flatMap(namesOf))]),
);

/**
 * An operation's query, parsed once: `refuseUnknown` checks the names sent, and routes can read only the names
 * the operation accepts (a read of another is a bug of the route).
 */
export class OperationQuery extends URLSearchParams {
  constructor(
    query: string,
    private readonly operation: OperationId,
  ) {
    super(query);
  }

  /**
   * 400 naming the first parameter sent that the operation does not accept, or that takes one value and is sent
   * more than once (reading one of the values would answer as though the others had been read).
   */
  refuseUnknown(): this {
    const accepted = ACCEPTED.get(this.operation)!;
    const repeatable = REPEATABLE.get(this.operation)!;
    const seen: string[] = [];
    for (const name of this.keys()) {
      if (name === '') throw invalidRequest('query', 'has a parameter without a name');
      if (!accepted.has(name)) throw invalidRequest(name, 'is not an accepted parameter');
      if (repeatable.has(name)) continue;
      if (seen.includes(name)) throw invalidRequest(name, 'must be sent once');
      seen.push(name);
    }
    return this;
  }

  override get(name: string): string | null {
    this.check(name);
    return super.get(name);
  }

  override getAll(name: string): string[] {
    this.check(name);
    return super.getAll(name);
  }

  override has(name: string, value?: string): boolean {
    this.check(name);
    return value === undefined ? super.has(name) : super.has(name, value);
  }

  private check(name: string): void {
    if (!ACCEPTED.get(this.operation)!.has(name)) {
      throw new Error(`${this.operation} reads the query parameter ${name}, which openapi/parameters.ts does not list for it`);
    }
  }
}
