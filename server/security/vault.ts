/**
 * Encryption at rest for card numbers and IBANs (decisions, Platform): AES-256-GCM under the data
 * key, taken from `GATEWAY_DATA_KEY`, or from the key file `GATEWAY_DATA_KEY_FILE` names (kept
 * apart from the data, e.g. on a secrets mount; it must exist), or else from `<dataDir>/data.key`,
 * generated on first use. A key file must be readable only by its owner.
 *
 * Sealed values are self-describing, so a later key rotation can keep several keys and pick the
 * one a value names:
 *
 *     v1:<key id, 8 hex>:<iv, base64url>:<ciphertext, base64url>:<tag, base64url>
 *
 * The key id is the first 4 bytes of SHA-256 of the key. The IV is 12 random bytes per
 * encryption. `v1:<key id>` is bound in as additional authenticated data, so no part of a sealed
 * value can be changed without decryption failing.
 */
import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  hkdfSync,
  randomBytes,
  randomFillSync,
} from 'node:crypto';
import {
  closeSync,
  fsyncSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';

export interface Vault {
  /** Id of the key new values are sealed under (8 hex). */
  readonly keyId: string;
  /** Where the key came from, for the startup log (never the key itself). */
  readonly keySource: 'env' | 'file';
  encrypt(plain: string): string;
  /** The plain text of a sealed value; throws a {@link VaultError} when it was altered or sealed under an unknown key. */
  decrypt(sealed: string): string;
  /**
   * HMAC-SHA-256 (hex) of a card number under a key derived from the data key, to recognise the
   * same card without decrypting. Spaces and hyphens are ignored. Bound to the data key: after
   * a key rotation fingerprints must be recomputed (or the old fingerprint key kept).
   */
  fingerprint(pan: string): string;
  /**
   * A 32-byte key for another purpose, derived from the data key (HKDF-SHA-256 with `purpose` as
   * its info), so each use has its own key and none of them reveals the data key.
   */
  subkey(purpose: string): Buffer;
}

export interface VaultOptions {
  /** The gateway's data folder; holds `data.key` when the key does not come from the environment. */
  readonly dataDir: string;
  /** Environment to read `GATEWAY_DATA_KEY` and `GATEWAY_DATA_KEY_FILE` from; `process.env` by default. */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

export class VaultError extends Error {
  override readonly name = 'VaultError';
}

export const DATA_KEY_ENV = 'GATEWAY_DATA_KEY';
export const DATA_KEY_FILE_ENV = 'GATEWAY_DATA_KEY_FILE';
export const KEY_FILE_NAME = 'data.key';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_BYTES = 32;

/** First 4 bytes of SHA-256 of the key, hex: names the key in sealed values without revealing it. */
export function keyIdOf(key: Uint8Array): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 8);
}

/**
 * A 32-byte key from its text form: 64 hex characters, or base64 (standard or url-safe, padding
 * optional) of exactly 32 bytes. Surrounding whitespace is ignored. Anything else is refused
 * rather than stretched or truncated, so a mistyped key cannot silently become a different one.
 */
