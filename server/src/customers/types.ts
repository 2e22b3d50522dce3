/** A customer as stored (contract part 1, Customer). ids are int64 decimal strings. */

export type CustomerStatus = 'active' | 'inactive' | 'merging' | 'merged';

/** The profile fields a client may send (create or update), stored as sent after normalisation. */
export type CustomerProfile = Record<string, unknown>;

export interface CustomerRecord {
  id: string;
  code?: string;
  email?: string;
  /** Set when the email was accepted with allow_duplicate_email while another customer holds it. */
  duplicated_email?: string;
  dni?: string;
  duplicated_dni?: string;
  phone?: string;
  status: CustomerStatus;
  /** The customer this one was merged into (status merged). */
  merged_to?: string;
  /** Profile fields of the contract's table (name, surnames, address, consents, custom fields...). */
  profile: CustomerProfile;
  /** Custom attributes, validated against the Company's schema. */
  attributes: Record<string, unknown>;
  /** scrypt hash (customers/password.ts); never answered. */
  password_hash: string;
  referred_by?: string;
  creation_date: string;
  /** Server time of the last change (never the client's). */
  updated_at: string;
  /** Soft delete: the record stays emptied so its id is never reused. */
  deleted_at?: string;
}

/** Identifier kinds with a unique index. */
export type UniqueKey = 'code' | 'email' | 'dni';

/** GET /customers/{value} and the other operations that take search_param. */
export type SearchParam = 'id' | UniqueKey;
