/**
 * How a back-office action fails, whichever face called it: `invalid` (the fields named, as the
 * admin API's parameterErrors), `not-found` (the merchant, channel, token or user named does not
 * exist), `refused` (well formed, but not allowed as asked). Procedures throw a BackofficeError;
 * each face renders it its own way (the admin API: 400 with parameterErrors or 404; the CLI: exit
 * code 2 or 1, the fields in its --json error).
 */
import type { z } from 'zod';

/** One field's problem: its name (dotted for nested fields), its value as shown, why. */
export interface FieldError {
  readonly name: string;
  readonly value: string | null;
  readonly message: string;
}

export type FailureKind = 'invalid' | 'not-found' | 'refused';

export class BackofficeError extends Error {
  constructor(
    readonly kind: FailureKind,
    message: string,
    /** invalid: the fields; refused: the field it is about, when there is one. */
    readonly errors: readonly FieldError[] = [],
    /** not-found: what was not found (`merchant`, `channel`, `token`, `user`). */
    readonly what?: string,
  ) {
    super(message);
    this.name = 'BackofficeError';
  }
}

export const invalid = (errors: readonly FieldError[]): BackofficeError =>
  new BackofficeError('invalid', errors.map((e) => `${e.name} ${e.message}`).join('; '), errors);

export const notFound = (what: string, id: string): BackofficeError =>
  new BackofficeError('not-found', `unknown ${what} ${id}`, [], what);

export const refused = (message: string, errors: readonly FieldError[] = []): BackofficeError =>
  new BackofficeError('refused', message, errors);

/** A value as an error shows it: text as given, anything else as JSON, absent as null. */
export const shown = (value: unknown): string | null =>
  value === undefined || value === null ? null : typeof value === 'string' ? value : JSON.stringify(value);

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let at = input;
  for (const key of path)
    at = at !== null && typeof at === 'object' ? (at as Record<PropertyKey, unknown>)[key] : undefined;
  return at;
}

/** A zod schema's verdict on an input: the parsed value, or the errors naming each field. */
export function checked<T>(
  schema: z.ZodType<T>,
  input: unknown,
): { readonly ok: true; readonly value: T } | { readonly ok: false; readonly errors: FieldError[] } {
  const result = schema.safeParse(input);
  if (result.success) return { ok: true, value: result.data };
  const seen = new Set<string>();
  const errors: FieldError[] = [];
  for (const issue of result.error.issues) {
    if (issue.code === 'unrecognized_keys') {
      // a field the input may not have: each named, as every other field
      for (const key of issue.keys) {
        const path = [...issue.path, key];
        errors.push({
          name: path.map(String).join('.'),
          value: shown(valueAt(input, path)),
          message: issue.message,
        });
      }
      continue;
    }
    const name = issue.path.map(String).join('.');
    // one error per field: the first rule it breaks
    if (seen.has(name)) continue;
    seen.add(name);
    errors.push({ name, value: shown(valueAt(input, issue.path)), message: issue.message });
  }
  return { ok: false, errors };
}

/** The parsed value, or `invalid` naming each field. */
export function parsed<T>(schema: z.ZodType<T>, input: unknown): T {
  const verdict = checked(schema, input);
  if (verdict.ok) return verdict.value;
  throw invalid(verdict.errors);
}
