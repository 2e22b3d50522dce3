/**
 * Every named database of a server's store, entry by entry: what the bad-input sweeps compare before and after a
 * refused request to prove it wrote nothing.
 */
import type { Database, RootDatabase } from 'lmdb';

/** Named databases by name, each as its entries (key and value bytes as hex). */
export type Snapshot = Map<string, Map<string, string>>;

/**
 * A snapshot reader of the store `root()` gives (opened once the server started); databases are opened once, as binary.
 * While no transaction has committed since the last snapshot (LMDB's last transaction id, read from the store's meta
 * page, so across processes), the store is as it was: that snapshot is returned again, not read again.
 */
export function storeSnapshots(root: () => RootDatabase): () => Snapshot {
  const databases = new Map<string, Database>();
  let last: { txnId: number; snapshot: Snapshot } | undefined;
  return () => {
    const store = root();
    store.resetReadTxn();
    const txnId = (store.getStats() as { lastTxnId: number }).lastTxnId;
    if (last?.txnId === txnId) return last.snapshot;
    const result: Snapshot = new Map();
    // The root database's keys are the named databases. Listed before any is opened: opening one
    // while the root's cursor is open breaks lmdb-js's read transaction (MDB_BAD_TXN, or a crash).
    for (const name of [...store.getKeys()].map(String)) {
      let db = databases.get(name);
      if (!db) databases.set(name, (db = store.openDB({ name, encoding: 'binary', keyEncoding: 'binary' })));
      const entries = new Map<string, string>();
      for (const { key, value } of db.getRange()) entries.set((key as Buffer).toString('hex'), (value as Buffer).toString('hex'));
      result.set(name, entries);
    }
    last = { txnId, snapshot: result };
    return result;
  };
}
