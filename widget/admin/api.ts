/**
 * The admin API (docs/admin-api.md) as the dashboard calls it: same-origin JSON with the session's
 * cookie, the CSRF token on every state-changing request, and refusals as ApiError (status, the
 * envelope's description and parameterErrors naming each field).
 */

export const API = '/admin/v1';

export interface ParameterError {
  readonly name: string;
  readonly value: string | null;
  readonly message: string;
}

export interface Envelope {
  readonly result?: {
    readonly code?: string;
    readonly description?: string;
    /** Each faulty field of a 400, in the envelope's result. */
    readonly parameterErrors?: readonly ParameterError[];
  };
  readonly [field: string]: unknown;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly parameterErrors: readonly ParameterError[] = [],
    readonly body: Envelope = {},
  ) {
    super(message);
  }

  /** The message of the field `name`, if the API named it. */
  field(name: string): string | undefined {
    return this.parameterErrors.find((e) => e.name === name)?.message;
  }
}

let csrfToken: string | undefined;
const unauthorised = new Set<() => void>();

/** The session's CSRF token (from the sign-in answer or GET /session); undefined when signed out. */
export function setCsrfToken(token: string | undefined): void {
  csrfToken = token;
}

/** Called when the API answers 401 to a signed-in page: the session ended (idle or absolute expiry). */
export function onUnauthorised(listener: () => void): void {
  unauthorised.add(listener);
}

const CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export async function request<T = Envelope>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (CHANGING.has(method) && csrfToken !== undefined) headers['X-CSRF-Token'] = csrfToken;
  let response: Response;
  try {
    response = await fetch(`${API}${path}`, {
      method,
      headers,
      credentials: 'same-origin',
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  } catch {
    throw new ApiError(0, 'The gateway could not be reached. Check your connection and try again.');
  }
  let json: Envelope = {};
  try {
    json = (await response.json()) as Envelope;
  } catch {}
  if (!response.ok) {
    if (response.status === 401 && !path.startsWith('/session'))
      for (const listener of unauthorised) listener();
    throw new ApiError(
      response.status,
      json.result?.description ?? `The gateway answered ${response.status}`,
      json.result?.parameterErrors ?? [],
      json,
    );
  }
  return json as T;
}

export const get = <T = Envelope>(path: string) => request<T>('GET', path);
export const post = <T = Envelope>(path: string, body: unknown = {}) => request<T>('POST', path, body);
export const put = <T = Envelope>(path: string, body: unknown) => request<T>('PUT', path, body);
export const patch = <T = Envelope>(path: string, body: unknown) => request<T>('PATCH', path, body);
export const del = <T = Envelope>(path: string) => request<T>('DELETE', path);

/** A query string from the fields that have a value. */
export function query(fields: Readonly<Record<string, string | number | undefined | null>>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(fields))
    if (value !== undefined && value !== null && value !== '') params.set(name, String(value));
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

/** A path segment, encoded. */
export const seg = (value: string) => encodeURIComponent(value);
