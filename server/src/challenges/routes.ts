/**
 * Challenges: the back office (POST, PATCH /challenges) and the contract's GET
 * /challenges, GET /challenges/{id}, GET /customers/{value}/challenges, GET
 * /customers/{value}/challenges/{id} and POST /challenges/{id}/enroll.
 */
import { auditMention, auditTarget } from '../audit/context.js';
import { TallyError } from '@tally/engine';
import type { ServerContext } from '../context.js';
import { defineAttributes } from '../customers/attribute-definitions.js';
import { CustomerStore } from '../customers/store.js';
import type { CustomerRecord } from '../customers/types.js';
import { invalidRequest } from '../http/errors.js';
import { countryCode, optionalBoolean, readPage, readPerPage, requireInt64 } from '../http/params.js';
import { ok, success, type Routes, type TallyRequest } from '../http/types.js';
import { validate } from '../http/validation.js';
import { wireDatetime, wireInt } from '../http/wire.js';
import { localDate } from '../calendar/company-days.js';
import { clockOf, customerFromPath, customerNamedBy, requireActive, requireStillActive } from '../points/request.js';
import { customerCountry } from '../rewards/eligibility.js';
import { allocateId } from '../store/ids.js';
import { changesNothing } from '../store/unchanged.js';
import { idKey } from '../store/keys.js';
import { requireCustomer } from '../vouchers/customer.js';
import { isCartMetric } from './measure.js';
import { isRunning, rewardLevels } from './progress.js';
import { buildChallenge } from './record.js';
import { ChallengeStore } from './store.js';
import type { ChallengeRecord } from './types.js';
import { challengeView, customerChallengeView, type ViewContext } from './view.js';

