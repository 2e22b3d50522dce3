/**
 * Compiled programs kept per thread, keyed by what they were compiled from
 * (the records' history ids, which change on every write, and the settings
 * version), so a campaign is compiled when it changes, never per request.
 * Bounded: the oldest entry goes when the cache is full (a key that no longer
 * matches any record is simply never asked for again).
 */
export class CompiledCache<T> {
  private readonly entries = new Map<string, T>();

  constructor(private readonly capacity = 256) {}

  get(key: string, compile: () => T): T {
    const found = this.entries.get(key);
    if (found !== undefined) return found;
    const compiled = compile();
    if (this.entries.size >= this.capacity) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, compiled);
    return compiled;
  }
}

/** A record's version in a cache key: its history id (new on every write), else its last update (records stored before history ids). */
export const versionOf = (record: { id: string; history_id?: string; updated_at: string }): string => `${record.id}@${record.history_id ?? record.updated_at}`;
