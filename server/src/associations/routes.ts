/**
 * Associations (contract part 1): create, update and deactivate the active
 * association between two customers, and list a customer's associates. Both
 * customers must exist; a pair has at most one active association.
 */
import { TallyError } from '@tally/engine';
import type { ServerContext } from '../context.js';
import { customerOwner, findCustomer } from '../customers/lookup.js';
import { CustomerStore } from '../customers/store.js';
import { ownedTarget } from '../http/duplicates.js';
import { invalidRequest } from '../http/errors.js';
import { optionalBoolean, requireInt64 } from '../http/params.js';
import { ok, success, type Routes, type TallyRequest } from '../http/types.js';
import { validate } from '../http/validation.js';
import { requireUnmerged } from '../points/request.js';
import { updateUnlessUnchanged } from '../store/unchanged.js';
import { AssociationStore } from './store.js';
import type { Association } from './types.js';
import { associationView } from './view.js';
import { wireDatetime } from '../http/wire.js';

function associationNotFound(customerId: string, associateId: string): TallyError {
  return new TallyError('association_not_found', `associate_customer_id: no active association between ${customerId} and ${associateId}`, 'associate_customer_id');
}

export function associationsRoutes({ env, duplicates }: ServerContext): Routes {
  const customers = new CustomerStore(env);
  const store = new AssociationStore(env);

  /** Inside a transaction: the active association of the pair, both customers existing. */
  const activePair = (req: TallyRequest, customerId: string, associateId: string): Association => {
    findCustomer(customers, req.tenant, 'id', customerId, 'customer_id');
    findCustomer(customers, req.tenant, 'id', associateId, 'associate_customer_id');
    const association = store.active(req.tenant, customerId, associateId);
    if (!association) throw associationNotFound(customerId, associateId);
    return association;
  };

  // Common rule 8: the pair's association, whichever operation; it goes when either customer is deleted.
  const pairTarget = (req: TallyRequest, customerId: string, associateId: string) =>
    ownedTarget(
      `association:${customerId}:${associateId}`,
      customerOwner(customers, req.tenant, 'id', customerId, 'customer_id'),
      customerOwner(customers, req.tenant, 'id', associateId, 'associate_customer_id'),
    );

  return {
    'associations.create': (req) => {
      const body = validate('associations.create', req.body);
      if (body.customer_id === body.associate_customer_id) throw invalidRequest('associate_customer_id', 'must differ from customer_id');
      return duplicates.suppress(req, pairTarget(req, body.customer_id, body.associate_customer_id), async () => {
        const now = wireDatetime(req.now);
        const association = await env.transact(() => {
          findCustomer(customers, req.tenant, 'id', body.customer_id, 'customer_id');
          findCustomer(customers, req.tenant, 'id', body.associate_customer_id, 'associate_customer_id');
          // Neither side may be merged or merging: a merged customer is a tombstone whose associations went to the
          // customer it was merged into (one made now would tie to an account nobody uses, and as the owner be what
          // associate_id lookups answer); a merging one is about to be, its merge association taking the pair.
          requireUnmerged(customers, req.tenant, body.customer_id, { field: 'customer_id', value: body.customer_id });
          requireUnmerged(customers, req.tenant, body.associate_customer_id, { field: 'associate_customer_id', value: body.associate_customer_id });
          const active = body.active;
          if (active && store.active(req.tenant, body.customer_id, body.associate_customer_id)) {
            throw new TallyError('conflict', 'associate_customer_id: the two customers already have an active association', 'associate_customer_id');
          }
          return store.create(req.tenant, {
            customer_id: body.customer_id,
            associate_customer_id: body.associate_customer_id,
            relationship_type: body.relationship_type ?? null,
            active,
            main: body.main,
            created_at: now,
            updated_at: now,
          });
        });
        return ok(associationView(association));
      });
    },

    'associations.update': (req) => {
      const body = validate('associations.update', req.body);
      return duplicates.suppress(req, pairTarget(req, body.customer_id, body.associate_customer_id), async () => {
        const updated = (association: Association): Association => ({
          ...association,
          relationship_type: body.relationship_type,
          main: body.main ?? association.main,
          updated_at: wireDatetime(req.now),
        });
        // An update of the values held writes nothing (updated_at kept, no audit entry).
        await updateUnlessUnchanged(env, () => activePair(req, body.customer_id, body.associate_customer_id), updated, (association, next) => {
          store.put(req.tenant, next, association);
        });
        return success();
      });
    },

    'associations.delete': (req) => {
      const customerId = requireInt64(req.query.get('customer_id'), 'customer_id');
      const associateId = requireInt64(req.query.get('associate_customer_id'), 'associate_customer_id');
      return duplicates.suppress(req, pairTarget(req, customerId, associateId), async () => {
        await env.transact(() => {
          const association = activePair(req, customerId, associateId);
          store.put(req.tenant, { ...association, active: false, updated_at: wireDatetime(req.now) }, association);
        });
        return success();
      });
    },

    'associations.list': (req) => {
      const customer = findCustomer(customers, req.tenant, 'id', req.params.id, 'id');
      const active = optionalBoolean(req.query.get('active'), 'active') ?? true;
      const list = store.ofCustomer(req.tenant, customer.id).filter((a) => a.active === active);
      return ok({ list: list.map(associationView) });
    },
  };
}
