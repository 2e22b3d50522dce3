/**
 * POST /customers: validate, hash the password (outside the transaction: it
 * is slow by design), then in one transaction check the id, the identifiers
 * and referred_by, and write the customer, its card and the referral trigger.
 */
import { auditTarget } from '../audit/context.js';
import { TallyError } from '@tally/engine';
import type { ServerContext } from '../context.js';
import { invalidRequest } from '../http/errors.js';
import { createTarget } from '../http/duplicates.js';
import { optionalBoolean } from '../http/params.js';
import { success, type Reply, type TallyRequest } from '../http/types.js';
import { validate } from '../http/validation.js';
import { recalculateTiers } from '../tiers/recalculate.js';
import { advanceAttributeChallenges } from '../challenges/progress.js';
import { clockOf } from '../points/request.js';
import { wireDatetime, wireInt } from '../http/wire.js';
import { allocateIdFromTop, JS_SAFE_MAX } from '../store/ids.js';
import { createAttributes } from './attributes.js';
import { defineAttributes } from './attribute-definitions.js';
import { attachCard } from './cards.js';
import { newCustomerFields } from './fields.js';
import { claimIdentifiers } from './identifiers.js';
import { resolveId } from './lookup.js';
import { checkRegistrationPair } from '../locations/registration.js';
import { LocationStore } from '../locations/store.js';
import { hashPassword } from './password.js';
import { raiseReferral } from './referrals.js';
import type { CustomerStore } from './store.js';

export function createCustomer({ env, duplicates }: ServerContext, store: CustomerStore) {
  const locations = new LocationStore(env);
  return (req: TallyRequest): Promise<Reply> => {
    const body = validate('customers.create', req.body);
    const allowed = {
      email: optionalBoolean(req.query.get('allow_duplicate_email'), 'allow_duplicate_email') ?? false,
      dni: optionalBoolean(req.query.get('allow_duplicate_dni'), 'allow_duplicate_dni') ?? false,
    };
    const now = wireDatetime(req.now);
    const fields = newCustomerFields(body, now);
    checkRegistrationPair(locations, req.tenant, body);
    const attributes = createAttributes(req.tenant, req.settings, body.attributes);
    // The record created (common rule 8), as PATCH, DELETE and merges name it: a change of it since ends the window.
    const target = body.id !== undefined
      ? `customer:${body.id}`
      : createTarget('customer', `code:${body.code}`, resolveId(store, req.tenant, 'code', body.code!, 'code'));
    return duplicates.suppress(req, target, async () => {
      const passwordHash = await hashPassword(body.password);
      const id = await env.transact(() => {
        const id = body.id ?? freeId(store, req, env);
        auditTarget(req, `customer:${id}`);
        if (store.get(req.tenant, id)) throw new TallyError('duplicate_id', `id: customer ${id} already exists`, 'id');
        if (fields.referred_by !== undefined) {
          const referrer = store.get(req.tenant, fields.referred_by);
          if (!referrer || referrer.deleted_at !== undefined) throw invalidRequest('referred_by', `no customer ${fields.referred_by}`);
        }
        const record = claimIdentifiers(store, req.tenant, { ...fields, id, attributes, password_hash: passwordHash }, allowed);
        if (body.card_id !== undefined) {
          attachCard(env, req.tenant, { id: body.card_id, customer_id: id, main: true, created_at: now }, 'card_id');
        }
        store.put(req.tenant, record);
        store.raiseChanged(req.tenant, 'customer.created', id);
        defineAttributes(env, req.tenant, Object.keys(attributes), now);
        recalculateTiers(env, req.tenant, record, now, req.settings);
        advanceAttributeChallenges(env, req.tenant, { ...clockOf(req), settings: req.settings }, record);
        if (record.referred_by !== undefined) raiseReferral(env, req.tenant, id, record.referred_by, now);
        return id;
      });
      // The id is also answered: a customer created by code alone needs to learn it.
      return success({ id: wireInt(id) });
    });
  };
}

/**
 * A customer created by code alone gets the next free id of the Company environment counted down from 2^53 - 1:
 * far from the ids a till numbers from 1, and exact for the web shops and apps (which create customers by code
 * alone) reading the answer with JSON.parse.
 */
function freeId(store: CustomerStore, req: TallyRequest, env: ServerContext['env']): string {
  for (;;) {
    const id = allocateIdFromTop(env, req.tenant, 'customer', JS_SAFE_MAX);
    if (!store.get(req.tenant, id)) return id;
  }
}
