/**
 * Bank account data at rest, sealed like card numbers (by the vault, server/security/vault.ts,
 * behind the SealingVault port, so storage needs nothing of server/security): the values under
 * the catalogue's account names (`ACCOUNT_NAMES`, mask `account`: bankAccount.iban, bankAccount.number,
 * sender.accountNumber, recipient.accountNumber) are encrypted by the vault in every JSON document
 * storage keeps — payments' and registrations' details, checkouts' parameters, pending payments'
 * plans, webhook payloads — and opened when read, so the engine, the answers and the
 * notifications see them as the merchant sent them.
 *
 * A value is recognised by its last two names at any depth (a pending payment's plan keeps
 * `afterSuccess.register.bankAccount.iban`; an answer's `merchant.bankAccount.number` is one too).
 * Field by field rather than whole documents: the rest of a row stays readable for operators,
 * sealing twice changes nothing, and rows written in plaintext before this existed still read
 * (only what is sealed is opened), to be sealed as they are rewritten.
 */
import { ACCOUNT_NAMES } from '../params/masks';

/** What sealing needs of the vault (server/security/vault.ts): AES-256-GCM under the data key. */
export interface SealingVault {
  encrypt(plain: string): string;
  /** The plain text of a sealed value; throws when it was altered or sealed under an unknown key. */
  decrypt(sealed: string): string;
}

export interface AccountSealer {
  /** A copy of a JSON value with every account number sealed; values sealed already stay as they are. */
  seal<T>(value: T): T;
  /** A copy of a JSON value with every sealed account number opened; plaintext ones stay as they are. */
  open<T>(value: T): T;
}

/** `bankAccount.iban`, `accountNumber` under `sender` …: the last two names of each account name. */
const ACCOUNT_FIELDS = new Set([
  ...ACCOUNT_NAMES.map((name) => name.split('.').slice(-2).join('.')),
  // A channel's connector credentials (its access token to another gateway) rest in the channel's
  // settings: a secret like the account numbers, sealed the same way.
  'connector.accessToken',
  'connector.apiKey',
  'connector.hmacKey',
  'connector.webhookSecret',
]);

/**
 * A value the vault sealed (`v1:<key id>:<iv>:<ciphertext>:<tag>`, see vault.ts). No account
 * number can look like one: IBANs and bank account numbers are letters and digits only, and
 * sender and recipient account numbers are at most 32 characters.
 */
const SEALED = /^v\d+:[0-9a-f]{8}:[A-Za-z0-9_-]+:[A-Za-z0-9_-]*:[A-Za-z0-9_-]+$/;

export const isSealed = (value: string): boolean => SEALED.test(value);

/** Applies `change` to the account numbers of a JSON value; shares what does not change. */
/**
 * ACCOUNT_FIELDS by their last-but-one name: a leaf is looked up by its parent's name and its own,
 * without making `parent.key` for every leaf of every payment stored (sealing runs on each row).
 */
const ACCOUNT_KEYS = new Map<string, Set<string>>();
for (const field of ACCOUNT_FIELDS) {
  const dot = field.indexOf('.');
  if (dot === -1) continue; // `${parent}.${key}` always has a dot: a bare name never matched
  const parent = field.slice(0, dot);
  const keys = ACCOUNT_KEYS.get(parent) ?? new Set<string>();
  keys.add(field.slice(dot + 1));
  ACCOUNT_KEYS.set(parent, keys);
}

function transform(value: unknown, parent: string, change: (plain: string) => string): unknown {
  if (Array.isArray(value)) {
    const items = value.map((item) => transform(item, parent, change));
    return items.some((item, i) => item !== value[i]) ? items : value;
  }
  if (value === null || typeof value !== 'object') return value;
  const accounts = ACCOUNT_KEYS.get(parent);
  const fields = value as Record<string, unknown>;
  let out: Record<string, unknown> | undefined;
  for (const key of Object.keys(fields)) {
    const child = fields[key];
    const next =
      typeof child === 'string'
        ? accounts?.has(key) === true
          ? change(child)
          : child
        : transform(child, key, change);
    if (next === child) continue;
    out ??= { ...fields };
    out[key] = next;
  }
  return out ?? value;
}

export function accountSealer(vault: SealingVault): AccountSealer {
  const seal = (plain: string) => (plain === '' || isSealed(plain) ? plain : vault.encrypt(plain));
  const open = (stored: string) => (isSealed(stored) ? vault.decrypt(stored) : stored);
  return {
    seal: <T>(value: T) => transform(value, '', seal) as T,
    open: <T>(value: T) => transform(value, '', open) as T,
  };
}
