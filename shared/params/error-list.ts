/**
 * The cap on listed parameterErrors. A body of thousands of bad parameters must not cost the
 * gateway (or the client) a list of thousands: an answer lists the first
 * {@link MAX_LISTED_PARAMETER_ERRORS} distinct faults, in the order found, and then one entry
 * `{name: '(body)', value: null, message: 'has N more parameter errors, not listed'}` counting the
 * rest. The list keeps the shape clients parse (`[{name, value, message}]`); the final entry names
 * no parameter of the request, as `(body)` does for the body's own faults.
 *
 * Validation collects into an {@link ErrorList}, which builds the entries it lists and only counts
 * the others: past the cap no value is masked, no entry allocated.
 */
import type { ParameterError } from './errors';

export const MAX_LISTED_PARAMETER_ERRORS = 50;

/** The entries that stand for faults not listed, with how many each stands for. */
const omittedBy = new WeakMap<ParameterError, number>();

function summary(count: number): ParameterError {
  const entry: ParameterError = {
    name: '(body)',
    value: null,
    message: `has ${count} more parameter error${count === 1 ? '' : 's'}, not listed`,
  };
  omittedBy.set(entry, count);
  return entry;
}

/**
 * Faults in the order found, the first per parameter name kept (later ones of a name are
 * dropped, as `dedupe` does); the first `max` listed, the rest counted.
 */
export class ErrorList {
  private readonly listed: ParameterError[] = [];
  private readonly names = new Set<string>();
  private omitted = 0;

  constructor(private readonly max: number = MAX_LISTED_PARAMETER_ERRORS) {}

  /** True once `max` entries are listed: further faults are only counted. */
  get full(): boolean {
    return this.listed.length >= this.max;
  }

  get size(): number {
    return this.listed.length + this.omitted;
  }

  /** Adds a fault; `value` is computed (masked) only when the fault is listed. */
  add(name: string, value: string | null | (() => string | null), message: string): void {
    if (this.names.has(name)) return;
    this.names.add(name);
    if (this.full) {
      this.omitted++;
      return;
    }
    this.listed.push({ name, value: typeof value === 'function' ? value() : value, message });
  }

  /** Adds finished entries (a summary among them adds its count). */
  addAll(errors: readonly ParameterError[]): void {
    for (const e of errors) {
      const count = omittedBy.get(e);
      if (count === undefined) this.add(e.name, e.value, e.message);
      else this.omitted += count;
    }
  }

  /** The listed faults, then the summary entry when some were not listed. */
  errors(): ParameterError[] {
    return this.omitted === 0 ? [...this.listed] : [...this.listed, summary(this.omitted)];
  }
}

/**
 * Any list of parameterErrors, capped: the first `max` distinct ones, then the summary entry.
 * Idempotent: a list capped before keeps its summary's count.
 */
export function capErrors(
  errors: readonly ParameterError[],
  max: number = MAX_LISTED_PARAMETER_ERRORS,
): ParameterError[] {
  if (errors.length <= max) return errors as ParameterError[];
  const list = new ErrorList(max);
  list.addAll(errors);
  return list.errors();
}

/**
 * How many faults a list's summary entry stands for (0 without one). The count is known by the
 * entry's identity, which a structured clone loses: the parse pool (server/http/parse-pool) sends
 * it beside the list and {@link withOmitted} restores it, so the list caps and merges as before.
 */
export function omittedOf(errors: readonly ParameterError[]): number {
  const last = errors[errors.length - 1];
  return last === undefined ? 0 : (omittedBy.get(last) ?? 0);
}

/** A list carried across a structured clone, its summary entry (the last) standing for `omitted` again. */
export function withOmitted(errors: ParameterError[], omitted: number): ParameterError[] {
  if (omitted === 0 || errors.length === 0) return errors;
  return [...errors.slice(0, -1), summary(omitted)];
}
