import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, TEST_KEY, TEST_SECRET, type TestServer } from '../testing/server.js';

// Self-signed certificates made at test time with the openssl command.
const dir = mkdtempSync(join(tmpdir(), 'tally-tls-'));
const file = (name: string) => join(dir, name);
const openssl = (...args: string[]) => execFileSync('openssl', args, { stdio: 'ignore' });
const newKey = (key: string, ...encryption: string[]) =>
  openssl('genpkey', '-algorithm', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', ...encryption, '-out', file(key));
const selfSign = (key: string, cert: string, ...passin: string[]) =>
  openssl('req', '-x509', '-key', file(key), ...passin, '-out', file(cert), '-days', '2', '-subj', '/CN=localhost', '-addext', 'subjectAltName=IP:127.0.0.1');

interface Answer {
  status: number;
  body: unknown;
}

/** node:https trusting only the test certificate (fetch cannot be given a CA without the undici package). */
function https(port: number, ca: Buffer, method: string, path: string, body?: unknown): Promise<Answer> {
  const text = body === undefined ? undefined : JSON.stringify(body);
  const headers: Record<string, string> = { 'X-Api-Key': TEST_KEY, 'X-Api-Secret': TEST_SECRET, 'X-Api-Version': '1' };
  if (text !== undefined) headers['Content-Type'] = 'application/json';
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, ca, headers }, (res) => {
      let answer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (answer += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(answer) }));
    });
    req.on('error', reject);
    req.end(text);
  });
}

let starts = 0;
/** A start that must fail: its own DATA_DIR under `dir`, removed with it. */
const refused = (env: Record<string, string>) => startServer({ env, dataDir: file(`data-${starts++}`) });

beforeAll(() => {
  newKey('key.pem');
  selfSign('key.pem', 'cert.pem');
  newKey('encrypted-key.pem', '-aes-256-cbc', '-pass', 'pass:open sesame');
  selfSign('encrypted-key.pem', 'encrypted-cert.pem', '-passin', 'pass:open sesame');
  newKey('other-key.pem');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('TLS_CERT_FILE and TLS_KEY_FILE: HTTPS', () => {
  let server: TestServer;
  let ca: Buffer;
  beforeAll(async () => {
    ca = readFileSync(file('cert.pem'));
    server = await startServer({ env: { TLS_CERT_FILE: file('cert.pem'), TLS_KEY_FILE: file('key.pem') } });
  });
  afterAll(() => server.dispose());

  it('answers over HTTPS', async () => {
    expect(await https(server.port, ca, 'GET', '/check')).toEqual({ status: 200, body: { status: 'ok', environment: 'sandbox' } });
    const created = await https(server.port, ca, 'POST', '/customers', { id: 1, name: 'N', registration_location_id: 1 });
    expect(created).toMatchObject({ status: 200, body: { id: 1 } });
    expect(await https(server.port, ca, 'GET', '/customers/1?search_param=id')).toMatchObject({ status: 200, body: { id: 1, name: 'N' } });
  });

  it('does not answer plain HTTP on its port', async () => {
    await expect(fetch(`http://127.0.0.1:${server.port}/check`)).rejects.toThrow();
    expect((await https(server.port, ca, 'GET', '/check')).status).toBe(200);
  });

  it('logs tls: true on its listening line', () => {
    const listening = server.lines.filter((line) => line.includes('"listening"')).map((line) => JSON.parse(line));
    expect(listening).toEqual([expect.objectContaining({ port: server.port, backend: 'native', tls: true })]);
  });
});

describe('TLS_KEY_PASSPHRASE', () => {
  it('opens an encrypted key', async () => {
    const server = await startServer({
      env: { TLS_CERT_FILE: file('encrypted-cert.pem'), TLS_KEY_FILE: file('encrypted-key.pem'), TLS_KEY_PASSPHRASE: 'open sesame' },
    });
    try {
      expect((await https(server.port, readFileSync(file('encrypted-cert.pem')), 'GET', '/check')).status).toBe(200);
    } finally {
      await server.dispose();
    }
  });
});

describe('a TLS setting that cannot work: the server refuses to start', () => {
  it('only one of TLS_CERT_FILE and TLS_KEY_FILE', async () => {
    await expect(refused({ TLS_CERT_FILE: file('cert.pem') })).rejects.toThrow(
      /server exited \(1\) before listening: .*TLS_CERT_FILE and TLS_KEY_FILE must be set together: TLS_KEY_FILE not set/s,
    );
    await expect(refused({ TLS_KEY_FILE: file('key.pem') })).rejects.toThrow(/\(1\) .*must be set together: TLS_CERT_FILE not set/s);
    await expect(refused({ TLS_KEY_PASSPHRASE: 'open sesame' })).rejects.toThrow(/\(1\) .*must be set together: TLS_CERT_FILE and TLS_KEY_FILE not set/s);
  });

  it('a file that cannot be read', async () => {
    await expect(refused({ TLS_CERT_FILE: file('missing.pem'), TLS_KEY_FILE: file('key.pem') })).rejects.toThrow(
      /\(1\) .*TLS_CERT_FILE \S*missing\.pem cannot be read: ENOENT/s,
    );
  });

  it('a key that does not match the certificate, or a wrong passphrase', async () => {
    await expect(refused({ TLS_CERT_FILE: file('cert.pem'), TLS_KEY_FILE: file('other-key.pem') })).rejects.toThrow(/\(1\) .*could not be loaded/s);
    await expect(
      refused({ TLS_CERT_FILE: file('encrypted-cert.pem'), TLS_KEY_FILE: file('encrypted-key.pem'), TLS_KEY_PASSPHRASE: 'wrong' }),
    ).rejects.toThrow(/\(1\) .*could not be loaded: .*TLS_KEY_PASSPHRASE/s);
  });

  it('TLS_CA_FILE (client certificates are not supported)', async () => {
    await expect(refused({ TLS_CERT_FILE: file('cert.pem'), TLS_KEY_FILE: file('key.pem'), TLS_CA_FILE: file('cert.pem') })).rejects.toThrow(
      /\(1\) .*TLS_CA_FILE is not supported/s,
    );
  });

  it('the pure-JS fallback of uWebSockets.js, which has no TLS', async () => {
    await expect(refused({ TLS_CERT_FILE: file('cert.pem'), TLS_KEY_FILE: file('key.pem'), UWS_USE_FALLBACK: '1' })).rejects.toThrow(
      /\(1\) .*pure-JS fallback .* cannot serve HTTPS/s,
    );
  });
});
