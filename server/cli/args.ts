/**
 * Argument parsing and validation for the operator CLI. Two kinds of error: a usage error (bad
 * flag, malformed id or name; exit code 2) and a failure (unknown merchant, store unavailable;
 * exit code 1).
 */
import { type ParseArgsOptionsConfig, parseArgs } from 'node:util';
import type { ChannelMode } from '../../shared/engine/core/model';
import { BackofficeError, type FieldError } from '../backoffice/errors';

export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: 1 | 2,
    /** The fields a back-office procedure named (in the --json error, as the admin API's). */
    readonly parameterErrors: readonly FieldError[] = [],
  ) {
    super(message);
    this.name = 'CliError';
  }
}

/** A mistake in how the command was called: exit code 2. */
export const usageError = (message: string): CliError => new CliError(message, 2);
/** A well-formed command that cannot be carried out: exit code 1. */
export const failure = (message: string): CliError => new CliError(message, 1);

/** A value for an error message: quoted, shortened, control characters escaped. */
export function quote(value: string): string {
  const short = value.length > 40 ? `${value.slice(0, 40)}…` : value;
  return JSON.stringify(short);
}

const ID = /^[0-9a-f]{32}$/;

export const isId = (value: string): boolean => ID.test(value);

/** Merchant, channel (entityId) and token ids: 32 lowercase hex characters. */
export function checkId(value: string, what: string): string {
  if (!isId(value)) throw usageError(`${what} must be 32 lowercase hex characters, got ${quote(value)}`);
  return value;
}

/** How a command names a procedure's fields: its flags (`name` → `--name`); others as `field:`. */
export type FieldFlags = Readonly<Record<string, string>>;

/**
 * A back-office failure as the CLI says it: invalid → a usage error (exit code 2) naming each
 * field by its flag, not found or refused → a failure (exit code 1). Anything else unchanged.
 */
export function cliError(error: unknown, flags: FieldFlags = {}): unknown {
  if (!(error instanceof BackofficeError)) return error;
  if (error.kind !== 'invalid') return new CliError(error.message, 1, error.errors);
  const said = error.errors.map((e) => {
    const flag = flags[e.name];
    return flag === undefined ? `${e.name}: ${e.message}` : `${flag} ${e.message}`;
  });
  return new CliError(said.join('; '), 2, error.errors);
}

/** Runs a procedure (or a parse), its back-office failures said the CLI's way (cliError). */
export function translated<T>(work: () => T, flags: FieldFlags = {}): T {
  try {
    const result = work();
    if (result instanceof Promise)
      return result.catch((error: unknown) => {
        throw cliError(error, flags);
      }) as T;
    return result;
  } catch (error) {
    throw cliError(error, flags);
  }
}

export const MAX_THROTTLE = 1_000_000;

/** Requests per minute: a whole number from 1 to 1,000,000. */
export function checkThrottle(value: number): number {
  if (!Number.isSafeInteger(value) || value < 1 || value > MAX_THROTTLE)
    throw usageError(`throttle must be a whole number of requests per minute from 1 to ${MAX_THROTTLE}`);
  return value;
}

/** `--throttle N` as a number (`default` only where `allowDefault`). */
export function parseThrottle(value: string, allowDefault: false): number;
export function parseThrottle(value: string, allowDefault: true): number | 'default';
export function parseThrottle(value: string, allowDefault: boolean): number | 'default' {
  if (allowDefault && value === 'default') return 'default';
  if (!/^[0-9]{1,16}$/.test(value))
    throw usageError(
      `--throttle must be a number of requests per minute${allowDefault ? ' or "default"' : ''}, got ${quote(value)}`,
    );
  return checkThrottle(Number(value));
}

/** `on` / `off` as a boolean. */
export function parseSwitch(value: string, flag: string): boolean {
  if (value === 'on') return true;
  if (value === 'off') return false;
  throw usageError(`${flag} must be "on" or "off", got ${quote(value)}`);
}

export function parseMode(value: string): ChannelMode {
  const upper = value.toUpperCase();
  if (upper === 'TEST' || upper === 'LIVE') return upper;
  throw usageError(`--mode must be TEST or LIVE, got ${quote(value)}`);
}

export interface OptionSpec {
  readonly type: 'string' | 'boolean';
  readonly multiple?: boolean;
  readonly short?: string;
}

export type OptionValue = string | boolean | (string | boolean)[] | undefined;

export interface Parsed {
  readonly values: Readonly<Record<string, OptionValue>>;
  readonly positionals: readonly string[];
}

/**
 * Flags and positionals, strictly: unknown options, missing values and an option given twice
 * (unless it may repeat) are usage errors.
 */
export function parseFlags(argv: readonly string[], options: Readonly<Record<string, OptionSpec>>): Parsed {
  let result: {
    values: Record<string, OptionValue>;
    positionals: string[];
    tokens?: readonly { kind: string; name?: string }[];
  };
  try {
    result = parseArgs({
      args: [...argv],
      options: options as ParseArgsOptionsConfig,
      strict: true,
      allowPositionals: true,
      tokens: true,
    });
  } catch (error) {
    throw usageError(parseErrorMessage(error));
  }
  const seen = new Set<string>();
  for (const token of result.tokens ?? []) {
    if (token.kind !== 'option' || token.name === undefined || options[token.name]?.multiple === true)
      continue;
    if (seen.has(token.name)) throw usageError(`--${token.name} given more than once`);
    seen.add(token.name);
  }
  return { values: result.values, positionals: result.positionals };
}

function parseErrorMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown } | null)?.code;
  const option = /'([^']+)'/.exec(message)?.[1];
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && option !== undefined) return `unknown option ${option}`;
  if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') return message;
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    if (/argument missing/.test(message) && option !== undefined)
      return `${option.replace(/ <value>$/, '')} needs a value`;
    if (/does not take an argument/.test(message) && option !== undefined)
      return `${option} does not take a value`;
    if (/ambiguous/.test(message) && option !== undefined)
      return `${option} needs a value (a value starting with "-" must be given as ${option}=VALUE)`;
  }
  return message;
}

export function stringFlag(parsed: Parsed, name: string): string | undefined {
  const value = parsed.values[name];
  return typeof value === 'string' ? value : undefined;
}

export function requiredFlag(parsed: Parsed, name: string, placeholder: string): string {
  const value = stringFlag(parsed, name);
  if (value === undefined) throw usageError(`--${name} ${placeholder} is required`);
  return value;
}

export function listFlag(parsed: Parsed, name: string): string[] {
  const value = parsed.values[name];
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

export function booleanFlag(parsed: Parsed, name: string): boolean {
  return parsed.values[name] === true;
}
