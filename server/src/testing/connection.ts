/**
 * Requests sent in order on one kept-alive connection, as a client reusing
 * its connections sends them: an answer that writes more or less than it
 * announces breaks the answers after it.
 */
import { Agent, request as httpRequest } from 'node:http';
import { TEST_KEY, TEST_SECRET } from './server.js';

export interface ConnectionRequest {
  method: string;
  path: string;
  /** false sends no credentials. */
  auth?: boolean;
}

export interface ConnectionAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

export async function onOneConnection(port: number, requests: ConnectionRequest[]): Promise<ConnectionAnswer[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const credentials = { 'X-Api-Key': TEST_KEY, 'X-Api-Secret': TEST_SECRET, 'X-Api-Version': '1' };
  try {
    const answers: ConnectionAnswer[] = [];
    for (const { method, path, auth = true } of requests) {
      answers.push(await new Promise((resolve, reject) => {
        const req = httpRequest({ host: '127.0.0.1', port, method, path, headers: auth ? credentials : {}, agent }, (res) => {
          let text = '';
          res.on('data', (d: Buffer) => (text += d.toString()));
          res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text }));
        });
        req.on('error', reject);
        req.end();
      }));
    }
    return answers;
  } finally {
    agent.destroy();
  }
}
