/** An association between a customer and an associate customer (contract part 1, Association). */
export interface Association {
  id: string;
  customer_id: string;
  associate_customer_id: string;
  relationship_type: string | null;
  active: boolean;
  main: boolean;
  /** Set on the association a merge creates. */
  merge_id?: string;
  created_at: string;
  updated_at: string;
}