export function challengeRoutes({ env, duplicates }: ServerContext): Routes {
  const challenges = new ChallengeStore(env);
  const customers = new CustomerStore(env);
  const viewContext = (req: TallyRequest): ViewContext => ({ env, tenant: req.tenant, language: req.language, settings: req.settings, now: req.now, challenges });
  // Inside the write: a custom attribute a challenge measures has its id (customer_attribute_id) before any customer stores it,
  // the id GET /customers/{id}/attributes lists once one does.
  const defineMeasured = (req: TallyRequest, challenge: ChallengeRecord) => {
    if (!isCartMetric(challenge.attribute)) defineAttributes(env, req.tenant, [challenge.attribute], challenge.updated_at);
  };
  const existing = (req: TallyRequest): ChallengeRecord => {
    const id = requireInt64(req.params.id, 'id');
    const challenge = challenges.get(req.tenant, id);
    if (!challenge) throw new TallyError('challenge_not_found', `id: no challenge ${id}`, 'id');
    return challenge;
  };

  return {
    'challenges.create': (req) =>
      duplicates.suppress(req, 'challenges:create', async () => {
        const body = validate('challenges.create', req.body, req.settings);
        const draft = buildChallenge('0', body, req.settings, wireDatetime(req.now));
        const id = await env.transact(() => {
          const challenge = { ...draft, id: allocateId(env, req.tenant, 'challenges') };
          auditTarget(req, `challenge:${challenge.id}`);
          challenges.putInTransaction(req.tenant, challenge);
          defineMeasured(req, challenge);
          return challenge.id;
        });
        return success({ id: wireInt(id) });
      }),

    'challenges.update': (req) =>
      duplicates.suppress(req, `challenge:${requireInt64(req.params.id, 'id')}`, async () => {
        const body = validate('challenges.update', req.body, req.settings);
        const previous = existing(req);
        const challenge = buildChallenge(previous.id, body, req.settings, wireDatetime(req.now), previous);
        // An update of the values held writes nothing (no updated_at moved, no audit entry), as rewards' do.
        if (changesNothing(challenge, previous)) return success({ id: wireInt(challenge.id) });
        await env.transact(() => {
          challenges.putInTransaction(req.tenant, challenge);
          defineMeasured(req, challenge);
        });
        return success({ id: wireInt(challenge.id) });
      }),

    'challenges.list': async (req) => {
      const sent = req.query.get('country') || undefined;
      const country = sent === undefined ? undefined : countryCode(sent, 'country');
      const type = req.query.get('type') || undefined;
      const page = challenges.page(req.tenant, readPage(req.query), (c) => {
        if (type !== undefined && c.challenge_type !== type) return undefined;
        if (country !== undefined && c.countries.length > 0 && !c.countries.includes(country)) return undefined;
        return challengeView(c, viewContext(req));
      });
      return ok(page);
    },

    'challenges.get': async (req) => ok(challengeView(existing(req), viewContext(req))),

    'challenges.customer_list': async (req) => {
      const customer = customerFromPath(customers, req);
      const onlyEnrolled = optionalBoolean(req.query.get('only_enrolled'), 'only_enrolled') ?? false;
      const byDisplay = optionalBoolean(req.query.get('use_display_dates'), 'use_display_dates') ?? false;
      const type = req.query.get('type') || undefined;
      const today = localDate(req.now, req.settings.timezone);
      const country = customerCountry(customer, req.settings);
      const ranked = challenges
        .all(req.tenant)
        .filter((c) => c.status === 'active' && (c.countries.length === 0 || c.countries.includes(country)))
        .filter((c) => shown(c, today, byDisplay))
        .filter((c) => type === undefined || c.challenge_type === type)
        .map((c) => ({ challenge: c, enrolled: challenges.progress(req.tenant, customer.id, c.id).enrolled_at !== null }))
        .filter((c) => !onlyEnrolled || c.enrolled)
        .map((c) => ({ ...c, cursor: `${c.enrolled ? 0 : 1}:${idKey(c.challenge.id)}` }))
        .sort((a, b) => (a.cursor < b.cursor ? -1 : 1));
      const after = readCursor(req.query.get('starting_after') || undefined);
      const rest = after === undefined ? ranked : ranked.filter((c) => c.cursor > after);
      const perPage = readPerPage(req.query.get('per_page'));
      const data = rest.slice(0, perPage).map((c) => customerChallengeView(c.challenge, customer, viewContext(req)));
      return ok(rest.length > perPage ? { data, next_token_starts_after: Buffer.from(rest[perPage - 1].cursor).toString('base64url') } : { data });
    },

    'challenges.customer_get': async (req) => {
      const customer = customerFromPath(customers, req);
      return ok(customerChallengeView(existing(req), customer, viewContext(req)));
    },

    // Enrolling is idempotent by itself (a repeat changes nothing): no duplicate suppression needed.
    'challenges.enroll': async (req) => {
      const body = validate('challenges.enroll', req.body);
      const customer = requireCustomer(customers, req.tenant, body);
      auditMention(req, customer.id);
      const id = requireInt64(req.params.id, 'id');
      // A customer enrolled already is answered without a transaction: nothing written, no audit entry (as an update
      // of the values held). Judged on the enrolment as read now: one committed after this read is one this came before.
      requireActive(customer, customerNamedBy(body).field);
      if (enrolment(req, id, customer).enrolled) return success();
      await env.transact(() => {
        // Read again inside the transaction: enrolled after a merge or delete committed since the lookup, the
        // customer would hold an enrolment and level points on an account nobody reads.
        requireStillActive(customers, req.tenant, customer.id, customerNamedBy(body));
        enroll(req, id, customer);
      });
      return success();
    },
  };

  /** Challenge `id` (404 challenge_not_found when there is none) and whether the customer is enrolled in it. */
  function enrolment(req: TallyRequest, id: string, customer: CustomerRecord): { challenge: ChallengeRecord; enrolled: boolean } {
    const challenge = challenges.get(req.tenant, id);
    if (!challenge) throw new TallyError('challenge_not_found', `id: no challenge ${id}`, 'id');
    return { challenge, enrolled: challenges.progress(req.tenant, customer.id, id).enrolled_at !== null };
  }

  /** Inside `env.transact`: checks first, then the enrolment and the levels already reached. */
  function enroll(req: TallyRequest, id: string, customer: CustomerRecord): void {
    const { challenge, enrolled } = enrolment(req, id, customer);
    if (enrolled) return;
    const today = localDate(req.now, req.settings.timezone);
    if (!isRunning(challenge, today, customerCountry(customer, req.settings))) {
      throw new TallyError('forbidden_request', `id: challenge ${id} is not running for this customer (status, dates or country)`, 'id');
    }
    if (challenge.max_enrollments !== null && challenges.enrollments(req.tenant, id) >= challenge.max_enrollments) {
      throw new TallyError('conflict', `id: challenge ${id} has reached its ${challenge.max_enrollments} enrolments`, 'id');
    }
    challenges.enrollInTransaction(req.tenant, customer.id, id, wireDatetime(req.now));
    rewardLevels(env, req.tenant, { ...clockOf(req), settings: req.settings }, challenges.get(req.tenant, id)!, customer, null);
  }
}

/**
 * Listed for a customer: not ended (available_to on or after today); with
 * use_display_dates, inside the display dates instead (display_to defaulting
 * to available_to).
 */
function shown(challenge: ChallengeRecord, today: string, byDisplay: boolean): boolean {
  const end = (byDisplay ? challenge.display_to : null) ?? challenge.available_to;
  const start = byDisplay ? challenge.display_from : null;
  return (start === null || start <= today) && (end === null || today <= end);
}

function readCursor(token: string | undefined): string | undefined {
  if (token === undefined) return undefined;
  const cursor = Buffer.from(token, 'base64url').toString('utf8');
  if (!/^[01]:\d{19}$/.test(cursor)) throw invalidRequest('starting_after', 'is not a token returned by this list');
  return cursor;
}
