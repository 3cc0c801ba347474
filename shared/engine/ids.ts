/** Identifiers in the family's shapes (decisions: Identifiers). Uses Web Crypto, present in Node and browsers. */

const hex = (bytes: Uint8Array): string => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

/**
 * Random bytes from a pool refilled 4 KiB at a time: one getRandomValues call per payment's
 * several ids cost more than the ids themselves (profiled under load).
 */
const POOL_SIZE = 4096;
const pool = new Uint8Array(POOL_SIZE);
let offset = POOL_SIZE;

function random(n: number): Uint8Array {
  if (offset + n > POOL_SIZE) {
    globalThis.crypto.getRandomValues(pool);
    offset = 0;
  }
  const bytes = pool.slice(offset, offset + n);
  offset += n;
  return bytes;
}

/** Payment, registration and entity ids: 32 lowercase hex characters, 128 random bits. */
export const newId = (): string => hex(random(16));

/** `dddd.dddd.dddd`: short enough to read out on the phone. */
export function newShortId(): string {
  const digits = Array.from(random(12), (b) => String(b % 10)).join('');
  return `${digits.slice(0, 4)}.${digits.slice(4, 8)}.${digits.slice(8, 12)}`;
}

/** `ndc` of a payment request: `<entityId>_<32 hex>`. */
export const newPaymentNdc = (entityId: string): string => `${entityId}_${newId()}`;

/** Checkout ids: 32 uppercase hex, a dot and the node name (`…C091.local01-vm-tx01`). */
export const newCheckoutId = (node: string): string => `${newId().toUpperCase()}.${node}`;
