/**
 * Customer passwords, stored as scrypt hashes (`scrypt$<log2 N>$<salt>$<hash>`,
 * base64url). A password the customer chose gets the standard cost (N = 2^15);
 * a password the system generates is 128 random bits, which no dictionary can
 * guess, so it gets a light cost (N = 2^10) and bulk imports stay fast
 * (docs/decisions.md, Customers).
 */
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const KEY_LENGTH = 32;
const CHOSEN_COST = 15;
const GENERATED_COST = 10;

function derive(password: string, salt: Buffer, cost: number): Promise<Buffer> {
  const options: ScryptOptions = { N: 2 ** cost, r: 8, p: 1, maxmem: 256 * 2 ** cost * 8 };
  return new Promise((resolve, reject) =>
    scrypt(password, salt, KEY_LENGTH, options, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

async function hashWithCost(password: string, cost: number): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, cost);
  return `scrypt$${cost}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

/** The hash of the password the customer sent, or of a generated one when absent. */
export function hashPassword(password: string | undefined): Promise<string> {
  return password === undefined
    ? hashWithCost(randomBytes(16).toString('base64url'), GENERATED_COST)
    : hashWithCost(password, CHOSEN_COST);
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, cost, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt') return false;
  const key = await derive(password, Buffer.from(salt, 'base64url'), Number(cost));
  return timingSafeEqual(key, Buffer.from(hash, 'base64url'));
}
