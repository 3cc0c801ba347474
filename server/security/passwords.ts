/**
 * Passwords of the administration's users: scrypt (memory-hard, node:crypto), a random 16-byte
 * salt per password, and the cost parameters stored with the hash, so they can be raised later
 * without invalidating older hashes: `scrypt$<N>$<r>$<p>$<salt base64url>$<key base64url>`.
 * Only that string is stored; the password itself never is, nor logged.
 */
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

export interface ScryptCost {
  /** CPU/memory cost, a power of two. */
  readonly N: number;
  readonly r: number;
  readonly p: number;
}

/** 2^15 × 8 × 128 bytes = 32 MiB per hash, ~50–100 ms: OWASP's floor for scrypt is 2^17/8/1 at 128 MiB; this is what a small host can run per sign-in. */
export const DEFAULT_SCRYPT_COST: ScryptCost = { N: 2 ** 15, r: 8, p: 1 };
const KEY_BYTES = 32;
/** The shortest password accepted (the contract's 400 below it). */
export const MIN_PASSWORD_LENGTH = 12;
/** The longest: scrypt takes any length, but a megabyte password is a denial of service. */
export const MAX_PASSWORD_LENGTH = 1024;

function derive(password: string, salt: Buffer, cost: ScryptCost): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    // maxmem above the 128·N·r the parameters need (Node's default 32 MiB is exactly 2^15·8·128)
    const maxmem = 256 * cost.N * cost.r;
    scrypt(password, salt, KEY_BYTES, { ...cost, maxmem }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

export async function hashPassword(
  password: string,
  cost: ScryptCost = DEFAULT_SCRYPT_COST,
): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, cost);
  return ['scrypt', cost.N, cost.r, cost.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

const STORED =
  /^scrypt\$([0-9]{1,8})\$([0-9]{1,3})\$([0-9]{1,3})\$([A-Za-z0-9_-]{16,})\$([A-Za-z0-9_-]{32,})$/;

/** Whether the password matches a stored hash (constant-time); a damaged hash never matches. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const m = STORED.exec(stored);
  if (m === null || password.length > MAX_PASSWORD_LENGTH) return false;
  const cost = { N: Number(m[1]), r: Number(m[2]), p: Number(m[3]) };
  const expected = Buffer.from(m[5]!, 'base64url');
  try {
    const key = await derive(password, Buffer.from(m[4]!, 'base64url'), cost);
    return key.length === expected.length && timingSafeEqual(key, expected);
  } catch {
    return false;
  }
}

/** A stored hash to compare against when the user does not exist, so timing does not tell. */
let decoy: Promise<string> | undefined;
export const decoyHash = (): Promise<string> => {
  decoy ??= hashPassword(randomBytes(16).toString('hex'));
  return decoy;
};

/** A generated password: 20 characters of base64url (120 bits), shown once. */
export const generatePassword = (): string => randomBytes(15).toString('base64url');
