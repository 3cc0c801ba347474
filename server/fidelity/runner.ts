/**
 * Sends corpus entries to a gateway and checks its answers against their expectations. The
 * gateway is reached through `Wire` (the test gives Hono's in-process app.request), so this module
 * knows nothing of how the gateway was started.
 */
import type { Entry, Expectation, Field } from './entry';

export interface WireAnswer {
  readonly status: number;
  // biome-ignore lint/suspicious/noExplicitAny: answers are arbitrary JSON
  readonly body: any;
  /** The answer as sent, to search for what must not be in it. */
  readonly text: string;
}

export type Wire = (
  method: string,
  path: string,
  body: string | undefined,
  headers: Readonly<Record<string, string>>,
) => Promise<WireAnswer>;

/** The channel entries are sent to: its entityId and its merchant's access token. */
export interface ChannelCredentials {
  readonly entityId: string;
  /** What goes after `Bearer`: the base64 of `userId|password`. */
  readonly token: string;
}

export interface Outcome {
  readonly answer: WireAnswer;
  /** What differs from the expectation; empty when the gateway answered as expected. */
  readonly problems: readonly string[];
}

/** A token no gateway issued: well formed (`userId|secret` in base64), so only its check fails. */
const UNKNOWN_TOKEN = Buffer.from('8a8294174b7ecb28014b9699220015cc|unknownSecret1').toString('base64');

/** The time activemerchant's remote test puts into ids (`Time.now.to_i`), fixed per run. */
const RUN_TIME = String(Math.floor(Date.now() / 1000));

/** The remote tests' expiry year, `Date.today.year + 2`: always in the future. */
const EXPIRY_YEAR = String(new Date().getUTCFullYear() + 2);

/**
 * A runner over `entries` (the corpus and the priors it names). A prior is sent afresh for every
 * entry that needs it, so no two entries reference the same payment (a capture after a partial
 * capture would test the workflow, not the request).
 */
export function corpusRunner(wire: Wire, credentials: ChannelCredentials, entries: readonly Entry[]) {
  const byName = new Map(entries.map((e) => [e.name, e]));

  async function send(entry: Entry): Promise<WireAnswer> {
    const values = { ...placeholders(credentials), ...(await priorValues(entry)) };
    const headers: Record<string, string> = {};
    const auth = entry.setup?.auth ?? 'bearer';
    if (auth === 'bearer') headers.Authorization = `Bearer ${credentials.token}`;
    if (auth === 'wrong') headers.Authorization = `Bearer ${UNKNOWN_TOKEN}`;
    const body =
      entry.body === undefined
        ? undefined
        : encodeBody(
            entry.body.map(([name, value]) => [name, fill(value, values, entry.name)] as const),
            entry.encoding ?? 'form',
          );
    if (body !== undefined) headers['Content-Type'] = 'application/x-www-form-urlencoded';
    return wire(entry.method, fill(entry.path, values, entry.name), body, headers);
  }

  async function priorValues(entry: Entry): Promise<Record<string, string>> {
    const prior = entry.setup?.prior;
    if (prior === undefined) return {};
    const priorEntry = byName.get(prior);
    if (priorEntry === undefined) throw new Error(`no corpus entry or prior named "${prior}"`);
    const answer = await send(priorEntry);
    const id = answer.body?.id;
    if (typeof id !== 'string') {
      throw new Error(`prior "${prior}" of "${entry.name}" gave no id: ${summary(answer)}`);
    }
    const values: Record<string, string> = { id };
    values[idPlaceholderOf(priorEntry)] = id;
    if (typeof answer.body.registrationId === 'string') values.registrationId = answer.body.registrationId;
    return values;
  }

  /** Sends the entry (after its prior) and checks the answer. */
  async function run(entry: Entry): Promise<Outcome> {
    const answer = await send(entry);
    return { answer, problems: check(entry.expect, answer) };
  }

  return { run };
}

/** What the id of a prior's answer is: a registration's, a checkout's or a payment's. */
function idPlaceholderOf(entry: Entry): string {
  const path = entry.path.split('?')[0]!;
  if (/^\/v1\/registrations\/?$/.test(path)) return 'registrationId';
  if (/^\/v1\/checkouts\/?$/.test(path)) return 'checkoutId';
  return 'paymentId';
}

function placeholders(credentials: ChannelCredentials): Record<string, string> {
  const [userId = '', password = ''] = Buffer.from(credentials.token, 'base64').toString('utf8').split('|');
  return { entityId: credentials.entityId, userId, password, time: RUN_TIME, expiryYear: EXPIRY_YEAR };
}

