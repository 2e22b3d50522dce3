import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestResponse, type TestServer } from '../testing/server.js';
import { balance, createCustomer, triggerCampaign } from '../points/testing.js';

// Triggers and custom events granting points under bursts of concurrent requests, and while a back office edits the
// campaign: a budget or once limit is never overspent, and a request evaluated before a change but committed after
// it grants by the campaign as it is then (switched off: nothing), as realtime carts do (carts/live-edit.test.ts).
const BURST = 50;
const STREAM = 240;
const SENDERS = 12;
const CUSTOMERS = [51, 52, 53, 54, 55];

describe('points of triggers and custom events under concurrent requests and live edits', () => {
  let server: TestServer;
  let definition: number;
  let nextEvent = 0;

  beforeAll(async () => {
    server = await startServer();
    for (const id of CUSTOMERS) await createCustomer(server.client, id);
    const def = await server.client.post('/custom_event_definitions', { slug: 'visit', name: 'Visit', schema: { type: 'object' } });
    expect(def.status, def.text).toBe(200);
    definition = def.body.id;
  });
  afterAll(async () => {
    await server.dispose();
  });

  const customerOf = (i: number) => CUSTOMERS[i % CUSTOMERS.length]!;
  const trigger = (slug: string, i: number) => server.client.post('/trigger', { trigger: slug, customer_id: customerOf(i) });
  const visit = (i: number) => server.client.post('/custom_events', { slug: 'visit', customer_id: customerOf(i), data: { n: nextEvent++ } });
  const eventCampaign = async (name: string, points: number, params: Record<string, unknown>): Promise<number> => {
    const res = await server.client.post('/points', {
      rule_params: { name, custom_entity_definition_id: definition, rule_effects: [{ type: 'direct_value', value: points, distribution: 'total' }], ...params },
    });
    expect(res.status, res.text).toBe(200);
    return res.body.id;
  };
  /** Points the answers granted from `campaign`. */
  const grantedBy = (answers: TestResponse[], campaign: number) =>
    answers.reduce((sum, r) => sum + r.body.scores.filter((s: { loyalty_score_id: number }) => s.loyalty_score_id === campaign).reduce((n: number, s: { score: number }) => n + s.score, 0), 0);
  const budgetSpent = async (campaign: number): Promise<number> => (await server.client.get(`/points/${campaign}`)).body.budget_spent;
  const ledgerTotal = async () => {
    let total = 0;
    for (const id of CUSTOMERS) total += (await balance(server.client, id)).score;
    return total;
  };

  it.each([
    ['trigger', (i: number) => trigger('burst', i), (params: Record<string, unknown>) => triggerCampaign(server.client, 'burst', 10, params)],
    ['custom event', visit, (params: Record<string, unknown>) => eventCampaign('Burst visit', 10, params)],
  ] as const)('a %s burst never overspends a budget nor a once limit; counters and ledger equal what was answered', async (_name, send, create) => {
    const before = await ledgerTotal();
    // Once per customer and 0.30 of budget at 0.01 a point: three of the five customers get 10 points, once.
    const limited = await create({ once: 'always', once_limit: 1, budget_value: 0.3, budget_period: 'always' });
    const answers = await Promise.all(Array.from({ length: BURST }, (_, i) => send(i)));
    expect(answers.map((r) => r.status)).toEqual(Array(BURST).fill(200));
    const granted = grantedBy(answers, limited);
    expect(granted).toBe(30);
    const perCustomer = CUSTOMERS.map((id) => answers.filter((r, i) => customerOf(i) === id && grantedBy([r], limited) > 0).length);
    expect(perCustomer.every((n) => n <= 1)).toBe(true);
    expect(await budgetSpent(limited)).toBeCloseTo(granted / 100, 9);
    expect((await ledgerTotal()) - before).toBe(granted);
  });

  /**
   * Streams STREAM requests from SENDERS clients, each sending its next once answered (so requests keep arriving
   * while the change waits for its commit), applies `change` once a sixth of them are answered, polling the
   * campaign's budget_spent around it: the first reading that sees the change gives the budget spent when it
   * committed (or just after).
   */
  async function streamAround(campaign: number, send: (i: number) => Promise<TestResponse>, change: Record<string, unknown>, changed: (read: { active: boolean; budget_value: number }) => boolean) {
    let sent = 0;
    let due!: () => void;
    const reached = new Promise<void>((resolve) => (due = resolve));
    const settled: TestResponse[] = [];
    const sender = async () => {
      while (sent < STREAM) {
        settled.push(await send(sent++));
        if (settled.length === STREAM / 6) due();
      }
    };
    const senders = Promise.all(Array.from({ length: SENDERS }, sender));
    await reached;
    let editing = true;
    const readings: { changed: boolean; spent: number }[] = [];
    const poll = async () => {
      while (editing) {
        const read = (await server.client.get(`/points/${campaign}`)).body;
        readings.push({ changed: changed(read), spent: read.budget_spent });
      }
    };
    const polling = Promise.all([poll(), poll()]);
    const edit = await server.client.patch(`/points/${campaign}`, { rule_params: change });
    editing = false;
    await polling;
    expect(edit.status, edit.text).toBe(200);
    const spentAtChange = Math.min(await budgetSpent(campaign), ...readings.filter((r) => r.changed).map((r) => r.spent));
    await senders;
    expect(settled.map((r) => r.status)).toEqual(Array(STREAM).fill(200));
    return { granted: grantedBy(settled, campaign), spentAtChange, spentAfter: await budgetSpent(campaign) };
  }

  it.each([
    ['trigger', (i: number) => trigger('stream', i), (name: string) => triggerCampaign(server.client, 'stream', 10, { name, budget_value: 1000, budget_period: 'always' })],
    ['custom event', visit, (name: string) => eventCampaign(name, 10, { budget_value: 1000, budget_period: 'always' })],
  ] as const)('a campaign switched off mid-stream of %ss: nothing committed after the switch grants it', async (kind, send, create) => {
    const campaign = await create(`Switched off (${kind})`);
    const { granted, spentAtChange, spentAfter } = await streamAround(campaign, send, { active: false }, (read) => !read.active);
    expect(spentAfter).toBeCloseTo(granted / 100, 9);
    expect(spentAfter).toBe(spentAtChange);
    expect(granted).toBeGreaterThan(0);
  });

  it('a budget lowered mid-stream of triggers: nothing committed after the change spends beyond it', async () => {
    const campaign = await triggerCampaign(server.client, 'lowered', 10, { name: 'Lowered', budget_value: 1000, budget_period: 'always' });
    // 0.01 is below what the first sixth of the stream spent: from the change on, nothing more may be granted.
    const { granted, spentAtChange, spentAfter } = await streamAround(campaign, (i) => trigger('lowered', i), { budget_value: 0.01 }, (read) => read.budget_value < 1);
    expect(spentAfter).toBeCloseTo(granted / 100, 9);
    expect(spentAfter).toBe(spentAtChange);
  });
});
