/**
 * GET /customers/{id}/audience_validation and GET /customers/{id}/audiences
 * (legacy: segment_validation, segments). A customer that is merged or being
 * merged cannot be targeted by audiences: it belongs to none.
 */
import { TallyError } from '@tally/engine';
import type { ServerContext } from '../context.js';
import { findCustomer } from '../customers/lookup.js';
import { CustomerStore } from '../customers/store.js';
import type { CustomerRecord } from '../customers/types.js';
import { requireInt64 } from '../http/params.js';
import { ok, type Routes, type TallyRequest } from '../http/types.js';
import { wireInt } from '../http/wire.js';
import { audienceFacts } from './facts.js';
import { audienceRules } from './rules.js';
import { customerTier } from '../tiers/customer-tier.js';
import { TierStore } from '../tiers/store.js';

const targetable = (customer: CustomerRecord) => customer.status !== 'merged' && customer.status !== 'merging';

export function audiencesRoutes({ env }: ServerContext): Routes {
  const customers = new CustomerStore(env);
  const tiers = new TierStore(env);
  const customerOf = (req: TallyRequest) => findCustomer(customers, req.tenant, 'id', req.params.id, 'id');
  const factsOf = (req: TallyRequest, customer: CustomerRecord) =>
    audienceFacts(customer, req.settings, req.now, customerTier(tiers, req.tenant, req.settings, customer, req.now));

  return {
    'customers.audience_validation': (req) => {
      const segmentId = requireInt64(req.query.get('segment_id'), 'segment_id');
      const customer = customerOf(req);
      const rule = audienceRules(req.tenant, req.settings).get(segmentId);
      if (!rule) throw new TallyError('audience_not_found', `segment_id: no audience ${segmentId}`, 'segment_id');
      return ok({ result: targetable(customer) && rule.test(factsOf(req, customer)) });
    },

    'customers.audiences': (req) => {
      const customer = customerOf(req);
      if (!targetable(customer)) return ok({ list: [] });
      const facts = factsOf(req, customer);
      const list = [...audienceRules(req.tenant, req.settings)]
        .filter(([, rule]) => rule.test(facts))
        .map(([id]) => ({ segment_id: wireInt(id) }));
      return ok({ list });
    },
  };
}
