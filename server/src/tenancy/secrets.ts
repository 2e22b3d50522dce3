/**
 * API key secrets: 32 random bytes, stored as their sha256 (a random secret
 * needs no slow hash), compared in constant time.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export function newApiKey(): string {
  return `tk_${randomBytes(12).toString('hex')}`;
}

export function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** Constant-time equality of two strings (time depends on the length only). */
function sameString(a: string, b: string): boolean {
  let diff = a.length ^ b.length;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i % (b.length || 1));
  return diff === 0;
}

/**
 * The last secret proven against each stored hash: hashing costs a microsecond
 * on every request, a constant-time comparison with a proven secret does not.
 */
const proven = new Map<string, string>();

/**
 * What an unknown key's secret is compared with, so that an unknown key costs what a known key with a wrong secret
 * does (a sha256 and a comparison; skipping them answered about 5 µs sooner and told the two apart). Its secret is
 * random and never leaves the process: no secret sent matches it. Proven, as a key in use is, so the cached
 * comparison runs too.
 */
const unknownKeySecret = newSecret();
export const UNKNOWN_KEY_HASH = hashSecret(unknownKeySecret);
proven.set(UNKNOWN_KEY_HASH, unknownKeySecret);

export function secretMatches(secret: string, storedHash: string): boolean {
  const known = proven.get(storedHash);
  if (known !== undefined && sameString(secret, known)) return true;
  const given = Buffer.from(hashSecret(secret), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  const matches = given.length === stored.length && timingSafeEqual(given, stored);
  if (matches) proven.set(storedHash, secret);
  return matches;
}
