/**
 * The simulated wallets' payment tokens on their own: the format, what opens and what is refused
 * (and as what), including every single-character change anywhere in a token, shortened IVs and
 * tags, a relabelled header and another key.
 */
import { createCipheriv, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { WalletPayload } from '../../shared/engine/core/ports';
import { WALLET_TOKEN_TTL_MS, walletTokens } from './wallet-tokens';

const KEY = Buffer.alloc(32, 7);
const ENTITY = 'a'.repeat(32);
const OTHER_ENTITY = 'b'.repeat(32);
const NOW = new Date('2026-11-21T12:00:00Z');
const PAYLOAD: WalletPayload = {
  number: '4200000000000000',
  expiryMonth: '12',
  expiryYear: '2029',
  cryptogram: 'AJkBBkhgQQAAAE4gSEJydQAAAAA=',
  eci: '05',
  network: 'VISA',
  type: 'CREDIT',
};
const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

const tokens = walletTokens(KEY);
const issue = (wallet = 'walletA', entityId = ENTITY, now = NOW) =>
  tokens.issue(wallet, entityId, PAYLOAD, now);
const open = (token: string, wallet = 'walletA', entityId = ENTITY, now = NOW) =>
  tokens.open(wallet, token, entityId, now);

const b64 = (bytes: Buffer) => bytes.toString('base64url');
const decodeHeader = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString('utf8'));

