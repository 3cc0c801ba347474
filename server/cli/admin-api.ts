/**
 * The CLI's way to the running gateway (commands that act on its live state, such as the test
 * clock): the admin API over HTTP, at --url (default http://127.0.0.1:$PORT, PORT 8080) with the
 * operator's token from GATEWAY_ADMIN_TOKEN. Failures become the CLI's exit code 1 with the
 * gateway's own description and parameter errors.
 */
import { failure, usageError } from './args';
import type { Output } from './commands';

export interface AdminApiContext {
  readonly output: Output;
  readonly json?: boolean;
  /** GATEWAY_ADMIN_TOKEN and PORT. */
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly fetch: typeof fetch;
}

/** The gateway's address: --url, else the test environment's port on loopback. */
export function adminUrl(url: string | undefined, env: AdminApiContext['env']): string {
  const base = url ?? `http://127.0.0.1:${env.PORT || '8080'}`;
  let parsed: URL;
  try {
    parsed = new URL(base);
  } catch {
    throw usageError(
      `--url must be the gateway's address, such as http://127.0.0.1:8080 (not ${JSON.stringify(base)})`,
    );
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw usageError('--url must be http or https');
  return parsed.href.replace(/\/$/, '');
}

interface Answer {
  readonly result?: {
    readonly code?: string;
    readonly description?: string;
    readonly parameterErrors?: readonly { readonly name: string; readonly message: string }[];
  };
  readonly [field: string]: unknown;
}

/** One admin API request; resolves with the JSON answer of a 2xx, throws the gateway's reason otherwise. */
export async function adminRequest(
  ctx: AdminApiContext,
  base: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<Answer> {
  const token = ctx.env.GATEWAY_ADMIN_TOKEN;
  if (token === undefined || token === '')
    throw failure('GATEWAY_ADMIN_TOKEN is not set: the admin API needs the operator’s token');
  let res: Response;
  try {
    res = await ctx.fetch(`${base}${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(10 * 60_000),
    });
  } catch (error) {
    const cause =
      error instanceof Error && error.cause instanceof Error ? error.cause.message : String(error);
    throw failure(`cannot reach the gateway at ${base}: ${cause}`);
  }
  const text = await res.text();
  let answer: Answer = {};
  try {
    answer = JSON.parse(text) as Answer;
  } catch {}
  if (res.ok) return answer;
  const errors = (answer.result?.parameterErrors ?? []).map((e) => `${e.name} ${e.message}`);
  const reason = answer.result?.description ?? text.slice(0, 200);
  throw failure(`the gateway answered HTTP ${res.status}: ${[reason, ...errors].join('; ')}`);
}

/**
 * The running gateway's clock, for a command on the store that must see its time (`settlement
 * run`): its test clock when one runs (`GET /admin/v1/clock`), kept moving with the wall clock's
 * seconds unless it is frozen; undefined for the wall clock, when the gateway runs on real time
 * (404), is not running (nothing answers: a test clock does not outlive its process), or cannot
 * be asked (no GATEWAY_ADMIN_TOKEN).
 */
export async function runningGatewayClock(
  ctx: AdminApiContext,
  base: string,
): Promise<{ now(): Date } | undefined> {
  const token = ctx.env.GATEWAY_ADMIN_TOKEN;
  if (token === undefined || token === '') return undefined;
  let res: Response;
  try {
    res = await ctx.fetch(`${base}/admin/v1/clock`, {
      headers: { Authorization: `Bearer ${token}` },
      signal: AbortSignal.timeout(10_000),
    });
  } catch {
    return undefined;
  }
  if (res.status === 404) return undefined;
  const answer = (await res.json().catch(() => ({}))) as { now?: unknown; frozen?: unknown };
  const at = typeof answer.now === 'string' ? new Date(answer.now) : undefined;
  if (!res.ok || at === undefined || Number.isNaN(at.getTime()))
    throw failure(`cannot read the running gateway’s clock at ${base}: HTTP ${res.status}`);
  if (answer.frozen === true) return { now: () => new Date(at.getTime()) };
  const offsetMs = at.getTime() - Date.now();
  return { now: () => new Date(Date.now() + offsetMs) };
}
