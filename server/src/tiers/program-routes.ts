/** The back office of tier programs: POST /tier_programs and PATCH (or PUT) /tier_programs/{id}. */
import { auditTarget } from '../audit/context.js';
import { TallyError } from '@tally/engine';
import type { ServerContext } from '../context.js';
import { requireInt64 } from '../http/params.js';
import { success, type Routes } from '../http/types.js';
import { validate } from '../http/validation.js';
import { wireInt } from '../http/wire.js';
import { allocateId } from '../store/ids.js';
import { updateUnlessUnchanged } from '../store/unchanged.js';
import { changedProgram, newProgram } from './program.js';
import { TierStore } from './store.js';

export function tierProgramRoutes({ env, duplicates }: ServerContext): Routes {
  const tiers = new TierStore(env);
  return {
    'tier_programs.create': (req) =>
      duplicates.suppress(req, 'tier_programs:create', async () => {
        const body = validate('tier_programs.create', req.body);
        const program = newProgram('0', body, req.settings);
        const id = await env.transact(() => {
          const stored = { ...program, id: allocateId(env, req.tenant, 'tier_programs') };
          auditTarget(req, `tier_program:${stored.id}`);
          tiers.putProgram(req.tenant, stored);
          return stored.id;
        });
        return success({ id: wireInt(id) });
      }),

    'tier_programs.update': (req) => {
      const id = requireInt64(req.params.id, 'id');
      return duplicates.suppress(req, `tier_program:${id}`, async () => {
        const body = validate('tier_programs.update', req.body);
        const existing = () => {
          const program = tiers.program(req.tenant, id);
          if (!program) throw new TallyError('tier_program_not_found', `id: no tier program ${id}`, 'id');
          return program;
        };
        // An update of the values held writes nothing (no audit entry).
        await updateUnlessUnchanged(env, existing, (previous) => changedProgram(previous, body, req.settings), (_, next) => tiers.putProgram(req.tenant, next));
        return success({ id: wireInt(id) });
      });
    },
  };
}
