/** created_at and updated_at of company-data records: the request's server time, as the contract writes datetimes. */
import type { TallyRequest } from '../http/types.js';
import { wireDatetime } from '../http/wire.js';

export function timestamp(req: TallyRequest): string {
  return wireDatetime(req.now);
}
