/** An association as answered (contract part 1, Association). */
import { wireInt } from '../http/wire.js';
import type { Association } from './types.js';

export function associationView(association: Association): Record<string, unknown> {
  return {
    id: wireInt(association.id),
    customer_id: wireInt(association.customer_id),
    associate_customer_id: wireInt(association.associate_customer_id),
    relationship_type: association.relationship_type,
    active: association.active,
    main: association.main,
    ...(association.merge_id === undefined ? {} : { merge_id: wireInt(association.merge_id) }),
    created_at: association.created_at,
    updated_at: association.updated_at,
  };
}
