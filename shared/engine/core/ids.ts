/** Identifiers in the family's shapes (decisions: Identifiers). Uses Web Crypto, present in Node and browsers. */

/** The two hex digits of each byte value, so an id is 16 lookups rather than 16 formatted strings. */
const HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'));

/**
 * Random bytes from a pool refilled 4 KiB at a time: one getRandomValues call per payment's
 * several ids cost more than the ids themselves (profiled under load). Readers take `n` bytes
 * from the returned offset of the pool, before anything else draws from it.
 */
const POOL_SIZE = 4096;
const pool = new Uint8Array(POOL_SIZE);
let offset = POOL_SIZE;

function draw(n: number): number {
  if (offset + n > POOL_SIZE) {
    globalThis.crypto.getRandomValues(pool);
    offset = 0;
  }
  const at = offset;
  offset += n;
  return at;
}

/** Payment, registration and entity ids: 32 lowercase hex characters, 128 random bits. */
export function newId(): string {
  const at = draw(16);
  let id = '';
  for (let i = at; i < at + 16; i++) id += HEX[pool[i]!];
  return id;
}

/** Whether `value` is an id of the gateway's (newId's form: 32 lower-case hex digits). */
export const isGatewayId = (value: string | undefined): value is string =>
  value !== undefined && /^[0-9a-f]{32}$/.test(value);

function randomDigits(n: number): string {
  const at = draw(n);
  let digits = '';
  for (let i = at; i < at + n; i++) digits += pool[i]! % 10;
  return digits;
}

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
