/**
 * Every webhook delivery is signed, encrypted or not: `X-Signature: t=<unix seconds>,v1=<hex>`,
 * where v1 is HMAC-SHA256 over `<t>.<body as sent>` under the webhook's key (its 64 hex
 * characters read as 32 bytes). A receiver recomputes it over the raw body, compares in constant
 * time, and refuses a t too far from its clock (a replay): a plain-JSON webhook is then as
 * authentic as an encrypted one. /docs/webhooks (server/openapi/pages/webhooks.ts) shows the check
 * in Node, PHP and Python.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'X-Signature';
/** How far a receiver should let t be from its clock: `verifySignature`'s default. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

const mac = (hexKey: string, t: number, body: string): string =>
  createHmac('sha256', Buffer.from(hexKey, 'hex')).update(`${t}.${body}`, 'utf8').digest('hex');

/** The header's value for a body sent at `at`. */
export function signatureOf(hexKey: string, body: string, at: Date): string {
  const t = Math.floor(at.getTime() / 1000);
  return `t=${t},v1=${mac(hexKey, t, body)}`;
}

/**
 * What a receiver does (the gateway's inbox and the tests too): whether the header signs this
 * body under the key, at a time within the tolerance of `now`.
 */
export function verifySignature(
  hexKey: string,
  body: string,
  header: string | null | undefined,
  now: Date,
  toleranceSeconds = SIGNATURE_TOLERANCE_SECONDS,
): boolean {
  const parts = new Map(
    (header ?? '').split(',').map((part) => {
      const at = part.indexOf('=');
      return [part.slice(0, at).trim(), part.slice(at + 1).trim()] as const;
    }),
  );
  const t = Number(parts.get('t'));
  const given = parts.get('v1') ?? '';
  if (!Number.isSafeInteger(t) || !/^[0-9a-f]{64}$/.test(given)) return false;
  if (Math.abs(now.getTime() / 1000 - t) > toleranceSeconds) return false;
  return timingSafeEqual(Buffer.from(mac(hexKey, t, body), 'hex'), Buffer.from(given, 'hex'));
}
