/**
 * Encrypted webhook notifications (decisions, Webhooks; facts §4): AES-256-GCM under the
 * merchant's 64-hex key, a fresh 12-byte IV per delivery. The body is the hex ciphertext of the
 * JSON `{type, action, payload}`; the IV and the authentication tag travel as hex in the
 * `X-Initialization-Vector` and `X-Authentication-Tag` headers, as the family's receivers expect.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

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

/**
 * What a merchant's receiver does with an encrypted notification (the gateway's own inbox does it
 * too): AES-256-GCM under the hex key, hex body, hex IV and tag → the JSON text. The family-style
 * receiver of server/webhooks/family-receiver.test.ts decrypts on its own, with none of this code.
 * Throws when the body, the tag or the key is not the one it was sealed with.
 */
export function decryptNotification(hexKey: string, body: string, ivHex: string, tagHex: string): string {
  const decipher = createDecipheriv('aes-256-gcm', Buffer.from(hexKey, 'hex'), Buffer.from(ivHex, 'hex'), {
    authTagLength: 16,
  });
  decipher.setAuthTag(Buffer.from(tagHex, 'hex'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'hex')), decipher.final()]).toString('utf8');
}