/** `{name}` → its value; a placeholder without one is the corpus's mistake, not the gateway's. */
function fill(text: string, values: Readonly<Record<string, string>>, entryName: string): string {
  return text.replace(/\{([a-zA-Z]+)\}/g, (_match, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`"${entryName}": nothing fills {${name}} (is a prior missing?)`);
    return value;
  });
}

/** Ruby's CGI.escape: everything but letters, digits and `*-._` percent-encoded, a space as `+`. */
const cgiEscape = (value: string): string =>
  encodeURIComponent(value)
    .replace(/[!'()~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, '+');

export function encodeBody(fields: readonly Field[], encoding: NonNullable<Entry['encoding']>): string {
  if (encoding === 'raw') return fields.map(([name, value]) => `${name}=${value}`).join('&');
  if (encoding === 'raw-names') return fields.map(([name, value]) => `${name}=${cgiEscape(value)}`).join('&');
  const form = new URLSearchParams();
  for (const [name, value] of fields) form.append(name, value);
  return form.toString();
}

// biome-ignore lint/suspicious/noExplicitAny: a walk over arbitrary JSON
function at(body: any, path: string): unknown {
  // biome-ignore lint/suspicious/noExplicitAny: a walk over arbitrary JSON
  let node: any = body;
  for (const step of path.split('.')) {
    if (node === null || typeof node !== 'object') return undefined;
    node = node[step];
  }
  return node;
}

/** The paths of every leaf that is not a string (null, number, boolean). */
export function nonStringLeaves(node: unknown, path = ''): string[] {
  if (typeof node === 'string') return [];
  if (node !== null && typeof node === 'object') {
    return Object.entries(node).flatMap(([key, child]) =>
      nonStringLeaves(child, path === '' ? key : `${path}.${key}`),
    );
  }
  return [`${path} = ${JSON.stringify(node)}`];
}

/** The expectation's differences from the answer, each in words. */
export function check(expect: Expectation, answer: WireAnswer): string[] {
  const problems: string[] = [];
  const code = at(answer.body, 'result.code');
  if (answer.status !== expect.status) problems.push(`HTTP ${answer.status}, expected ${expect.status}`);
  if (expect.resultCode !== undefined && code !== expect.resultCode) {
    problems.push(`result.code ${String(code)}, expected ${expect.resultCode}`);
  }
  if (expect.resultCodePattern !== undefined && !new RegExp(expect.resultCodePattern).test(String(code))) {
    problems.push(`result.code ${String(code)}, expected /${expect.resultCodePattern}/`);
  }
  for (const path of expect.has ?? []) {
    const value = at(answer.body, path);
    if (value === undefined || value === null || value === '') problems.push(`${path} missing`);
  }
  for (const [path, wanted] of Object.entries(expect.equals ?? {})) {
    const value = at(answer.body, path);
    if (value !== wanted)
      problems.push(`${path} = ${JSON.stringify(value)}, expected ${JSON.stringify(wanted)}`);
  }
  for (const [path, pattern] of Object.entries(expect.matches ?? {})) {
    const value = at(answer.body, path);
    if (typeof value !== 'string' || !new RegExp(pattern).test(value)) {
      problems.push(`${path} = ${JSON.stringify(value)}, expected /${pattern}/`);
    }
  }
  if (expect.parameterErrors !== undefined) {
    const named = ((answer.body?.result?.parameterErrors ?? []) as { name: string }[])
      .map((e) => e.name)
      .sort();
    const wanted = [...expect.parameterErrors].sort();
    if (JSON.stringify(named) !== JSON.stringify(wanted)) {
      problems.push(`parameterErrors name ${JSON.stringify(named)}, expected ${JSON.stringify(wanted)}`);
    }
  }
  for (const secret of expect.omits ?? []) {
    if (answer.text.includes(secret)) problems.push(`the answer contains ${secret}`);
  }
  if (expect.strings === true) {
    for (const leaf of nonStringLeaves(answer.body)) problems.push(`not a string: ${leaf}`);
  }
  if (problems.length > 0) problems.push(`answer: ${summary(answer)}`);
  return problems;
}

/** The answer in one line: its code, description and parameterErrors (what a failure report needs). */
export function summary(answer: WireAnswer): string {
  const result = answer.body?.result;
  if (result === undefined) return `HTTP ${answer.status} (no result)`;
  const errors = (result.parameterErrors ?? []) as { name: string; message: string }[];
  const named = errors.map((e) => `${e.name}: ${e.message}`).join('; ');
  return `HTTP ${answer.status} ${result.code} "${result.description}"${named === '' ? '' : ` [${named}]`}`;
}
