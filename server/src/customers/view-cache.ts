/**
 * GET /customers/{value} (Tier 1) answers from memory: the rendered answers
 * read most recently, by tenant and id, up to a capacity (oldest dropped
 * first). An LMDB read costs more than the rest of the request together.
 *
 * A write drops the answer when its transaction starts and keeps it out of the
 * cache until that transaction has settled (StoreEnv.afterCommit): a read in
 * between goes to the store, so the cache can never take back an old answer,
 * and the writer's 200 comes after the drop. Every customer write runs on the
 * main thread (the cart workers only read customers), so the process's one
 * cache sees all of them.
 */
export class CustomerViewCache {
  private readonly answers = new Map<string, string>();
  /** Keys with a write in flight, and how many. */
  private readonly writing = new Map<string, number>();

  constructor(private readonly capacity: number) {}

  get(key: string): string | undefined {
    return this.answers.get(key);
  }

  /** Keeps an answer just read from the store, unless a write of it is in flight. */
  remember(key: string, answer: string): void {
    if (this.writing.has(key)) return;
    if (this.answers.size >= this.capacity) this.answers.delete(this.answers.keys().next().value!);
    this.answers.set(key, answer);
  }

  writeStarted(key: string): void {
    this.answers.delete(key);
    this.writing.set(key, (this.writing.get(key) ?? 0) + 1);
  }

  writeSettled(key: string): void {
    const left = this.writing.get(key)! - 1;
    if (left === 0) this.writing.delete(key);
    else this.writing.set(key, left);
    this.answers.delete(key);
  }
}
