/** HTTP helpers of the customers' tests. */
import type { Client, TestResponse } from '../testing/server.js';

const base = { name: 'Ana', registration_location_id: 1 };

/** POST /customers with `body` over a minimal valid customer, sending allow_duplicate_<key>=true for each key of `allow`. */
export function postCustomer(client: Client, body: Record<string, unknown>, ...allow: ('email' | 'dni')[]): Promise<TestResponse> {
  const query = Object.fromEntries(allow.map((key) => [`allow_duplicate_${key}`, 'true']));
  return client.post('/customers', { ...base, ...body }, allow.length > 0 ? { query } : {});
}

/** DELETE /customers/{id} by id (the server refuses a DELETE without a JSON content type). */
export function deleteById(client: Client, id: number, hard: boolean): Promise<TestResponse> {
  return client.delete(`/customers/${id}`, { query: { search_param: 'id', hard: String(hard) }, headers: { 'Content-Type': 'application/json' } });
}

/** The id POST /customers/search finds, or the status it answers when it finds none. */
export async function searchId(client: Client, body: Record<string, unknown>): Promise<unknown> {
  const res = await client.post('/customers/search', body);
  return res.status === 200 ? res.body.id : res.status;
}
