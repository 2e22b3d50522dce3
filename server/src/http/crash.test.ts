/**
 * kill -9 during a stream of mixed writes, each sent with an Idempotency-Key (common rule 6): after the restart
 * every acknowledged write is stored with its ledger entries, its replay answers the first answer byte for byte,
 * and the replay of a write that got no answer runs at most once (nothing doubled) whether or not it had committed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { balance, createCustomer, expectLedgerAddsUp, transactions, triggerCampaign } from '../points/testing.js';
import { startServer, type TestResponse, type TestServer } from '../testing/server.js';

const CUSTOMERS = [1, 2, 3, 4, 5, 6];

interface Sent {
  key: string;
  path: string;
  body: Record<string, unknown>;
  /** The customers whose ledger the write moves, found by its comments. */
  ledgers: number[];
  /** The answer, if one came before the crash. */
  answer?: TestResponse;
}

function write(n: number): Omit<Sent, 'key' | 'answer'> {
  const customer = CUSTOMERS[n % CUSTOMERS.length];
  const other = CUSTOMERS[(n + 1) % CUSTOMERS.length];
  const comments = `w${n}`;
  switch (n % 6) {
    case 0: return { path: '/trigger', body: { trigger: 'earn', customer_id: customer, comments }, ledgers: [customer] };
    case 1: return { path: '/points/redeem', body: { customer_id: customer, amount: 7, comments }, ledgers: [customer] };
    case 2: return { path: '/points/transfer', body: { score: 3, from_customer_id: customer, to_customer_id: other, comments }, ledgers: [customer, other] };
    case 3: return { path: '/custom_events', body: { id: comments, slug: 'visit', customer_id: customer, data: { n } }, ledgers: [] };
    case 4: return { path: '/customers', body: { id: 1000 + n, name: comments, registration_location_id: 1 }, ledgers: [] };
    default: return { path: '/webhooks', body: { url: `http://127.0.0.1:9/${comments}`, events: ['customer.created'], active: false }, ledgers: [] };
  }
}

describe('kill -9 during a stream of mixed writes sent with Idempotency-Key', () => {
  let server: TestServer;
  const sent: Sent[] = [];
  /** The answers of the unacknowledged writes' replays after the restart. */
  const replays = new Map<string, TestResponse>();

  beforeAll(async () => {
    server = await startServer({ env: { WEBHOOK_POLL_INTERVAL_MS: '0', REFERRAL_POLL_INTERVAL_MS: '0', POINTS_SETTLEMENT_INTERVAL_MS: '0' } });
    for (const id of CUSTOMERS) await createCustomer(server.client, id);
    await triggerCampaign(server.client, 'earn', 100);
    expect((await server.client.post('/custom_event_definitions', { slug: 'visit', schema: { type: 'object' } })).status).toBe(200);
    let next = 0;
    let acknowledged = 0;
    let crashed = false;
    const stream = async () => {
      while (!crashed) {
        const n = next++;
        const request: Sent = { key: `key-${n}`, ...write(n) };
        sent.push(request);
        try {
          const answer = await server.client.post(request.path, request.body, { headers: { 'Idempotency-Key': request.key } });
          // Any answer read before the crash was sent by the server: it is the one a replay must give.
          request.answer = answer;
          acknowledged += 1;
        } catch {
          // the connection died with the server
        }
      }
    };
    const streams = Array.from({ length: 12 }, stream);
    while (acknowledged < 150) await new Promise((resolve) => setTimeout(resolve, 5));
    crashed = true;
    await server.crash();
    await Promise.all(streams);
    await server.restart();
    for (const request of sent.filter((r) => !r.answer)) {
      replays.set(request.key, await server.client.post(request.path, request.body, { headers: { 'Idempotency-Key': request.key } }));
    }
  }, 60_000);
  afterAll(async () => {
    await server.dispose();
  });

  it('answers every acknowledged write again with its first answer, byte for byte', async () => {
    const acknowledged = sent.filter((r) => r.answer);
    expect(acknowledged.length).toBeGreaterThanOrEqual(150);
    for (const { key, path, body, answer } of acknowledged) {
      const replay = await server.client.post(path, body, { headers: { 'Idempotency-Key': key } });
      expect(replay.status, key).toBe(answer!.status);
      expect(replay.text, key).toBe(answer!.text);
      expect(replay.headers.get('Idempotent-Replayed'), key).toBe('true');
    }
  });

  it('answers the replay of a write that committed but got no answer 409 conflict, without running it again', () => {
    for (const [key, replay] of replays) {
      expect([200, 402, 409], key).toContain(replay.status);
      if (replay.status === 409) expect(replay.body, key).toEqual({ code: 'conflict', error: expect.stringMatching(/^Idempotency-Key: the request with this key was carried out/) });
    }
  });

  it('keeps every acknowledged write with all its parts, and every write at most once', async () => {
    const comments = new Map<number, string[]>();
    for (const id of CUSTOMERS) {
      await expectLedgerAddsUp(server.client, id);
      comments.set(id, (await transactions(server.client, id)).map((t) => String(t.origin_info.comments)));
    }
    for (const request of sent) {
      const answered = request.answer?.status === 200 || replays.get(request.key)?.status === 200;
      for (const id of request.ledgers) {
        const entries = comments.get(id)!.filter((c) => c === `w${request.key.slice(4)}`).length;
        // A transfer writes one entry on each side; a write answered 200 (before the crash or by its replay) has its entries.
        expect(entries, `${request.key} on customer ${id}`).toBeLessThanOrEqual(1);
        if (answered) expect(entries, `${request.key} on customer ${id}`).toBe(1);
        // Committed before the crash, unanswered: its replay says so and runs nothing.
        if (replays.get(request.key)?.body.code === 'conflict') expect(entries, `${request.key} on customer ${id}`).toBe(1);
      }
      if (request.answer?.status !== 200) continue;
      if (request.path === '/customers') expect((await server.client.get(`/customers/${request.body.id}`, { query: { search_param: 'id' } })).status, request.key).toBe(200);
      if (request.path === '/webhooks') expect((await server.client.get(`/webhooks/${request.answer.body.id}`)).status, request.key).toBe(200);
      if (request.path === '/custom_events') expect((await server.client.get(`/custom_events/${request.body.id}`)).status, request.key).toBe(200);
    }
    // Each balance is what the writes that ran made of it.
    for (const id of CUSTOMERS) {
      const ran = comments.get(id)!;
      expect((await balance(server.client, id)).score, `customer ${id}`).toBe(
        sent.reduce((sum, r) => {
          if (!ran.includes(`w${r.key.slice(4)}`)) return sum;
          if (r.path === '/trigger') return sum + 100;
          if (r.path === '/points/redeem') return sum - 7;
          if (r.path === '/points/transfer') return sum + (r.body.from_customer_id === id ? -3 : 3);
          return sum;
        }, 0),
      );
    }
  });
});
