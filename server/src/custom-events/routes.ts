/** Custom events and their definitions (spec part 2, Custom events). */
import { LmdbCampaignStore } from '../campaigns/store.js';
import type { ServerContext } from '../context.js';
import { customerOwner } from '../customers/lookup.js';
import { CustomerStore } from '../customers/store.js';
import { ownedTarget } from '../http/duplicates.js';
import { ok, type Routes } from '../http/types.js';
import { validate } from '../http/validation.js';
import { InstantWinStore } from '../instant-wins/store.js';
import { boundDeps } from '../triggers/routes.js';
import { createCustomEvent } from './create.js';
import { createDefinition, DEFINITION_DATABASES, listDefinitions } from './definitions.js';
import { getCustomEvent, listCustomEvents } from './list.js';
import { CUSTOM_EVENT_DATABASES, CustomEventStore } from './store.js';

export function customEventRoutes(ctx: ServerContext): Routes {
  for (const name of [...CUSTOM_EVENT_DATABASES, ...DEFINITION_DATABASES]) ctx.env.db(name);
  const deps = boundDeps(ctx);
  const events = new CustomEventStore(ctx.env);
  const customers = new CustomerStore(ctx.env);
  const stores = { events, customers, campaigns: new LmdbCampaignStore(ctx.env), instantWins: new InstantWinStore(ctx.env) };
  return {
    // Common rule 8: an identical create within 5 minutes answers as the first (the target: the event id, else the
    // customer's events), until the customer is deleted with its events.
    'custom_events.create': (req) => {
      const body = validate('custom_events.create', req.body);
      const record = body.id !== undefined ? `custom_event:${body.id}` : `custom_events:${body.customer_id ?? body.customer_code}`;
      const owner = body.customer_id !== undefined
        ? customerOwner(customers, req.tenant, 'id', body.customer_id, 'customer_id')
        : body.customer_code === undefined ? undefined : customerOwner(customers, req.tenant, 'code', body.customer_code, 'customer_code');
      return ctx.duplicates.suppress(req, ownedTarget(record, owner), () => createCustomEvent(deps, stores, req, body));
    },
    'custom_events.list': (req) => ok(listCustomEvents(events, customers, req)),
    'custom_events.get': (req) => ok(getCustomEvent(events, req)),
    'custom_event_definitions.create': (req) => {
      const body = validate('custom_event_definitions.create', req.body);
      return ctx.duplicates.suppress(req, `custom_event_definition:${body.slug}`, () => createDefinition(ctx.env, req, body));
    },
    'custom_event_definitions.list': (req) => listDefinitions(ctx.env, req),
  };
}
