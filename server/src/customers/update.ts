/** PATCH (and PUT) /customers/{value}: fields replace, attributes merge (JSON Merge Patch). */
import type { ServerContext } from '../context.js';
import { optionalBoolean, optionalEnum } from '../http/params.js';
import { success, type Reply, type TallyRequest } from '../http/types.js';
import { validate } from '../http/validation.js';
import { checkRegistrationPair } from '../locations/registration.js';
import { LocationStore } from '../locations/store.js';
import { recalculateTiers } from '../tiers/recalculate.js';
import { advanceAttributeChallenges } from '../challenges/progress.js';
import { clockOf } from '../points/request.js';
import { changesNothing } from '../store/unchanged.js';
import type { CustomersUpdate } from '../wire/types.js';
import { defineAttributes } from './attribute-definitions.js';
import { patchAttributes } from './attributes.js';
import { updatedCustomer } from './fields.js';
import { claimIdentifiers } from './identifiers.js';
import { customerTarget, findCustomer } from './lookup.js';
import type { CustomerStore } from './store.js';
import type { CustomerRecord } from './types.js';
import { wireDatetime } from '../http/wire.js';

/** The record as the update leaves it (updated_at `now`), attributes merged; invalid_request as its checks find. */
function patched(req: TallyRequest, record: CustomerRecord, body: CustomersUpdate, now: string): CustomerRecord {
  const next = updatedCustomer(record, body, now);
  if (body.attributes !== undefined) next.attributes = patchAttributes(req.tenant, req.settings, record.attributes, body.attributes);
  return next;
}

export function updateCustomer({ env, duplicates }: ServerContext, store: CustomerStore) {
  const locations = new LocationStore(env);
  return (req: TallyRequest): Promise<Reply> => {
    const by = optionalEnum(req.query.get('search_param'), 'search_param', ['id', 'code'] as const) ?? 'id';
    const allowed = {
      email: optionalBoolean(req.query.get('allow_duplicate_email'), 'allow_duplicate_email') ?? false,
      dni: optionalBoolean(req.query.get('allow_duplicate_dni'), 'allow_duplicate_dni') ?? false,
    };
    const body = validate('customers.update', req.body);
    // Deprecated and ignored: the server sets updated_at.
    delete body.updated_at;
    checkRegistrationPair(locations, req.tenant, body);
    return duplicates.suppress(req, customerTarget(store, req.tenant, by, req.params.value, 'value'), async () => {
      const now = wireDatetime(req.now);
      // An update that leaves the customer as it is (nothing sent, or every value as stored) writes nothing: no
      // customer.updated event, no audit entry, updated_at kept. Judged on the record as read now, so a change
      // committed after this read is one the update came before.
      const current = findCustomer(store, req.tenant, by, req.params.value, 'value');
      if (changesNothing(patched(req, current, body, now), current)) return success();
      await env.transact(() => {
        const record = findCustomer(store, req.tenant, by, req.params.value, 'value');
        const next = patched(req, record, body, now);
        if (body.attributes !== undefined) defineAttributes(env, req.tenant, Object.keys(next.attributes), now);
        const updated = claimIdentifiers(store, req.tenant, next, allowed, record);
        store.put(req.tenant, updated, record);
        store.raiseChanged(req.tenant, 'customer.updated', updated.id);
        recalculateTiers(env, req.tenant, updated, now, req.settings, { before: record });
        advanceAttributeChallenges(env, req.tenant, { ...clockOf(req), settings: req.settings }, updated, record);
      });
      return success();
    });
  };
}
