/**
 * Production versus a developer's machine (decisions, "Production and the developer's machine").
 *
 * `NODE_ENV=production` turns off everything meant for a developer's machine: the demo merchant
 * and its printed token, the demo shop, and the simulator endpoints that change data without the
 * merchant's credentials; every request must then come over TLS (GATEWAY_TLS_CERT/GATEWAY_TLS_KEY)
 * or through a trusted proxy that says it did (GATEWAY_TRUST_PROXY + `X-Forwarded-Proto: https`).
 * Anything else is the zero-configuration developer default, which says so in its first log line.
 */

import { createHmac } from 'node:crypto';
import { join, resolve, sep } from 'node:path';

type Env = Readonly<Record<string, string | undefined>>;

/** A configuration the gateway refuses to start with; main.ts prints its message and exits 1. */
export class StartupError extends Error {
  override readonly name = 'StartupError';
}

/** Whether `NODE_ENV` asks for production (`production`, any case, spaces ignored). */
export const isProduction = (env: Env): boolean => env.NODE_ENV?.trim().toLowerCase() === 'production';

/** The first log line of a gateway that is not in production. */
export const DEVELOPER_MODE_MESSAGE =
  'developer mode: demo merchant, demo shop, loopback callbacks, open simulator endpoints; ' +
  'set NODE_ENV=production for production';

/**
 * A yes/no setting (GATEWAY_TRUST_PROXY): 1/true/yes/on or 0/false/no/off (any case), unset or
 * empty for `fallback`. Anything else is refused rather than guessed.
 */
export function flag(env: Env, name: string, fallback = false): boolean {
  const value = env[name]?.trim().toLowerCase();
  if (value === undefined || value === '') return fallback;
  if (['1', 'true', 'yes', 'on'].includes(value)) return true;
  if (['0', 'false', 'no', 'off'].includes(value)) return false;
  throw new StartupError(`${name} must be 1 or 0 (true/false, yes/no, on/off), not "${env[name]}"`);
}

/** The shortest admin token accepted: 32 characters (128 bits as hex, more as anything denser). */
export const MIN_ADMIN_TOKEN_LENGTH = 32;

const GENERATE =
  'Generate one with: openssl rand -hex 32 ' +
  `(or: node -e "console.log(require('crypto').randomBytes(32).toString('hex'))")`;

/**
 * The fewest bits a production admin token must seem to hold: its length times the Shannon
 * entropy of its own characters. 32 random hex characters (128 bits) measure 95 or more, a
 * word or a run of one letter far less; a guess that measures above it is still no guess a
 * throttled attacker gets through at ten tries a minute.
 */
export const MIN_ADMIN_TOKEN_BITS = 80;

/** A token's apparent entropy in bits (length × Shannon entropy of its character counts). */
export function apparentBits(token: string): number {
  const counts = new Map<string, number>();
  for (const ch of token) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let perChar = 0;
  for (const n of counts.values()) perChar -= (n / token.length) * Math.log2(n / token.length);
  return perChar * token.length;
}

/** Whether a text is a shorter unit repeated (`passwordpassword`, `abab…`). */
const repeated = (token: string): boolean => /^(.+?)\1+$/s.test(token);

/**
 * GATEWAY_ADMIN_TOKEN, or undefined (the admin API off); refuses one too short to resist
 * guessing, and in production one that is long but not random (`a` × 32 had passed on length).
 */
export function adminToken(env: Env, production = isProduction(env)): string | undefined {
  const token = env.GATEWAY_ADMIN_TOKEN;
  if (token === undefined || token === '') return undefined;
  if (token.length < MIN_ADMIN_TOKEN_LENGTH)
    throw new StartupError(
      `GATEWAY_ADMIN_TOKEN is ${token.length} characters long; it must be at least ` +
        `${MIN_ADMIN_TOKEN_LENGTH}. ${GENERATE}`,
    );
  if (production && (repeated(token) || apparentBits(token) < MIN_ADMIN_TOKEN_BITS))
    throw new StartupError(
      'GATEWAY_ADMIN_TOKEN is not random enough for production (a repeated or predictable text): ' +
        `anyone who guesses it is the operator. ${GENERATE}`,
    );
  return token;
}

/**
 * Production's warning when the data key sits beside the database: generated in the SQLite data
 * folder (no GATEWAY_DATA_KEY or GATEWAY_DATA_KEY_FILE), or a key file inside it. A copy of that
 * folder (a backup, a stolen disk) then opens every sealed card number and account. Undefined
 * otherwise (PostgreSQL keeps its data elsewhere).
 */
