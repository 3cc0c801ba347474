import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PAN } from '../test-kit/fixtures/cards';
import { KEY_FILE_NAME, keyIdOf, openVault, parseDataKey, VaultError } from './vault';

const posix = process.platform !== 'win32';
const HEX_KEY = 'a'.repeat(64);

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'vault-test-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const envVault = (key = HEX_KEY) => openVault({ dataDir: dir, env: { GATEWAY_DATA_KEY: key } });

/** Replaces one character of a base64url part by another valid one, or one hex digit of the key id. */
function flipChar(part: string, at: number, alphabet: string): string {
  const c = part[at]!;
  const other = alphabet[(alphabet.indexOf(c) + 1) % alphabet.length]!;
  return part.slice(0, at) + other + part.slice(at + 1);
}
const B64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

describe('encrypt / decrypt', () => {
  it('round-trips card numbers, IBANs, empty and non-ASCII text', () => {
    const v = envVault();
    for (const plain of [PAN, 'DE89370400440532013000', '', 'Zoë ✓ 𝄞', 'x'.repeat(10_000)])
      expect(v.decrypt(v.encrypt(plain))).toBe(plain);
  });

  it('writes the versioned, self-describing format with the key id', () => {
    const v = envVault();
    const sealed = v.encrypt(PAN);
    expect(sealed).toMatch(/^v1:[0-9a-f]{8}:[A-Za-z0-9_-]{16}:[A-Za-z0-9_-]*:[A-Za-z0-9_-]{22}$/);
    expect(sealed.split(':')[1]).toBe(v.keyId);
    expect(v.keyId).toBe(keyIdOf(Buffer.from(HEX_KEY, 'hex')));
    expect(sealed).not.toContain(PAN);
  });

  it('uses a fresh IV for every encryption', () => {
    const v = envVault();
    const ivs = new Set<string>();
    const sealed = new Set<string>();
    for (let i = 0; i < 1000; i++) {
      const s = v.encrypt(PAN);
      sealed.add(s);
      ivs.add(s.split(':')[2]!);
    }
    expect(ivs.size).toBe(1000);
    expect(sealed.size).toBe(1000);
  });

  it('detects tampering in every part', () => {
    const v = envVault();
    const sealed = v.encrypt(PAN);
    const parts = sealed.split(':');
    const variants: string[] = [];
    // version
    variants.push(['v2', ...parts.slice(1)].join(':'));
    // key id: every hex digit
    for (let i = 0; i < 8; i++)
      variants.push([parts[0], flipChar(parts[1]!, i, '0123456789abcdef'), ...parts.slice(2)].join(':'));
    // IV, ciphertext, tag: every character, including the last one whose low bits are padding
    for (const p of [2, 3, 4]) {
      for (let i = 0; i < parts[p]!.length; i++) {
        const copy = [...parts];
        copy[p] = flipChar(parts[p]!, i, B64URL);
        variants.push(copy.join(':'));
      }
      // and a flipped bit in the decoded bytes
      const bytes = Buffer.from(parts[p]!, 'base64url');
      bytes[0] = (bytes[0] ?? 0) ^ 0x01;
      const copy = [...parts];
      copy[p] = bytes.toString('base64url');
      variants.push(copy.join(':'));
    }
    // structural damage
    variants.push(
      parts.slice(0, 4).join(':'),
      `${sealed}:`,
      sealed.replace(/:[^:]*$/, ':'),
      `${parts.slice(0, 3).join(':')}:${parts[3]}AA:${parts[4]}`,
      `${parts.slice(0, 2).join(':')}:${parts[2]}!:${parts.slice(3).join(':')}`,
      '',
    );
    for (const bad of variants) {
      expect(bad).not.toBe(sealed);
      expect(() => v.decrypt(bad), bad).toThrow(VaultError);
    }
    expect(v.decrypt(sealed)).toBe(PAN);
  });

  it('refuses a value sealed under another key, naming both key ids', () => {
    const a = envVault('a'.repeat(64));
    const b = envVault('b'.repeat(64));
    const sealed = a.encrypt(PAN);
    expect(() => b.decrypt(sealed)).toThrow(VaultError);
    expect(() => b.decrypt(sealed)).toThrow(new RegExp(`${a.keyId}.*${b.keyId}`));
  });

  it('does not let a value sealed under one key id pass authentication with another key', () => {
    // Forge the key id of a value sealed under A to B's id: GCM still rejects it.
    const a = envVault('a'.repeat(64));
    const b = envVault('b'.repeat(64));
    const forged = a.encrypt(PAN).replace(/^v1:[0-9a-f]{8}:/, `v1:${b.keyId}:`);
    expect(() => b.decrypt(forged)).toThrow(/failed authentication/);
  });
});

describe('fingerprint', () => {
  it('is a stable hex HMAC, the same for spaced and plain card numbers', () => {
    const v = envVault();
    const f = v.fingerprint(PAN);
    expect(f).toMatch(/^[0-9a-f]{64}$/);
    expect(v.fingerprint('4200 0000 0000 0000')).toBe(f);
    expect(v.fingerprint('4200-0000-0000-0000')).toBe(f);
    expect(envVault().fingerprint(PAN)).toBe(f);
    expect(v.fingerprint('4200000000000018')).not.toBe(f);
  });

  it('depends on the data key and is not a plain hash of the number', () => {
    expect(envVault('a'.repeat(64)).fingerprint(PAN)).not.toBe(envVault('b'.repeat(64)).fingerprint(PAN));
    expect(envVault().fingerprint(PAN)).not.toBe(createHash('sha256').update(PAN).digest('hex'));
  });
});

