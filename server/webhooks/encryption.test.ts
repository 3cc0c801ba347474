import { createDecipheriv } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decryptNotification, encryptNotification } from './encryption';

const KEY = '000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F';
const JSON_TEXT = JSON.stringify({
  type: 'PAYMENT',
  action: 'CREATED',
  payload: { id: 'x', amount: '92.00' },
});

describe('webhook encryption', () => {
  it('is AES-256-GCM a receiver opens with plain node:crypto: hex body, hex IV and tag headers', () => {
    const n = encryptNotification(KEY, JSON_TEXT);
    expect(n.body).toMatch(/^[0-9A-F]+$/);
    expect(n.headers['X-Initialization-Vector']).toMatch(/^[0-9A-F]{24}$/);
    expect(n.headers['X-Authentication-Tag']).toMatch(/^[0-9A-F]{32}$/);
    // What a merchant's receiver writes, independently of the gateway's code.
    const decipher = createDecipheriv(
      'aes-256-gcm',
      Buffer.from(KEY, 'hex'),
      Buffer.from(n.headers['X-Initialization-Vector'], 'hex'),
    );
    decipher.setAuthTag(Buffer.from(n.headers['X-Authentication-Tag'], 'hex'));
    const plain = Buffer.concat([decipher.update(Buffer.from(n.body, 'hex')), decipher.final()]).toString(
      'utf8',
    );
    expect(JSON.parse(plain)).toEqual(JSON.parse(JSON_TEXT));
  });

  it('uses a fresh IV each time', () => {
    const a = encryptNotification(KEY, JSON_TEXT);
    const b = encryptNotification(KEY, JSON_TEXT);
    expect(a.headers['X-Initialization-Vector']).not.toBe(b.headers['X-Initialization-Vector']);
    expect(a.body).not.toBe(b.body);
  });

  it('does not open when changed or under another key', () => {
    const n = encryptNotification(KEY, JSON_TEXT);
    const iv = n.headers['X-Initialization-Vector'];
    const tag = n.headers['X-Authentication-Tag'];
    expect(decryptNotification(KEY, n.body, iv, tag)).toBe(JSON_TEXT);
    const flipped = (n.body[0] === 'A' ? 'B' : 'A') + n.body.slice(1);
    expect(() => decryptNotification(KEY, flipped, iv, tag)).toThrow();
    expect(() => decryptNotification(KEY.replace('00', 'FF'), n.body, iv, tag)).toThrow();
  });

  it('refuses a key that is not 64 hex characters', () => {
    expect(() => encryptNotification('abc', JSON_TEXT)).toThrow(RangeError);
  });
});