export function dataKeyWarning(
  env: Env,
  store: { readonly dataDir: string; readonly databaseUrl?: string | undefined },
): string | undefined {
  if (!isProduction(env) || (store.databaseUrl ?? '') !== '' || (env.GATEWAY_DATA_KEY ?? '') !== '')
    return undefined;
  const file = env.GATEWAY_DATA_KEY_FILE ?? '';
  const folder = resolve(store.dataDir);
  if (file !== '' && !resolve(file).startsWith(`${folder}${sep}`)) return undefined;
  return (
    `the data key (${file === '' ? join(folder, 'data.key') : resolve(file)}) sits beside the database in ` +
    `${folder}: a copy of that folder opens every sealed card number. Keep it apart: GATEWAY_DATA_KEY from a ` +
    'secret store, or GATEWAY_DATA_KEY_FILE on another mount'
  );
}

/**
 * GATEWAY_PUBLIC_URL (the address shoppers and merchants reach the gateway at; redirect.url is
 * built on it): an http(s) origin, https in production. Undefined when unset. `name` reads another
 * such setting (GATEWAY_LIVE_PUBLIC_URL, the live address: https always, see liveTransport).
 */
export function publicUrl(
  env: Env,
  production: boolean,
  name: 'GATEWAY_PUBLIC_URL' | 'GATEWAY_LIVE_PUBLIC_URL' = 'GATEWAY_PUBLIC_URL',
): string | undefined {
  const text = env[name]?.trim();
  if (text === undefined || text === '') return undefined;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new StartupError(`${name} is not a URL: "${text}"`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new StartupError(`${name} must be an http(s) URL, not "${text}"`);
  if (production && url.protocol !== 'https:')
    throw new StartupError(`${name} must be an https URL in production (NODE_ENV=production)`);
  if (name === 'GATEWAY_LIVE_PUBLIC_URL' && url.protocol !== 'https:')
    throw new StartupError(`${name} must be an https URL: the live address serves HTTPS only`);
  return text.replace(/\/+$/, '');
}

/**
 * Refuses a live address without TLS, in every mode (developer's machine included): neither a
 * certificate of its own (GATEWAY_LIVE_TLS_CERT/KEY, else GATEWAY_TLS_CERT/KEY) nor a trusted proxy.
 */
export function checkLiveTransport(tls: boolean, trustProxy: boolean): void {
  if (!tls && !trustProxy)
    throw new StartupError(
      'the live address (GATEWAY_LIVE_PORT) needs TLS, even on a developer machine: set GATEWAY_TLS_CERT and ' +
        'GATEWAY_TLS_KEY (or GATEWAY_LIVE_TLS_CERT and GATEWAY_LIVE_TLS_KEY), or GATEWAY_TRUST_PROXY=1 behind a ' +
        'proxy that terminates TLS and sends X-Forwarded-Proto: https',
    );
}

/** Refuses production without TLS: neither a certificate of its own nor a trusted proxy. */
export function checkProductionTransport(production: boolean, tls: boolean, trustProxy: boolean): void {
  if (production && !tls && !trustProxy)
    throw new StartupError(
      'NODE_ENV=production needs TLS: set GATEWAY_TLS_CERT and GATEWAY_TLS_KEY (PEM files) to serve ' +
        'HTTPS, or GATEWAY_TRUST_PROXY=1 behind a proxy that terminates TLS and sends X-Forwarded-Proto: https',
    );
}

/**
 * What the answers tell of this build and node: `buildNumber`'s commit and the node part of
 * checkout ids. On a developer's machine, the commit and the host name as they are. In production
 * neither (issue 30: they told an attacker which version to look up and the machine's name):
 * GATEWAY_NODE_NAME when the operator sets one, else a name keyed from the host name; the commit
 * keyed too, so an answer still tells one build from another (and nodes sharing the data key
 * agree) without naming it. Keyed with a secret (`key`: the vault's subkeys), since a plain hash
 * of a published commit or a guessable host name is looked up as easily as the name itself.
 */
export function disclosedIdentity(input: {
  readonly production: boolean;
  readonly commit: string;
  /** The operator's node name (options.nodeName, GATEWAY_NODE_NAME); empty or unset: none. */
  readonly nodeName: string | undefined;
  readonly hostname: string;
  readonly key: (purpose: string) => Buffer;
}): { readonly commit: string; readonly nodeName: string } {
  const configured = input.nodeName?.trim() ? input.nodeName : undefined;
  if (!input.production) return { commit: input.commit, nodeName: configured ?? input.hostname };
  const keyed = (purpose: string, text: string) =>
    createHmac('sha256', input.key(purpose)).update(text).digest('hex');
  return {
    commit: keyed('build-number', input.commit).slice(0, 40),
    nodeName: configured ?? `node-${keyed('node-name', input.hostname).slice(0, 10)}`,
  };
}
