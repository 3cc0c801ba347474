/**
 * The admin API in tests: users made through server/backoffice/users/accounts.ts, sessions opened through
 * POST /admin/v1/session (the cookie and CSRF token kept), and JSON requests with a session or
 * the operator's token, through the app in process.
 */
import { createUser } from '../backoffice/users/accounts';
import type { AdminRole } from '../storage/admin-users/store';
import type { TestGateway } from './gateway';

export const ADMIN_TOKEN = 'admin-token-for-tests-0123456789abcdef';
export const PASSWORD = 'correct horse battery';

export interface AdminAnswer {
  readonly status: number;
  readonly headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: tests read answers field by field
  readonly body: any;
  readonly text: string;
}

type App = { request: (url: string, init: RequestInit) => Response | Promise<Response> };

export async function adminCall(
  app: App,
  method: string,
  path: string,
  options: { body?: unknown; cookie?: string; csrf?: string; token?: string; base?: string } = {},
): Promise<AdminAnswer> {
  const headers: Record<string, string> = {};
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (options.cookie !== undefined) headers.cookie = options.cookie;
  if (options.csrf !== undefined) headers['x-csrf-token'] = options.csrf;
  if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
  const res = await app.request(`${options.base ?? 'http://localhost'}${path}`, {
    method,
    headers,
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {}
  return { status: res.status, headers: res.headers, body, text };
}

/** A user (password PASSWORD unless given) in the gateway's store. */
export async function addUser(
  gw: TestGateway,
  username: string,
  role: AdminRole,
  merchantId?: string,
  password = PASSWORD,
) {
  const created = await createUser(
    gw.store,
    { now: () => new Date() },
    { username, role, merchantId, password },
  );
  if (created.kind !== 'created') throw new Error(JSON.stringify(created.errors));
  return created.user;
}

export interface Session {
  readonly cookie: string;
  readonly csrf: string;
  // biome-ignore lint/suspicious/noExplicitAny: the user as answered
  readonly user: any;
  /** A request with this session (and its CSRF token unless `csrf: false`). */
  call(method: string, path: string, body?: unknown, csrf?: boolean): Promise<AdminAnswer>;
}

/** Signs in through the API; throws unless 200. */
export async function signIn(
  app: App,
  username: string,
  password = PASSWORD,
  totp?: string,
): Promise<Session> {
  const res = await adminCall(app, 'POST', '/admin/v1/session', {
    body: { username, password, ...(totp === undefined ? {} : { totp }) },
  });
  if (res.status !== 200) throw new Error(`sign-in ${res.status}: ${res.text}`);
  const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0]!;
  const csrf = res.body.csrfToken as string;
  return {
    cookie,
    csrf,
    user: res.body.user,
    call: (method, path, body, withCsrf = true) =>
      adminCall(app, method, path, { body, cookie, ...(withCsrf ? { csrf } : {}) }),
  };
}
