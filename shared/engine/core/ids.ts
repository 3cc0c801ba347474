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

const randomDigits = (n: number): string => Array.from(random(n), (b) => String(b % 10)).join('');

/** `dddd.dddd.dddd`: short enough to read out on the phone. */
export function newShortId(): string {
  const digits = randomDigits(12);
  return `${digits.slice(0, 4)}.${digits.slice(4, 8)}.${digits.slice(8, 12)}`;
}

/** A scheme reference as acquirers return them (`standingInstruction.initialTransactionId`): 15 digits. */
export const newSchemeReference = (): string => randomDigits(15);

/**
 * `ndc` of a payment request: `<entityId>-<32 hex>` (decisions: letters, digits, dots and hyphens
 * only; a checkout's payments and registrations carry the checkout id instead).
 */
export const newPaymentNdc = (entityId: string): string => `${entityId}-${newId()}`;

/**
 * The node part of checkout ids: lowercase letters, digits and hyphens (clients validate ids
 * with `[a-zA-Z0-9.-]+`), at most 15 characters so the id stays within 48; `local01` when
 * nothing usable is left of the name given (a host name, typically).
 */
export function checkoutNodeName(name: string): string {
  const cleaned = name
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .slice(0, 15)
    .replace(/^-+|-+$/g, '');
  return cleaned === '' ? 'local01' : cleaned;
}

/**
 * Checkout ids: 32 uppercase hex (128 random bits: the id is the bearer secret of the widget's
 * requests), a dot and the node name (`…C091.local01-vm-tx01`): 34 to 48 characters.
 */
export const newCheckoutId = (node: string): string => `${newId().toUpperCase()}.${checkoutNodeName(node)}`;
