/** authenticate does the same work whatever the key: the secret is checked against a hash on every path that names a key and a secret. */
import { describe, expect, it } from 'vitest';
import { hashSecret, secretMatches, UNKNOWN_KEY_HASH } from '../tenancy/secrets.js';
import type { TenancyStore } from '../tenancy/store.js';
import type { ApiKeyRecord } from '../tenancy/types.js';
import { API_VERSION, authenticate } from './auth.js';

const record = (key: string, secret: string, enabled: boolean): ApiKeyRecord => ({
  key, company_id: 'acme', environment: 'sandbox', secret_hash: hashSecret(secret), description: '', enabled, system: false, rate_limits: {}, created_at: '2026-01-01T00:00:00Z',
});
const keys = new Map([['live', record('live', 'right', true)], ['off', record('off', 'right', false)]]);
const tenancy = { getApiKey: (key: string) => keys.get(key) } as unknown as TenancyStore;

/** Authenticates through a counting secret check: the hashes it was asked to compare with, and the outcome. */
function checked(key: string, secret: string) {
  const hashes: string[] = [];
  const counting = (given: string, stored: string) => {
    hashes.push(stored);
    return secretMatches(given, stored);
  };
  const proven = authenticate({ key, secret, version: API_VERSION }, tenancy, counting);
  return { hashes, proven: proven?.key };
}

describe('authenticate checks the secret once on every path', () => {
  it.each([
    ['the right secret', 'live', 'right', keys.get('live')!.secret_hash, 'live'],
    ['a wrong secret', 'live', 'wrong', keys.get('live')!.secret_hash, undefined],
    ['a disabled key', 'off', 'right', keys.get('off')!.secret_hash, undefined],
    ['an unknown key: against the fixed hash', 'nobody', 'right', UNKNOWN_KEY_HASH, undefined],
    ['an unknown key longer than any stored one', 'x'.repeat(5000), 'wrong', UNKNOWN_KEY_HASH, undefined],
  ])('%s', (_name, key, secret, hash, proven) => {
    expect(checked(key, secret)).toEqual({ hashes: [hash], proven });
  });

  it('no secret matches the unknown key hash, its own random one excepted, which never leaves the process', () => {
    for (const secret of ['', 'right', 'wrong']) expect(secretMatches(secret, UNKNOWN_KEY_HASH)).toBe(false);
  });
});
