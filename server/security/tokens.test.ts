import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  credentialsFromParams,
  decodeToken,
  encodeToken,
  hashSecret,
  newToken,
  parseAuthorization,
  verifySecret,
} from './tokens';

describe('newToken', () => {
  it('has a 32-hex userId, a url-safe 256-bit secret, and the token is base64 of userId|secret', () => {
    const t = newToken();
    expect(t.userId).toMatch(/^[0-9a-f]{32}$/);
    expect(t.secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(t.secret, 'base64url')).toHaveLength(32);
    expect(t.token).toMatch(/^[A-Za-z0-9+/]+={0,2}$/);
    expect(Buffer.from(t.token, 'base64').toString('utf8')).toBe(`${t.userId}|${t.secret}`);
    expect(t.secretHash).toBe(hashSecret(t.secret));
  });

  it('is random each time', () => {
    const tokens = Array.from({ length: 100 }, newToken);
    expect(new Set(tokens.map((t) => t.userId)).size).toBe(100);
    expect(new Set(tokens.map((t) => t.secret)).size).toBe(100);
  });

  it('round-trips through the Authorization header', () => {
    const t = newToken();
    expect(parseAuthorization(`Bearer ${t.token}`)).toEqual({
      kind: 'credentials',
      userId: t.userId,
      secret: t.secret,
    });
  });
});

describe('hashSecret / verifySecret', () => {
  it('is sha256:<hex> of the secret', () => {
    expect(hashSecret('abc')).toBe(`sha256:${createHash('sha256').update('abc').digest('hex')}`);
  });

  it('verifies the right secret and rejects others', () => {
    const t = newToken();
    expect(verifySecret(t.secret, t.secretHash)).toBe(true);
    expect(verifySecret(`${t.secret}x`, t.secretHash)).toBe(false);
    expect(verifySecret(t.secret.slice(0, -1), t.secretHash)).toBe(false);
    expect(verifySecret('', t.secretHash)).toBe(false);
    expect(verifySecret(newToken().secret, t.secretHash)).toBe(false);
  });

  it('never matches an unknown or damaged stored hash', () => {
    const t = newToken();
    const hex = t.secretHash.slice('sha256:'.length);
    for (const bad of [
      '',
      hex,
      `sha256:${hex.slice(1)}`,
      `sha256:${hex.toUpperCase()}`,
      `sha512:${hex}`,
      t.secret,
    ])
      expect(verifySecret(t.secret, bad)).toBe(false);
  });
});

describe('parseAuthorization', () => {
  const token = encodeToken('8a8294174b7ecb28014b9699220015cc', 'sy6KJsT8');
  const creds = { kind: 'credentials', userId: '8a8294174b7ecb28014b9699220015cc', secret: 'sy6KJsT8' };

  it('accepts Bearer in any case and with any whitespace', () => {
    for (const header of [
      `Bearer ${token}`,
      `bearer  ${token}`,
      `BEARER ${token}`,
      `BeArEr\t${token}`,
      ` Bearer ${token} `,
      `Bearer    ${token}\t`,
    ])
      expect(parseAuthorization(header), header).toEqual(creds);
  });

  it('accepts the family token of the published examples', () => {
    expect(parseAuthorization('Bearer OGE4Mjk0MTc0YjdlY2IyODAxNGI5Njk5MjIwMDE1Y2N8c3k2S0pzVDg=')).toEqual(
      creds,
    );
  });

  it('accepts the token without padding and in the url-safe alphabet', () => {
    const t = encodeToken('u', '>>>???');
    expect(t).toMatch(/[+/]/);
    const expected = { kind: 'credentials', userId: 'u', secret: '>>>???' };
    expect(parseAuthorization(`Bearer ${t.replace(/=+$/, '')}`)).toEqual(expected);
    expect(parseAuthorization(`Bearer ${t.replace(/\+/g, '-').replace(/\//g, '_')}`)).toEqual(expected);
  });

  it('splits at the first pipe: the secret may contain one', () => {
    expect(parseAuthorization(`Bearer ${encodeToken('user', 'se|cret')}`)).toEqual({
      kind: 'credentials',
      userId: 'user',
      secret: 'se|cret',
    });
  });

  it('reports a missing header as missing', () => {
    expect(parseAuthorization(undefined)).toEqual({ kind: 'missing' });
    expect(parseAuthorization('')).toEqual({ kind: 'missing' });
    expect(parseAuthorization('   ')).toEqual({ kind: 'missing' });
  });

  it('reports another scheme, no token or more than one as malformed (401)', () => {
    const b64 = (s: string) => Buffer.from(s).toString('base64');
    for (const header of [
      `Basic ${token}`,
      `Basic ${b64('user:pass')}`,
      token,
      'Bearer',
      'Bearer ',
      `Bearer${token}`,
      `Bearer ${token} ${token}`,
      `Bearer ${token}, Bearer ${token}`,
      `Token ${token}`,
    ])
      expect(parseAuthorization(header), header).toEqual({ kind: 'malformed' });
  });

  it('reports a well-formed Bearer whose token names no one as unknown (403, as the family answers)', () => {
    const b64 = (s: string) => Buffer.from(s).toString('base64');
    for (const header of [
      'Bearer nope',
      'Bearer not*base64!',
      'Bearer ü',
      'Bearer abcde',
      `Bearer ${b64('no pipe here')}`,
      `Bearer ${b64('|secret-only')}`,
      `Bearer ${b64('user-only|')}`,
      `Bearer ${b64('|')}`,
      `Bearer ${Buffer.from([0xff, 0xfe, 0x7c, 0x41]).toString('base64')}`,
      `Bearer ${'A'.repeat(2000)}`,
    ])
      expect(parseAuthorization(header), header).toEqual({ kind: 'unknown' });
  });
});

describe('decodeToken', () => {
  it('decodes a bare token', () => {
    expect(decodeToken(encodeToken('a', 'b'))).toEqual({ kind: 'credentials', userId: 'a', secret: 'b' });
    expect(decodeToken('')).toEqual({ kind: 'malformed' });
  });
});

describe('credentialsFromParams', () => {
  it('reads the legacy parameter form', () => {
    expect(
      credentialsFromParams({ 'authentication.userId': 'user', 'authentication.password': 'secret' }),
    ).toEqual({ kind: 'credentials', userId: 'user', secret: 'secret' });
  });

  it('gives the same credentials as the token form', () => {
    const t = newToken();
    expect(
      credentialsFromParams({ 'authentication.userId': t.userId, 'authentication.password': t.secret }),
    ).toEqual(parseAuthorization(`Bearer ${t.token}`));
  });

  it('is missing without either parameter and malformed with only one', () => {
    expect(credentialsFromParams({})).toEqual({ kind: 'missing' });
    expect(credentialsFromParams({ 'authentication.userId': '', 'authentication.password': '' })).toEqual({
      kind: 'missing',
    });
    expect(credentialsFromParams({ 'authentication.userId': 'user' })).toEqual({ kind: 'malformed' });
    expect(credentialsFromParams({ 'authentication.password': 'secret' })).toEqual({ kind: 'malformed' });
    expect(credentialsFromParams({ 'authentication.userId': 'user', 'authentication.password': '' })).toEqual(
      {
        kind: 'malformed',
      },
    );
  });

  it('accepts a plain parameter record', () => {
    const params: Record<string, string> = {
      entityId: 'x',
      'authentication.userId': 'u',
      'authentication.password': 'p',
    };
    expect(credentialsFromParams(params)).toEqual({ kind: 'credentials', userId: 'u', secret: 'p' });
  });
});
