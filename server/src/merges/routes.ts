/**
 * The merge operations (contract part 1, Merging): transfer (completed in one
 * transaction), transfer-new (merging at once, merged asynchronously) and
 * unmerge.
 */
import { TallyError } from '@tally/engine';
import { auditMention, deferredAudit } from '../audit/context.js';
import { AssociationStore } from '../associations/store.js';
import type { ServerContext } from '../context.js';
import { customerTarget, findCustomer } from '../customers/lookup.js';
import { CustomerStore } from '../customers/store.js';
import { requireBoolean } from '../http/params.js';
import { success, type Routes, type TallyRequest } from '../http/types.js';
import { validate } from '../http/validation.js';
import type { MergesTransfer } from '../wire/types.js';
import { completeMerge } from './merge.js';
import { checkNaming, transferParties } from './parties.js';
import { MergeStore } from './store.js';
import { unmerge } from './unmerge.js';
import { MergeWorker } from './worker.js';
import { observe } from '../sweeps.js';
import { wireDatetime } from '../http/wire.js';

export function mergesRoutes({ env, tenancy, log, duplicates, config, metrics }: ServerContext): Routes {
  const customers = new CustomerStore(env);
  const merges = new MergeStore(env);
  const worker = new MergeWorker(env, tenancy, merges, log, config.mergeDelayMs, duplicates, observe(metrics, 'merges'));
  worker.resumeQueued();

  const readBody = (req: TallyRequest) => {
    const body = validate('merges.transfer', req.body);
    checkNaming(body);
    return body;
  };
  // The record a merge changes is the old customer (as unmerge's is the associate): a change between two identical merges counts.
  const target = (req: TallyRequest, body: MergesTransfer) =>
    body.old_customer_id !== undefined
      ? customerTarget(customers, req.tenant, 'id', body.old_customer_id, 'old_customer_id')
      : customerTarget(customers, req.tenant, 'code', body.old_customer_code!, 'old_customer_code');

  return {
    'merges.transfer': (req) => {
      const body = readBody(req);
      return duplicates.suppress(req, target(req, body), async () => {
        const now = wireDatetime(req.now);
        await env.transact(() => {
          const { old, target: into } = transferParties(customers, req.tenant, body);
          auditMention(req, into.id);
          const merge = merges.create(req.tenant, {
            old_customer_id: old.id,
            new_customer_id: into.id,
            relationship_type: body.relationship_type,
            motive: body.motive,
            mode: 'transfer',
            status: 'pending',
            moved: {},
            created_at: now,
          });
          completeMerge(env, customers, merges, { tenant: req.tenant, settings: req.settings, now }, merge);
        });
        return success();
      });
    },

    'merges.transfer_new': (req) => {
      const body = readBody(req);
      return duplicates.suppress(req, target(req, body), async () => {
        const now = wireDatetime(req.now);
        const merge = await env.transact(() => {
          const { old, target: into } = transferParties(customers, req.tenant, body);
          auditMention(req, into.id);
          const associations = new AssociationStore(env);
          if (associations.active(req.tenant, old.id, into.id) || associations.active(req.tenant, into.id, old.id)) {
            throw new TallyError('conflict', 'new_customer_id: the two customers have an active association', 'new_customer_id');
          }
          customers.put(req.tenant, { ...old, status: 'merging', updated_at: now }, old);
          const created = merges.create(req.tenant, {
            old_customer_id: old.id,
            new_customer_id: into.id,
            relationship_type: body.relationship_type,
            motive: body.motive,
            mode: 'transfer_new',
            status: 'pending',
            old_status: old.status,
            moved: {},
            created_at: now,
          });
          merges.enqueue(req.tenant, created.id, deferredAudit(req));
          return created;
        });
        worker.schedule(req.tenant, merge.id);
        return success();
      });
    },

    'merges.unmerge': (req) => {
      const withActivities = requireBoolean(req.query.get('with_activites'), 'with_activites');
      // The contract: search_param defaults to id when absent or invalid.
      const by = req.query.get('search_param') === 'code' ? 'code' : 'id';
      return duplicates.suppress(req, customerTarget(customers, req.tenant, by, req.params.associate_id, 'associate_id'), async () => {
        await env.transact(() => {
          const associate = findCustomer(customers, req.tenant, by, req.params.associate_id, 'associate_id');
          unmerge(env, customers, merges, { tenant: req.tenant, settings: req.settings, now: wireDatetime(req.now) }, associate, withActivities);
        });
        return success();
      });
    },
  };
}
