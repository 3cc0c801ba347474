/**
 * GATEWAY_DATA_KEY_FILE: the data key kept apart from the data (a secrets mount), never generated
 * (a mistyped path must not become a new key), owner-only like the default key file.
 */
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { keyIdOf, openVault, VaultError } from './vault';

const HEX_KEY = 'c'.repeat(64);
let dir: string;
let dataDir: string;
let keyFile: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'data-key-file-'));
  dataDir = join(dir, 'data');
  keyFile = join(dir, 'secrets', 'gateway.key');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const write = (mode = 0o600) => {
  mkdirSync(join(dir, 'secrets'), { recursive: true, mode: 0o700 });
  writeFileSync(keyFile, `${HEX_KEY}\n`, { mode });
  chmodSync(keyFile, mode);
};

describe('GATEWAY_DATA_KEY_FILE', () => {
  it('reads the key from the named file, and writes no key into the data folder', () => {
    write();
    const vault = openVault({ dataDir, env: { GATEWAY_DATA_KEY_FILE: keyFile } });
    expect(vault.keySource).toBe('file');
    expect(vault.keyId).toBe(keyIdOf(Buffer.from(HEX_KEY, 'hex')));
    expect(existsSync(dataDir) ? readdirSync(dataDir) : []).toEqual([]);
  });

  it('refuses a file that does not exist, saying how to create one, and generates none', () => {
    expect(() => openVault({ dataDir, env: { GATEWAY_DATA_KEY_FILE: keyFile } })).toThrow(
      /GATEWAY_DATA_KEY_FILE names .*gateway\.key, which does not exist.*openssl rand -hex 32/,
    );
    expect(existsSync(keyFile)).toBe(false);
    expect(existsSync(join(dataDir, 'data.key'))).toBe(false);
  });

  it.skipIf(process.platform === 'win32')('refuses a file readable by group or others', () => {
    write(0o644);
    expect(() => openVault({ dataDir, env: { GATEWAY_DATA_KEY_FILE: keyFile } })).toThrow(/chmod 600/);
  });

  it('refuses GATEWAY_DATA_KEY and GATEWAY_DATA_KEY_FILE together', () => {
    write();
    expect(() =>
      openVault({ dataDir, env: { GATEWAY_DATA_KEY: HEX_KEY, GATEWAY_DATA_KEY_FILE: keyFile } }),
    ).toThrow(VaultError);
  });
});
