import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../testing/server.js';

describe('POST /messages/print', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
    await server.client.post('/customers', { id: 1, name: 'N', registration_location_id: 1 });
  });
  afterAll(() => server.dispose());

  it('answers the messages as printer-ready lines, wrapped at 40 characters by default', async () => {
    const res = await server.client.post('/messages/print', {
      customer_id: 1,
      messages: [{ text: 'Thank you for shopping with us today: you earned 120 points!' }, { text: 'See you soon', copies: 2 }],
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      status: 'success',
      width: 40,
      lines: ['Thank you for shopping with us today:', 'you earned 120 points!', '', 'See you soon', '', 'See you soon'],
    });
  });

  it('wraps at the width asked, cutting words longer than a line, keeping line breaks', async () => {
    const res = await server.client.post('/messages/print', { width: 16, messages: [{ text: 'Code: ABCDEFGHIJKLMNOPQRSTUV\nBye' }] });
    expect(res.body.lines).toEqual(['Code:', 'ABCDEFGHIJKLMNOP', 'QRSTUV', 'Bye']);
    expect(res.body.lines.every((line: string) => line.length <= 16)).toBe(true);
  });

  it('counts what prints as one character: an emoji or an accented letter is never split, nor counted twice', async () => {
    const res = await server.client.post('/messages/print', { width: 16, messages: [{ text: `Prize:x${'🎁'.repeat(11)} cafe\u0301 👨‍👩‍👧` }] });
    expect(res.status, res.text).toBe(200);
    expect(res.body.lines).toEqual([`Prize:x${'🎁'.repeat(9)}`, `${'🎁'.repeat(2)} cafe\u0301 👨‍👩‍👧`]);
    // Every line is whole text (a lone surrogate would not encode as UTF-8).
    for (const line of res.body.lines) expect(line.isWellFormed()).toBe(true);
  });

  it('refuses no messages, empty text, a width out of range and an unknown customer', async () => {
    for (const [body, field] of [
      [{ messages: [] }, 'messages'],
      [{}, 'messages'],
      [{ messages: [{ text: '' }] }, 'messages[0].text'],
      [{ width: 8, messages: [{ text: 'x' }] }, 'width'],
    ] as const) {
      const res = await server.client.post('/messages/print', body);
      expect(res.status).toBe(400);
      expect(res.body.error.startsWith(`${field}: `)).toBe(true);
    }
    const unknown = await server.client.post('/messages/print', { customer_id: 404, messages: [{ text: 'x' }] });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('customer_not_found');
  });
});
