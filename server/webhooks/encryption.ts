/**
 * Encrypted webhook notifications (decisions, Webhooks; facts §4): AES-256-GCM under the
 * merchant's 64-hex key, a fresh 12-byte IV per delivery. The body is the hex ciphertext of the
 * JSON `{type, action, payload}`; the IV and the authentication tag travel as hex in the
 * `X-Initialization-Vector` and `X-Authentication-Tag` headers, as the family's receivers expect.
 */
import { createCipheriv, randomBytes } from 'node:crypto';

export const WEBHOOK_KEY = /^[0-9a-fA-F]{64}$/;

export interface EncryptedNotification {
  readonly body: string;
  readonly headers: {
    /** As the family sends it (facts §4), though the body is hex: receivers read it raw. */
    readonly 'Content-Type': 'application/json; charset=UTF-8';
    readonly 'X-Initialization-Vector': string;
    readonly 'X-Authentication-Tag': string;
  };
}

function keyOf(hexKey: string): Buffer {
  if (!WEBHOOK_KEY.test(hexKey)) throw new RangeError('a webhook key is 64 hex characters');
  return Buffer.from(hexKey, 'hex');
}

export function encryptNotification(hexKey: string, json: string): EncryptedNotification {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(hexKey), iv);
  const body = Buffer.concat([cipher.update(json, 'utf8'), cipher.final()]);
  return {
    body: body.toString('hex').toUpperCase(),
    headers: {
      'Content-Type': 'application/json; charset=UTF-8',
      'X-Initialization-Vector': iv.toString('hex').toUpperCase(),
      'X-Authentication-Tag': cipher.getAuthTag().toString('hex').toUpperCase(),
    },
  };
}
