/**
 * Startup refusals and warnings of production (server/mode.ts), probed with the tokens and
 * folders an operator might really configure (issue 30, hole 6).
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { adminToken, dataKeyWarning, StartupError } from './mode';

const PRODUCTION = { NODE_ENV: 'production' } as const;

describe('the admin token in production', () => {
  it.each([
    ['a'.repeat(32)],
    ['a'.repeat(64)],
    ['password'.repeat(4)],
    ['0123456789abcdef'.repeat(2)],
    ['abababababababababababababababab'],
    ['aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab'],
  ])('refuses a low-entropy token (%s) at start', (token) => {
    expect(() => adminToken({ ...PRODUCTION, GATEWAY_ADMIN_TOKEN: token })).toThrow(StartupError);
    expect(() => adminToken({ ...PRODUCTION, GATEWAY_ADMIN_TOKEN: token })).toThrow(/openssl rand -hex 32/);
  });

  it('accepts generated tokens (hex and base64 of 16 to 32 random bytes) every time', () => {
    for (let i = 0; i < 2_000; i++) {
      for (const token of [
        randomBytes(16).toString('hex'),
        randomBytes(32).toString('hex'),
        randomBytes(24).toString('base64url'),
      ])
        expect(adminToken({ ...PRODUCTION, GATEWAY_ADMIN_TOKEN: token })).toBe(token);
    }
  });

  it('on a developer machine only the length counts', () => {
    expect(adminToken({ GATEWAY_ADMIN_TOKEN: 'a'.repeat(32) })).toBe('a'.repeat(32));
    expect(() => adminToken({ GATEWAY_ADMIN_TOKEN: 'a'.repeat(31) })).toThrow(StartupError);
  });
});

describe('the data key beside the database', () => {
  const dataDir = '/srv/gateway/data';
  it('warns in production when the key file is generated in the SQLite data folder', () => {
    expect(dataKeyWarning(PRODUCTION, { dataDir })).toMatch(/data key .* beside the database/);
    expect(dataKeyWarning({ ...PRODUCTION, GATEWAY_DATA_KEY_FILE: join(dataDir, 'k') }, { dataDir })).toMatch(
      /beside the database/,
    );
  });
  it('is quiet with the key elsewhere, on PostgreSQL, or on a developer machine', () => {
    expect(dataKeyWarning({ ...PRODUCTION, GATEWAY_DATA_KEY: 'f'.repeat(64) }, { dataDir })).toBeUndefined();
    expect(
      dataKeyWarning({ ...PRODUCTION, GATEWAY_DATA_KEY_FILE: '/run/secrets/data.key' }, { dataDir }),
    ).toBeUndefined();
    expect(
      dataKeyWarning(PRODUCTION, { dataDir, databaseUrl: 'postgres://db.internal/gateway' }),
    ).toBeUndefined();
    expect(dataKeyWarning({}, { dataDir })).toBeUndefined();
  });
});