describe('key from GATEWAY_DATA_KEY', () => {
  const raw = randomBytes(32);

  it('accepts 64 hex characters in either case, and base64 / base64url of 32 bytes', () => {
    const id = keyIdOf(raw);
    for (const text of [
      raw.toString('hex'),
      raw.toString('hex').toUpperCase(),
      raw.toString('base64'),
      raw.toString('base64').replace(/=$/, ''),
      raw.toString('base64url'),
      `  ${raw.toString('hex')}\n`,
    ])
      expect(envVault(text).keyId).toBe(id);
  });

  it('encrypts with the env key and interoperates across formats', () => {
    const sealed = envVault(raw.toString('hex')).encrypt(PAN);
    expect(envVault(raw.toString('base64')).decrypt(sealed)).toBe(PAN);
  });

  it('refuses anything else with a clear error', () => {
    for (const bad of [
      'a'.repeat(63),
      'a'.repeat(65),
      'g'.repeat(64),
      randomBytes(16).toString('hex'),
      randomBytes(31).toString('base64'),
      randomBytes(33).toString('base64'),
      'correct horse battery staple',
      // 43 base64 characters whose last 2 bits are not zero: not exactly 32 bytes
      `${raw.toString('base64url').slice(0, 42)}B`,
    ])
      expect(() => envVault(bad), bad).toThrow(/GATEWAY_DATA_KEY must be a 256-bit key: 64 hex characters/);
    expect(() => envVault('')).toThrow(/GATEWAY_DATA_KEY is set but empty/);
    expect(() => envVault('   ')).toThrow(VaultError);
  });

  it('does not touch the data folder', () => {
    envVault();
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe('key file', () => {
  const keyPath = () => join(dir, KEY_FILE_NAME);

  it('is generated on first use with mode 0600 in a 0700 folder, and reused afterwards', () => {
    const dataDir = join(dir, 'data', 'nested');
    const v1 = openVault({ dataDir, env: {} });
    expect(v1.keySource).toBe('file');
    const path = join(dataDir, KEY_FILE_NAME);
    expect(readFileSync(path, 'utf8')).toMatch(/^[0-9a-f]{64}\n$/);
    if (posix) {
      expect(statSync(path).mode & 0o777).toBe(0o600);
      expect(statSync(dataDir).mode & 0o777).toBe(0o700);
    }
    expect(readdirSync(dataDir)).toEqual([KEY_FILE_NAME]);

    const sealed = v1.encrypt(PAN);
    const v2 = openVault({ dataDir, env: {} });
    expect(v2.keyId).toBe(v1.keyId);
    expect(v2.decrypt(sealed)).toBe(PAN);
    expect(v2.fingerprint(PAN)).toBe(v1.fingerprint(PAN));
  });

  it('reads a key file provided by the operator', () => {
    writeFileSync(keyPath(), HEX_KEY, { mode: 0o600 });
    expect(openVault({ dataDir: dir, env: {} }).keyId).toBe(keyIdOf(Buffer.from(HEX_KEY, 'hex')));
  });

  it('prefers GATEWAY_DATA_KEY over the key file', () => {
    writeFileSync(keyPath(), 'b'.repeat(64), { mode: 0o600 });
    expect(envVault().keyId).toBe(keyIdOf(Buffer.from(HEX_KEY, 'hex')));
  });

  it.skipIf(!posix)('refuses a key file readable by group or others, and says which chmod fixes it', () => {
    openVault({ dataDir: dir, env: {} });
    for (const mode of [0o644, 0o640, 0o604, 0o660, 0o602]) {
      chmodSync(keyPath(), mode);
      expect(() => openVault({ dataDir: dir, env: {} })).toThrow(VaultError);
      expect(() => openVault({ dataDir: dir, env: {} })).toThrow(
        `mode ${mode.toString(8).padStart(4, '0')}); refusing to start. Fix with: chmod 600 ${keyPath()}`,
      );
    }
    chmodSync(keyPath(), 0o400);
    expect(() => openVault({ dataDir: dir, env: {} })).not.toThrow();
  });

  it('refuses a key file that does not hold a key', () => {
    writeFileSync(keyPath(), 'not a key\n', { mode: 0o600 });
    expect(() => openVault({ dataDir: dir, env: {} })).toThrow(
      /Data key file .*data\.key must be a 256-bit key/,
    );
  });

  it('reuses an existing key file rather than replacing it, and leaves no temporary file', () => {
    const a = openVault({ dataDir: dir, env: {} });
    const b = openVault({ dataDir: dir, env: {} });
    expect(b.keyId).toBe(a.keyId);
    expect(readdirSync(dir)).toEqual([KEY_FILE_NAME]);
  });
});

describe('parseDataKey', () => {
  it('names its source in the error', () => {
    expect(() => parseDataKey('nope', 'Some source')).toThrow(/^Some source must be/);
  });
});
