/** PATCH (and PUT) /customers/{value}: fields replace, attributes merge (JSON Merge Patch). */
import type { ServerContext } from '../context.js';
import { optionalBoolean, optionalEnum } from '../http/params.js';
import { success, type Reply, type TallyRequest } from '../http/types.js';
import { validate } from '../http/validation.js';
import { recalculateTiers } from '../tiers/recalculate.js';
import { defineAttributes } from './attribute-definitions.js';
import { patchAttributes } from './attributes.js';
import { updatedCustomer } from './fields.js';
import { claimIdentifiers } from './identifiers.js';
import { customerTarget, findCustomer } from './lookup.js';
import type { CustomerStore } from './store.js';
import { wireDatetime } from '../http/wire.js';

export function updateCustomer({ env, duplicates }: ServerContext, store: CustomerStore) {
  return (req: TallyRequest): Promise<Reply> => {
    const by = optionalEnum(req.query.get('search_param'), 'search_param', ['id', 'code'] as const) ?? 'id';
    const allowed = {
      email: optionalBoolean(req.query.get('allow_duplicate_email'), 'allow_duplicate_email') ?? false,
      dni: optionalBoolean(req.query.get('allow_duplicate_dni'), 'allow_duplicate_dni') ?? false,
    };
    const body = validate('customers.update', req.body);
    // Deprecated and ignored: the server sets updated_at.
    delete body.updated_at;
    return duplicates.suppress(req, customerTarget(store, req.tenant, by, req.params.value, 'value'), async () => {
      const now = wireDatetime(req.now);
      await env.transact(() => {
        const record = findCustomer(store, req.tenant, by, req.params.value, 'value');
        const next = updatedCustomer(record, body, now);
        if (body.attributes !== undefined) {
          next.attributes = patchAttributes(req.tenant, req.settings, record.attributes, body.attributes);
          defineAttributes(env, req.tenant, Object.keys(next.attributes), now);
        }
        const updated = claimIdentifiers(store, req.tenant, next, allowed, record);
        store.put(req.tenant, updated, record);
        store.raiseChanged(req.tenant, 'customer.updated', updated.id);
        recalculateTiers(env, req.tenant, updated, now, req.settings);
      });
      return success();
    });
  };
}
