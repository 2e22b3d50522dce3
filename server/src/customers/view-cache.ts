import type { Tenant } from '../tenancy/types.js';

/**
 * GET /customers/{value} (Tier 1) answers from memory: the rendered answers
 * read most recently, by Company, environment and id, up to a capacity per
 * Company environment (oldest dropped first). An LMDB read costs more than
 * the rest of the request together.
 *
 * A write drops the answer when its transaction starts and keeps it out of the
 * cache until that transaction has settled (StoreEnv.afterCommit): a read in
 * between goes to the store, so the cache can never take back an old answer,
 * and the writer's 200 comes after the drop. Every customer write runs on the
 * main thread (the cart workers only read customers), so the process's one
 * cache sees all of them.
 */
export class CustomerViewCache {
  /** By Company id, then environment: strings the requests share, so their hashes are computed once. */
  private readonly tenants = new Map<string, Map<string, TenantAnswers>>();

  constructor(private readonly capacity: number) {}

  of(tenant: Tenant): TenantAnswers {
    let environments = this.tenants.get(tenant.companyId);
    if (!environments) this.tenants.set(tenant.companyId, (environments = new Map()));
    let answers = environments.get(tenant.environment);
    if (!answers) environments.set(tenant.environment, (answers = new TenantAnswers(this.capacity)));
    return answers;
  }
}

/** One Company environment's answers, by customer id (canonical decimal text). */
export class TenantAnswers {
  private readonly answers = new Map<string, string>();
  /** Ids with a write in flight, and how many. */
  private readonly writing = new Map<string, number>();

  constructor(private readonly capacity: number) {}

  get(id: string): string | undefined {
    return this.answers.get(id);
  }

  /** Keeps an answer just read from the store, unless a write of it is in flight. */
  remember(id: string, answer: string): void {
    if (this.writing.has(id)) return;
    if (this.answers.size >= this.capacity) this.answers.delete(this.answers.keys().next().value!);
    this.answers.set(id, answer);
  }

  writeStarted(id: string): void {
    this.answers.delete(id);
    this.writing.set(id, (this.writing.get(id) ?? 0) + 1);
  }

  writeSettled(id: string): void {
    const left = this.writing.get(id)! - 1;
    if (left === 0) this.writing.delete(id);
    else this.writing.set(id, left);
    this.answers.delete(id);
  }
}
