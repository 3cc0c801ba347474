/**
 * The one shape of failure in the engine. Every operation and step answers a union on `kind`: its
 * own kinds of success (`payment`, `checkout`, …; a step handing a value on to the next answers
 * `Ok`, `{ kind: 'ok', …the value's fields }`), and one of these when it goes no further:
 *
 * - `Invalid`: what the request sent cannot be decided; every fault at once, answered HTTP 400
 *   with the family's invalid-parameter code and the faults as `parameterErrors`.
 * - `Refused`: the request is well formed and the family answers it with a result code of its own
 *   (HTTP 400 unless the route's family answer says otherwise); nothing was decided, though an
 *   operation may record a step's refusal as a refused payment (an unknown brand, 600.200.100).
 * - `NotFound`: the id names nothing the caller may see.
 *
 * A failure that a step answers is passed on as it is (`if (x.kind === 'invalid') return x`), so
 * an operation reads the same whichever step refused. Thrown errors are only for bugs and
 * infrastructure faults (a store that cannot write, a stored value the gateway wrote and cannot
 * read back, a channel's stored rules that no longer hold): never for anything a request sent.
 */
import type { ParameterError } from '../../params/errors';

export interface Invalid {
  readonly kind: 'invalid';
  readonly errors: ParameterError[];
}

export interface Refused {
  readonly kind: 'refused';
  /** The family's result code. */
  readonly code: string;
  /** Its description where the catalogue's is not the one answered. */
  readonly description?: string;
}

export interface NotFound {
  readonly kind: 'not-found';
}

export type Failure = Invalid | Refused | NotFound;

/** A step's value handed on: its fields beside `kind: 'ok'`. */
export type Ok<T extends object = object> = { readonly kind: 'ok' } & Readonly<T>;

/** What a step that reads or checks the request answers: its value, or every fault at once. */
export type Checked<T extends object = object> = Ok<T> | Invalid;

export const invalid = (errors: ParameterError[]): Invalid => ({ kind: 'invalid', errors });

export const refused = (code: string, description?: string): Refused =>
  description === undefined ? { kind: 'refused', code } : { kind: 'refused', code, description };

export const NOT_FOUND: NotFound = { kind: 'not-found' };

export const ok = <T extends object>(value: T): Ok<T> => ({ kind: 'ok', ...value });

/** A check with nothing to hand on: passed, or every fault it found. */
export const checked = (errors: ParameterError[]): Checked => (errors.length === 0 ? OK : invalid(errors));

const OK: Ok = { kind: 'ok' };
