import type { CounterUses } from '../counters/store.js';
import type { CustomerStatus } from '../customers/types.js';
import type { CompanySettings, Tenant } from '../tenancy/types.js';

/** Who and when a merge or unmerge completes: the settings date the tier levels it recalculates (`now`: `YYYY-MM-DDThh:mm:ssZ`). */
export interface MergeScope {
  tenant: Tenant;
  settings: CompanySettings;
  now: string;
}

/** A merge of an old customer into a new one (POST /customers/transfer and transfer-new). */
export interface MergeRecord {
  id: string;
  old_customer_id: string;
  new_customer_id: string;
  relationship_type?: string;
  motive?: string;
  /** transfer completes in its own transaction; transfer_new completes asynchronously. */
  mode: 'transfer' | 'transfer_new';
  status: 'pending' | 'completed' | 'failed' | 'unmerged';
  /** transfer_new: the old customer's status before it became merging, which a merge given up gives back (absent: active). */
  old_status?: CustomerStatus;
  /** Ids of the records moved, by owned kind name: what an unmerge gives back. */
  moved: Record<string, string[]>;
  /** The old customer's `once` uses added to the new customer's: what an unmerge gives back (absent: a merge completed before they moved, nothing). */
  moved_uses?: CounterUses[];
  /** The association the merge created (new customer -> old customer). */
  association_id?: string;
  /**
   * The active associations the merge made inactive: the pair's (new customer -> old customer, and old -> new), and those
   * of the old customer's a move made inactive (the receiver's own of that pair was active): what an unmerge makes active again. `deactivated_association_id`: the one of a merge completed before both directions were.
   */
  deactivated_association_ids?: string[];
  deactivated_association_id?: string;
  created_at: string;
  completed_at?: string;
  unmerged_at?: string;
}

/** The unmerge log (contract: "an unmerge log entry is recorded"). */
export interface UnmergeLogEntry {
  id: string;
  merge_id: string;
  associate_id: string;
  parent_id: string;
  with_activities: boolean;
  created_at: string;
}
