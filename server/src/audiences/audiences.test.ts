import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../testing/server.js';

const BIG = 9223372036854775807n;

describe('audiences', () => {
  let server: TestServer;
  const validate = (id: number, segment: string) => server.client.get(`/customers/${id}/audience_validation`, { query: { segment_id: segment } });
  const audiencesOf = async (id: number) => (await server.client.get(`/customers/${id}/audiences`)).body.list;

  beforeAll(async () => {
    server = await startServer();
    const settings = await server.client.patch('/company', {
      customer_attribute_schema: { type: 'object', properties: { age: { type: 'integer' } } },
      audiences: [
        { id: 1, name: 'Spain', rule: { conditions: { and: [{ field: 'customer.country', operator: 'eq', value: 'ES' }] } } },
        { id: 2, name: 'Adults', rule: { conditions: { and: [{ field: 'customer.attributes.age', operator: 'gte', value: 18 }] } } },
        { id: BIG, name: 'Spanish adults', rule: { conditions: { and: [
          { field: 'customer.country', operator: 'in', values: ['es'] },
          { field: 'customer.attributes.age', operator: 'gte', value: 18 },
        ] } } },
      ],
    });
    expect(settings.status).toBe(200);
    const people = [
      { id: 1, country: 'ES', attributes: { age: 30 } },
      { id: 2, country: 'PT', attributes: { age: 30 } },
      { id: 3, country: 'ES', attributes: { age: 12 } },
      { id: 4, country: 'ES', attributes: { age: 40 } },
    ];
    for (const p of people) await server.client.post('/customers', { name: 'N', registration_location_id: 1, ...p });
  });
  afterAll(() => server.dispose());

  it('validates a customer against one audience rule', async () => {
    expect((await validate(1, '1')).body).toEqual({ result: true });
    expect((await validate(2, '1')).body).toEqual({ result: false });
    expect((await validate(3, '2')).body).toEqual({ result: false });
    expect((await validate(1, String(BIG))).body).toEqual({ result: true });
  });

  it('lists the audiences a customer belongs to, ids exact', async () => {
    const list = await audiencesOf(1);
    expect(list).toEqual([{ segment_id: 1 }, { segment_id: 2 }, { segment_id: BIG }]);
    expect(await audiencesOf(2)).toEqual([{ segment_id: 2 }]);
    expect(await audiencesOf(3)).toEqual([{ segment_id: 1 }]);
  });

  it('follows attribute changes', async () => {
    await server.client.patch('/customers/3', { attributes: { age: 18 } });
    expect((await validate(3, '2')).body).toEqual({ result: true });
  });

  it('never targets a merged customer', async () => {
    expect((await validate(4, '1')).body.result).toBe(true);
    await server.client.post('/customers/transfer', { old_customer_id: 4, new_customer_id: 1 });
    expect((await validate(4, '1')).body.result).toBe(false);
    expect(await audiencesOf(4)).toEqual([]);
  });

  it('answers the legacy paths', async () => {
    expect((await server.client.get('/customers/1/segment_validation', { query: { segment_id: '1' } })).body).toEqual({ result: true });
    expect((await server.client.get('/customers/2/segments')).body.list).toEqual([{ segment_id: 2 }]);
  });

  it('requires segment_id, an existing audience and an existing customer', async () => {
    const missing = await server.client.get('/customers/1/audience_validation');
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatch(/^segment_id: /);
    const unknown = await validate(1, '77');
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('audience_not_found');
    expect((await validate(404, '1')).body.code).toBe('customer_not_found');
    expect((await server.client.get('/customers/404/audiences')).status).toBe(404);
  });
});
