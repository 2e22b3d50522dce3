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

export function secretMatches(secret: string, storedHash: string): boolean {
  const given = Buffer.from(hashSecret(secret), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return given.length === stored.length && timingSafeEqual(given, stored);
}
