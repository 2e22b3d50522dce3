/**
 * Requests sent in order on one kept-alive connection, as a client reusing
 * its connections sends them: an answer that writes more or less than it
 * announces breaks the answers after it.
 */
import { Agent } from 'node:http';
import { send, TEST_KEY, TEST_SECRET, type SentAnswer } from './server.js';

export interface ConnectionRequest {
  method: string;
  path: string;
  /** false sends no credentials. */
  auth?: boolean;
}

export async function onOneConnection(port: number, requests: ConnectionRequest[]): Promise<SentAnswer[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const credentials = { 'X-Api-Key': TEST_KEY, 'X-Api-Secret': TEST_SECRET, 'X-Api-Version': '1' };
  try {
    const answers: SentAnswer[] = [];
    for (const { method, path, auth = true } of requests) answers.push(await send(port, method, path, auth ? credentials : {}, undefined, agent));
    return answers;
  } finally {
    agent.destroy();
  }
}