export function parseDataKey(text: string, source: string): Buffer {
  const t = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(t)) return Buffer.from(t, 'hex');
  const b64 = t.replace(/=$/, '');
  if (/^[A-Za-z0-9+/_-]{43}$/.test(b64)) {
    // Node's decoder reads both alphabets. 43 characters carry 258 bits: the re-encoding check
    // refuses a value whose last 2 bits are not zero, which would not be exactly this key.
    const key = Buffer.from(b64, 'base64');
    if (key.length === KEY_BYTES && key.toString('base64url') === b64.replace(/\+/g, '-').replace(/\//g, '_'))
      return key;
  }
  throw new VaultError(
    `${source} must be a 256-bit key: 64 hex characters or the base64 of 32 bytes ` +
      `(got ${t.length} characters). Generate one with: openssl rand -hex 32`,
  );
}

const isWindows = process.platform === 'win32';

function errnoCode(e: unknown): string | undefined {
  return typeof e === 'object' && e !== null && 'code' in e
    ? String((e as { code: unknown }).code)
    : undefined;
}

function checkKeyFileMode(path: string): void {
  const st = statSync(path);
  if (!st.isFile()) throw new VaultError(`Data key file ${path} is not a regular file.`);
  // POSIX permission bits mean nothing on Windows (always reported as 0666 or 0444).
  if (isWindows) return;
  if ((st.mode & 0o077) !== 0) {
    const mode = (st.mode & 0o777).toString(8).padStart(4, '0');
    throw new VaultError(
      `Data key file ${path} is accessible by group or others (mode ${mode}); refusing to start. ` +
        `Fix with: chmod 600 ${path}`,
    );
  }
}

/**
 * Creates the key file atomically: the key is written to a private temporary file that is then
 * hard-linked to its final name, which fails if another process created it first. Either way the
 * file that ends up at `path` is complete when anyone reads it.
 */
function createKeyFile(dataDir: string, path: string): void {
  try {
    mkdirSync(dataDir, { recursive: false, mode: 0o700 });
  } catch (e) {
    if (errnoCode(e) === 'EEXIST') {
      // An existing data folder keeps its mode: it may be shared with the database on purpose.
    } else if (errnoCode(e) === 'ENOENT') {
      // The parent is missing too: create the chain, the last folder private.
      mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    } else throw e;
  }
  const tmp = join(dataDir, `.${KEY_FILE_NAME}.${randomBytes(6).toString('hex')}.tmp`);
  const fd = openSync(tmp, 'wx', 0o600);
  try {
    writeSync(fd, `${randomBytes(KEY_BYTES).toString('hex')}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(tmp, path);
  } catch (e) {
    if (errnoCode(e) !== 'EEXIST') throw e;
  } finally {
    unlinkSync(tmp);
  }
}

function loadKey(options: VaultOptions): { key: Buffer; source: 'env' | 'file' } {
  const env = options.env ?? process.env;
  const fromEnv = env[DATA_KEY_ENV];
  if (fromEnv !== undefined) {
    if (fromEnv.trim() === '')
      throw new VaultError(
        `${DATA_KEY_ENV} is set but empty. Set it to 64 hex characters (openssl rand -hex 32), ` +
          `or unset it to use the key file in the data folder.`,
      );
    if (env[DATA_KEY_FILE_ENV])
      throw new VaultError(`Set ${DATA_KEY_ENV} or ${DATA_KEY_FILE_ENV}, not both.`);
    return { key: parseDataKey(fromEnv, DATA_KEY_ENV), source: 'env' };
  }
  const named = env[DATA_KEY_FILE_ENV];
  if (named !== undefined && named.trim() !== '') {
    // Never generated: a mistyped path must not silently become a new key the data was not sealed with.
    try {
      checkKeyFileMode(named);
    } catch (e) {
      if (errnoCode(e) === 'ENOENT')
        throw new VaultError(
          `${DATA_KEY_FILE_ENV} names ${named}, which does not exist. Create it with: ` +
            `(umask 077; openssl rand -hex 32 > ${named})`,
        );
      throw e;
    }
    return { key: parseDataKey(readFileSync(named, 'utf8'), `Data key file ${named}`), source: 'file' };
  }
  const path = join(options.dataDir, KEY_FILE_NAME);
  let text: string;
  try {
    checkKeyFileMode(path);
    text = readFileSync(path, 'utf8');
  } catch (e) {
    if (errnoCode(e) !== 'ENOENT') throw e;
    createKeyFile(options.dataDir, path);
    checkKeyFileMode(path);
    text = readFileSync(path, 'utf8');
  }
  return { key: parseDataKey(text, `Data key file ${path}`), source: 'file' };
}

/** Strict base64url: Node's decoder skips characters it does not know, so re-encode and compare. */
function fromB64url(part: string, what: string): Buffer {
  const buf = Buffer.from(part, 'base64url');
  if (!/^[A-Za-z0-9_-]*$/.test(part) || buf.toString('base64url') !== part)
    throw new VaultError(`Sealed value has a malformed ${what}.`);
  return buf;
}

/**
 * Fresh 12-byte IVs cut from a pool of CSPRNG bytes refilled 4 KiB at a time: each IV is as random
 * and as unique as a randomBytes(12) of its own, and a card payment no longer pays for a
 * synchronous call into the CSPRNG per sealed value (the largest part of sealing, profiled under
 * load). Each IV is a copy, so nothing handed out is overwritten by a later refill.
 */
function ivSource(): () => Buffer {
  const pool = Buffer.alloc(IV_BYTES * 341);
  let offset = pool.length;
  return () => {
    if (offset + IV_BYTES > pool.length) {
      randomFillSync(pool);
      offset = 0;
    }
    const iv = Buffer.from(pool.subarray(offset, offset + IV_BYTES));
    offset += IV_BYTES;
    return iv;
  };
}

/** Opens the vault: reads (or on first use creates) the data key. Throws a {@link VaultError} on a bad key. */
export function openVault(options: VaultOptions): Vault {
  const { key, source } = loadKey(options);
  const keyId = keyIdOf(key);
  // Keyed by id so that a rotation only has to add the previous keys here.
  const keys = new Map<string, Buffer>([[keyId, key]]);
  const subkey = (purpose: string) => Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), purpose, 32));
  const fingerprintKey = subkey('card-fingerprint');
  const header = `${VERSION}:${keyId}`;
  const aad = Buffer.from(header, 'utf8');
  const nextIv = ivSource();

  return {
    keyId,
    keySource: source,

    encrypt(plain: string): string {
      const iv = nextIv();
      const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
      cipher.setAAD(aad);
      const ct = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      const tag = cipher.getAuthTag();
      return `${header}:${iv.toString('base64url')}:${ct.toString('base64url')}:${tag.toString('base64url')}`;
    },

    decrypt(sealed: string): string {
      const parts = sealed.split(':');
      if (parts.length !== 5) throw new VaultError('Sealed value is malformed.');
      const [version, id, ivPart, ctPart, tagPart] = parts as [string, string, string, string, string];
      if (version !== VERSION)
        throw new VaultError(`Sealed value has unknown version "${version.slice(0, 8)}".`);
      if (!/^[0-9a-f]{8}$/.test(id)) throw new VaultError('Sealed value has a malformed key id.');
      const k = keys.get(id);
      if (k === undefined)
        throw new VaultError(
          `Sealed value was encrypted under key ${id}, but the data key is ${keyId}: wrong GATEWAY_DATA_KEY or data.key?`,
        );
      const iv = fromB64url(ivPart, 'IV');
      const ct = fromB64url(ctPart, 'ciphertext');
      const tag = fromB64url(tagPart, 'tag');
      if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES)
        throw new VaultError('Sealed value is malformed.');
      const decipher = createDecipheriv('aes-256-gcm', k, iv, { authTagLength: TAG_BYTES });
      decipher.setAAD(Buffer.from(`${version}:${id}`, 'utf8'));
      decipher.setAuthTag(tag);
      try {
        return Buffer.concat([decipher.update(ct), decipher.final()]).toString('utf8');
      } catch {
        throw new VaultError(
          'Sealed value failed authentication: it was altered or sealed under another key.',
        );
      }
    },

    fingerprint(pan: string): string {
      return createHmac('sha256', fingerprintKey).update(pan.replace(/[\s-]/g, ''), 'utf8').digest('hex');
    },

    subkey,
  };
}
