/** The customer operations of contract part 1 ("Customers"); each lives in its own file. */
import { AssociationStore } from '../associations/store.js';
import { auditErased } from '../audit/context.js';
import type { ServerContext } from '../context.js';
import { ownedTarget } from '../http/duplicates.js';
import { optionalEnum, requireBoolean } from '../http/params.js';
import { success, type Routes } from '../http/types.js';
import { validate } from '../http/validation.js';
import { requireUnmerged } from '../points/request.js';
import { listAttributes } from './attribute-list.js';
import { attachCard } from './cards.js';
import { customerDeleted } from './audit-erasure.js';
import { createCustomer } from './create.js';
import { openCustomerDatabases } from './databases.js';
import { deleteCustomer } from './delete.js';
import { exportCustomer } from './export.js';
import { customerOwner, customerTarget, findCustomer } from './lookup.js';
import { getCustomer, listCustomers, searchCustomer } from './read.js';
import { CustomerStore } from './store.js';
import { updateCustomer } from './update.js';
import { wireDatetime, wireInt } from '../http/wire.js';
import { stringifyJson } from '../http/json.js';
import { eraseCustomerFromDeliveries, raiseEvent } from '../webhooks/outbox.js';

export function customersRoutes(ctx: ServerContext): Routes {
  const { env, duplicates } = ctx;
  openCustomerDatabases(env);
  const store = new CustomerStore(env);
  return {
    'customers.create': createCustomer(ctx, store),
    'customers.list': listCustomers(store),
    'customers.search': searchCustomer(store, new AssociationStore(env)),
    'customers.get': getCustomer(store),
    'customers.update': updateCustomer(ctx, store),
    'customers.attributes': listAttributes(env, store),
    'customers.export': exportCustomer(ctx, store),

    'customers.delete': (req) => {
      const hard = requireBoolean(req.query.get('hard'), 'hard');
      const by = optionalEnum(req.query.get('search_param'), 'search_param', ['id', 'code'] as const) ?? 'id';
      return duplicates.suppress(req, customerTarget(store, req.tenant, by, req.params.value, 'value'), async () => {
        const { id, mode } = await env.transact(() => {
          const record = findCustomer(store, req.tenant, by, req.params.value, 'value');
          const now = wireDatetime(req.now);
          const mode = deleteCustomer(env, store, req.tenant, record, hard, now);
          // Its own entry records no more of the customer than those the delete redacted.
          auditErased(req, record.id, customerDeleted(now));
          // Webhook bodies naming it too, pending and settled, before its own event is written whole.
          eraseCustomerFromDeliveries(env, req.tenant, record.id, now);
          // Not the profile: a deleted customer's data leaves Tally no more.
          raiseEvent(env, req.tenant, 'customer.deleted', () => stringifyJson({ id: wireInt(record.id), code: record.code ?? null, deleted: mode }), () => []);
          return { id: record.id, mode };
        });
        // Its cards, events, associations... went with it: identical creates of them run again.
        duplicates.deleted(req, `customer:${id}`);
        return success({ deleted: mode });
      });
    },

    'customers.cards': (req) => {
      const body = validate('customers.cards', req.body);
      return duplicates.suppress(req, ownedTarget(`card:${body.id}`, customerOwner(store, req.tenant, 'id', req.params.id, 'id')), async () => {
        await env.transact(() => {
          const customer = findCustomer(store, req.tenant, 'id', req.params.id, 'id');
          // A merged customer's cards are the receiver's: one attached to it would stay on the tombstone. A merging
          // one is refused as points movements are, rather than its card moving away under the caller.
          requireUnmerged(store, req.tenant, customer.id, { field: 'id', value: req.params.id });
          attachCard(env, req.tenant, { ...body, main: body.main ?? false, customer_id: customer.id, created_at: wireDatetime(req.now) });
        });
        return success();
      });
    },
  };
}
