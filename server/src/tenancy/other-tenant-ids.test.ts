/**
 * A security reviewer's sweep (contract part 1, Authentication rule 1: a key of another Company or environment
 * reaches nothing; Errors: 404 for a resource that cannot be found): every GET of the routing table with a path
 * value, sent with the ids and codes of one Company environment's records through a key of another Company, and
 * of the same Company's other environment, that holds none. Wherever the owner reads a record, the others get
 * 404 `*_not_found` whose message names nothing of it; a write through their key changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATIONS } from '../http/operations.js';
import { realtimeCart } from '../testing/carts.js';
import { runCli } from '../testing/cli.js';
import { startServer, type Client, type TestServer } from '../testing/server.js';

/** The owner's records are made with these ids and codes; every path value of the sweep is one of them. */
const VALUES = ['1', '2', '7', '100', '501', 'C7'];
const PROFILE = { name: 'Ann', surname_1: 'Secretname', email: 'ann.secret@example.com', phone: '600111222', phone_prefix: '+34' };

/** Texts of the owner's records that no refusal to another tenant may hold. */
const OWNED_TEXTS = ['Secretname', 'ann.secret@example.com', '600111222', 'Owner campaign', 'Owner milk', 'owner.example'];

describe("a key of another tenant, sent the owner's ids", () => {
  let server: TestServer;
  let others: [string, Client][];

  beforeAll(async () => {
    server = await startServer({ env: { WORKERS: '1', REALTIME_WORKERS: '1' } });
    const owner = server.client;
    expect((await owner.post('/customers', { id: 7, code: 'C7', registration_location_id: 1, ...PROFILE })).status).toBe(200);
    const effects = [{ type: 'ratio', value: 1, distribution: 'individual_items' }];
    expect((await owner.post('/points', { rule_params: { name: 'Owner campaign', rule_effects: effects } })).status).toBe(200);
    const discount = { name: 'Owner campaign', rule_effects: [{ type: 'percentage', value: 10, distribution: 'individual_items' }] };
    expect((await owner.post('/discounts', { rule_params: discount })).status).toBe(200);
    expect((await owner.post('/products', { id: 100, code: 'C7', name: 'Owner milk' })).status).toBe(200);
    expect((await owner.post('/webhooks', { url: 'https://owner.example/hooks', events: ['cart.created'] })).status).toBe(200);
    await realtimeCart(owner, 7, 10, { id: 501, code: 'C7' });
    expect((await runCli(server.dataDir, 'company', 'create', 'rival')).code).toBe(0);
    const keyOf = async (company: string, environment: string): Promise<Client> => {
      const made = await runCli(server.dataDir, 'key', 'create', '--company', company, '--environment', environment);
      expect(made.code, JSON.stringify(made.error)).toBe(0);
      return server.clientFor({ key: made.output.key, secret: made.output.secret });
    };
    others = [['another Company', await keyOf('rival', 'sandbox')], ['the production environment', await keyOf('default', 'production')]];
  }, 60_000);
  afterAll(() => server.dispose());

  /** The owner's answer to a GET of a path value, with the search_param a path value needs when the route asks for one. */
  async function ownerRead(path: string, value: string): Promise<{ query: Record<string, string> } | undefined> {
    const queries: Record<string, string>[] = [{}, { search_param: /^\d+$/.test(value) ? 'id' : 'code' }];
    for (const query of queries) {
      const res = await server.client.get(path, { query });
      if (res.status === 200) return { query };
    }
    return undefined;
  }

  it('answers 404 naming nothing of the record wherever the owner reads it', async () => {
    const swept: string[] = [];
    for (const [operation, spec] of Object.entries(OPERATIONS)) {
      if (spec.method !== 'GET' || !spec.path.includes('{')) continue;
      for (const value of VALUES) {
        const path = spec.path.replace(/\{[^}]+\}/g, value);
        const read = await ownerRead(path, value);
        if (!read) continue;
        swept.push(`${operation} ${path}`);
        for (const [who, client] of others) {
          const res = await client.get(path, read);
          expect(res.status, `${who}: GET ${path} ${res.text}`).toBe(404);
          expect(res.body.code, `${who}: GET ${path}`).toMatch(/_not_found$/);
          for (const text of OWNED_TEXTS) expect(res.text, `${who}: GET ${path}`).not.toContain(text);
        }
      }
    }
    // The sweep reached the records made above: a customer, both campaigns, a product, a webhook, a cart.
    for (const operation of ['customers.get', 'points.get', 'discounts.get', 'products.get', 'webhooks.get', 'carts.get']) {
      expect(swept.some((s) => s.startsWith(`${operation} `)), `${operation} swept: ${swept.join(", ")}`).toBe(true);
    }
  });

  it('refuses writes to the owner\'s records with 404 and leaves them as they were', async () => {
    const before = await server.client.get('/customers/7', { query: { search_param: 'id' } });
    for (const [who, client] of others) {
      const writes = [
        await client.patch('/customers/7', { name: 'Mallory' }, { query: { search_param: 'id' } }),
        await client.delete('/customers/7', { query: { hard: 'true', search_param: 'id' }, headers: { 'Content-Type': 'application/json' } }),
        await client.patch('/points/1', { rule_params: { name: 'Mallory' } }),
        await client.patch('/webhooks/1', { url: 'https://mallory.example/hooks' }),
        await client.post('/webhooks/1/rotate_secret'),
        await client.post('/carts/cancellation', { cart_to_cancel_id: 501 }),
      ];
      for (const res of writes) {
        expect(res.status, `${who}: ${res.text}`).toBe(404);
        for (const text of OWNED_TEXTS) expect(res.text).not.toContain(text);
      }
    }
    expect((await server.client.get('/customers/7', { query: { search_param: 'id' } })).body).toEqual(before.body);
    expect((await server.client.get('/points/1')).body.name).toBe('Owner campaign');
    expect((await server.client.get('/webhooks/1')).body.url).toBe('https://owner.example/hooks');
    expect((await server.client.get('/carts/501')).status).toBe(200);
  });
});