describe('wallet tokens', () => {
  it('open into the payload they were issued with', () => {
    expect(open(issue())).toEqual(PAYLOAD);
  });

  it('are four base64url parts: a readable header, a 12-byte IV, the ciphertext, a 16-byte tag', () => {
    const token = issue('walletB');
    const parts = token.split('.');
    expect(parts).toHaveLength(4);
    for (const part of parts) expect(part).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeHeader(token)).toEqual({
      v: 1,
      w: 'walletB',
      m: ENTITY,
      exp: NOW.getTime() + WALLET_TOKEN_TTL_MS,
    });
    expect(Buffer.from(parts[1]!, 'base64url')).toHaveLength(12);
    expect(Buffer.from(parts[3]!, 'base64url')).toHaveLength(16);
  });

  it('hide the card: neither the token nor any decoding of its parts shows number or cryptogram', () => {
    const token = issue();
    const decoded = token
      .split('.')
      .map((p) => Buffer.from(p, 'base64url').toString('latin1'))
      .join('|');
    for (const secret of [PAYLOAD.number, PAYLOAD.cryptogram, PAYLOAD.number.slice(-8)]) {
      expect(token).not.toContain(secret);
      expect(decoded).not.toContain(secret);
    }
  });

  it('differ each time for the same payload (a fresh IV)', () => {
    const a = issue();
    const b = issue();
    expect(a).not.toBe(b);
    expect(a.split('.')[1]).not.toBe(b.split('.')[1]);
  });

  it('refuse a key that is not 32 bytes', () => {
    expect(() => walletTokens(Buffer.alloc(16))).toThrow(RangeError);
  });

  describe('refusals', () => {
    it.each([
      ['an empty string', ''],
      ['no dots', 'abc'],
      ['three parts', 'a.b.c'],
      ['five parts', 'a.b.c.d.e'],
      ['a header that is no JSON', `${b64(Buffer.from('not json'))}.AAAA.AAAA.AAAA`],
      ['a header of another version', `${b64(Buffer.from('{"v":2,"w":"walletA","m":"x","exp":1}'))}.A.A.A`],
      ['a header without expiry', `${b64(Buffer.from('{"v":1,"w":"walletA","m":"x"}'))}.A.A.A`],
    ])('%s is malformed', (_, token) => {
      expect(open(token)).toEqual({ refused: 'malformed' });
    });

    it('another wallet: other-wallet', () => {
      expect(open(issue('walletB'), 'walletA')).toEqual({ refused: 'other-wallet' });
      expect(open(issue('walletB'), 'walletB')).toEqual(PAYLOAD);
    });

    it('another channel: other-merchant', () => {
      expect(open(issue('walletA', OTHER_ENTITY))).toEqual({ refused: 'other-merchant' });
    });

    it('expired: valid up to its expiry, refused a millisecond after', () => {
      const token = issue();
      expect(open(token, 'walletA', ENTITY, new Date(NOW.getTime() + WALLET_TOKEN_TTL_MS))).toEqual(PAYLOAD);
      expect(open(token, 'walletA', ENTITY, new Date(NOW.getTime() + WALLET_TOKEN_TTL_MS + 1))).toEqual({
        refused: 'expired',
      });
    });

    it('another key (another gateway): altered', () => {
      const foreign = walletTokens(randomBytes(32)).issue('walletA', ENTITY, PAYLOAD, NOW);
      expect(open(foreign)).toEqual({ refused: 'altered' });
    });

    it('a header relabelled to another wallet, channel or expiry: altered (the header is authenticated)', () => {
      const token = issue('walletB', OTHER_ENTITY);
      const [header, ...rest] = token.split('.');
      const fields = JSON.parse(Buffer.from(header!, 'base64url').toString('utf8'));
      for (const change of [{ w: 'walletA' }, { m: ENTITY }, { exp: fields.exp + WALLET_TOKEN_TTL_MS }]) {
        const forged = [b64(Buffer.from(JSON.stringify({ ...fields, ...change }))), ...rest].join('.');
        expect(open(forged, 'walletA', ENTITY), JSON.stringify(change)).toEqual({ refused: 'altered' });
      }
    });

    it('every single-character change, anywhere, is refused (no other encoding of a part opens)', () => {
      const token = issue();
      let tried = 0;
      for (let i = 0; i < token.length; i++) {
        if (token[i] === '.') continue;
        const next = BASE64URL[(BASE64URL.indexOf(token[i]!) + 1) % 64]!;
        for (const replacement of [next, '=', '!', ' ', '+', '/']) {
          const changed = `${token.slice(0, i)}${replacement}${token.slice(i + 1)}`;
          const opened = open(changed);
          expect('refused' in opened, `position ${i} → ${JSON.stringify(replacement)}`).toBe(true);
          tried++;
        }
      }
      expect(tried).toBeGreaterThan(1000);
    });

    it('padding or characters appended to a part are refused', () => {
      const parts = issue().split('.');
      for (let p = 1; p < 4; p++) {
        for (const extra of ['=', '==', ' ', '\n', 'A']) {
          const changed = parts.map((part, i) => (i === p ? `${part}${extra}` : part)).join('.');
          expect('refused' in open(changed), `part ${p} + ${JSON.stringify(extra)}`).toBe(true);
        }
      }
    });

    it('a shortened tag is refused (GCM would check only the bytes it is given)', () => {
      const parts = issue().split('.');
      const tag = Buffer.from(parts[3]!, 'base64url');
      for (const length of [0, 4, 8, 12, 15]) {
        const short = [parts[0], parts[1], parts[2], b64(tag.subarray(0, length))].join('.');
        expect(open(short), `${length} bytes`).toEqual({ refused: 'altered' });
      }
    });

    it('a token under another IV length is refused, even when its tag is right for it', () => {
      // Made with the gateway's own key, to show that only the length refuses it.
      const header = b64(
        Buffer.from(
          JSON.stringify({ v: 1, w: 'walletA', m: ENTITY, exp: NOW.getTime() + WALLET_TOKEN_TTL_MS }),
        ),
      );
      const iv = randomBytes(16);
      const cipher = createCipheriv('aes-256-gcm', KEY, iv);
      cipher.setAAD(Buffer.from(header));
      const body = Buffer.concat([cipher.update(JSON.stringify(PAYLOAD), 'utf8'), cipher.final()]);
      const token = [header, b64(iv), b64(body), b64(cipher.getAuthTag())].join('.');
      expect(open(token)).toEqual({ refused: 'altered' });
    });
  });
});
