/**
 * Time-based one-time passwords (RFC 6238 over RFC 4226's HOTP), implemented with node:crypto's
 * HMAC-SHA1 rather than a library: 30-second steps, 6 digits, secrets of 20 random bytes in
 * base32 (RFC 4648) as authenticator apps read them from an otpauth:// URL. A code of the step
 * before or after is accepted too (clock drift); the caller refuses a step already used (replay).
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const TOTP_STEP_SECONDS = 30;
const DIGITS = 6;
const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

export function base32Encode(bytes: Buffer): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

export function base32Decode(text: string): Buffer {
  const clean = text.replace(/[\s=]/g, '').toUpperCase();
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const ch of clean) {
    const index = BASE32.indexOf(ch);
    if (index === -1) throw new Error('not base32');
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** A new secret, base32. */
export const newTotpSecret = (): string => base32Encode(randomBytes(20));

/** RFC 4226: the code of one counter value. */
export function hotp(secret: Buffer, counter: number): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac('sha1', secret).update(message).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const binary = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 10 ** DIGITS).padStart(DIGITS, '0');
}

export const totpStep = (at: Date): number => Math.floor(at.getTime() / 1000 / TOTP_STEP_SECONDS);

/** The code of a moment (tests, and what an authenticator shows). */
export const totpCode = (secret: string, at: Date): string => hotp(base32Decode(secret), totpStep(at));

/**
 * The step a code matches (now, or one step either side), or undefined. Steps at or before
 * `usedStep` are refused: a code is good once.
 */
export function checkTotp(secret: string, code: string, at: Date, usedStep?: number): number | undefined {
  if (!/^[0-9]{6}$/.test(code)) return undefined;
  const key = base32Decode(secret);
  const now = totpStep(at);
  for (const step of [now, now - 1, now + 1]) {
    if (usedStep !== undefined && step <= usedStep) continue;
    if (timingSafeEqual(Buffer.from(hotp(key, step)), Buffer.from(code))) return step;
  }
  return undefined;
}

/** What an authenticator app scans: otpauth://totp/<issuer>:<account>?secret=…&issuer=… */
export const otpauthUrl = (secret: string, account: string, issuer = 'Payment Gateway'): string =>
  `otpauth://totp/${encodeURIComponent(issuer)}:${encodeURIComponent(account)}?secret=${secret}&issuer=${encodeURIComponent(issuer)}&algorithm=SHA1&digits=6&period=30`;
