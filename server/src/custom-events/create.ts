/**
 * POST /custom_events (+ /custom_entities): stores a customer's event after
 * checking its data against its definition's schema, and grants the points
 * of the campaigns bound to that definition (custom_entity_definition_id)
 * whose conditions hold, as one `custom_entity` points transaction, and
 * draws the instant wins bound to it, in the same commit. Campaign conditions read the event's flat data as
 * `attributes.<name>`. As a cart's creation_date, the event's created_at decides targeting, the points' dates,
 * the dates its vouchers are judged at and its counters' periods (never one after the ingestion); the points
 * transaction is dated when the event is ingested (ingested_at). A merging or
 * merged customer is refused (402 customer_inactive). A stored event raises custom_event.created.
 * The answer's customer is the balance the transaction left, read inside it after the grant and the prizes.
 */
import { TallyError } from '@tally/engine';
import { localDate } from '../calendar/company-days.js';
import type { CampaignStore } from '../campaigns/store.js';
import type { CustomerStore } from '../customers/store.js';
import type { InstantWinStore } from '../instant-wins/store.js';
import { stringifyJson } from '../http/json.js';
import { ok, type Reply, type TallyRequest } from '../http/types.js';
import { wireDatetime, wireInt } from '../http/wire.js';
import { customerPoints } from '../points/balance.js';
import { readBalance } from '../points/ledger.js';
import { clockOf, customerFromBody, customerNamedBy, requireUnmerged } from '../points/request.js';
import { raiseEvent } from '../webhooks/outbox.js';
import type { CustomEventsCreate } from '../wire/types.js';
import { isBoundToCustomEvent, isBoundToTrigger } from '../triggers/binding.js';
import { answeredEffects, evaluateEvent, grantInTransaction, type Bound, type BoundDeps } from '../triggers/bound-points.js';
import { checkData, definitionBySlug } from './definitions.js';
import type { CustomEventRecord, CustomEventStore } from './store.js';
import { customEventView } from './view.js';

export interface EventStores {
  events: CustomEventStore;
  customers: CustomerStore;
  campaigns: CampaignStore;
  instantWins: InstantWinStore;
}

/** `body`: the request body validated by custom_events.create. */
export async function createCustomEvent(deps: BoundDeps, stores: EventStores, req: TallyRequest, body: CustomEventsCreate): Promise<Reply> {
  const { events, customers, campaigns, instantWins } = stores;
  const customer = customerFromBody(customers, req, req.body);
  const definition = definitionBySlug(deps.env, req.tenant, body.slug);
  checkData(req.tenant, definition, body.data);
  const now = wireDatetime(req.now);
  const at = body.created_at ?? now;
  const select = (): Bound => ({
    campaigns: campaigns.all(req.tenant).filter((record) => record.type === 'points' && isBoundToCustomEvent(record.rule_params, definition.id)),
    // Instant wins have no custom_entity_definition_id: `when` names the event's slug.
    instantWins: instantWins.all(req.tenant).filter((record) => isBoundToTrigger(record.rule_params, body.slug)),
  });
  const event = { customer, at, data: body.data, seed: await deps.seeds.seed(req.tenant, `${now}\n${req.rawBody}`) };
  // Read again in the transaction when a campaign changed meanwhile (grantInTransaction).
  const evaluate = () => evaluateEvent(deps, req, event, select);
  const evaluation = evaluate();
  const { record, granted, balance } = await deps.env.transact(() => {
    requireUnmerged(customers, req.tenant, customer.id, customerNamedBy(body));
    if (body.id !== undefined && events.get(req.tenant, body.id)) {
      throw new TallyError('duplicate_id', `id: a custom event ${body.id} already exists`, 'id');
    }
    let seq = events.nextSeq(req.tenant);
    // A generated id is the sequence number, skipping any a client already used as an id.
    while (body.id === undefined && events.get(req.tenant, seq)) seq = events.nextSeq(req.tenant);
    const granted = grantInTransaction(deps, req, customer, evaluate, evaluation, {
      type: 'custom_entity',
      // Dated when ingested, as a cart's transaction is (whatever its creation_date): polls by created_at_gt see every grant.
      created_at: now,
      origin_info: { slug: body.slug },
      scoreInOrigin: true,
    });
    const record: CustomEventRecord = {
      seq,
      id: body.id ?? seq,
      customer_id: customer.id,
      customer_code: customer.code ?? null,
      slug: body.slug,
      definition_id: definition.id,
      data: stringifyJson(body.data),
      created_at: at,
      ingested_at: now,
      points_transaction_id: granted.transaction?.id ?? null,
    };
    events.put(req.tenant, record);
    raiseEvent(deps.env, req.tenant, 'custom_event.created', () => stringifyJson(customEventView(record)), () => [record.customer_id]);
    return { record, granted, balance: readBalance(deps.env, req.tenant, customer.id, clockOf(req)) };
  });
  const tx = granted.transaction;
  const today = localDate(req.now, req.settings.timezone);
  return ok({
    ...customEventView(record),
    score: tx ? tx.amount + tx.pending_amount : 0,
    // As the ledger settles them today (a cart's summary counts its points so): points of a back-dated event whose
    // available_to has passed were expired in the same commit.
    score_available: (tx?.scores ?? []).reduce((sum, s) => (s.available_from <= today && (s.available_to === null || s.available_to >= today) ? sum + s.score : sum), 0),
    scores: (tx?.scores ?? []).map((s) => ({
      score: s.score,
      loyalty_score_id: s.loyalty_score_id === null ? null : wireInt(s.loyalty_score_id),
      available_from: s.available_from,
      available_to: s.available_to,
    })),
    customer: customerPoints(customer, balance),
    effects: answeredEffects(granted.effects, granted.bound, req),
  });
}
