/**
 * Structured logging on pino: one JSON object per line, `{time, level, msg, …fields}`. The
 * scrubbing of server/security/redact.ts is pino's own configuration, so no card number, IBAN,
 * security code, password or token reaches the log whatever a caller hands in:
 * - `formatters.log` and `formatters.bindings` pass every field and every child binding through
 *   {@link redact} (names, PAN-looking digit runs and IBANs in any string, errors and their causes);
 * - the `msg` serializer passes the message through {@link redactString};
 * - `redact` paths censor the credential fields by name once more, after the serializers.
 *
 * The interface is the gateway's (message first, fields second), not pino's, so callers never
 * depend on the library.
 */
import pino from 'pino';
import { MASK, redact, redactString } from './redact';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export type LogThreshold = LogLevel | 'silent';
export type LogFields = Readonly<Record<string, unknown>>;

/** Where lines go: `process.stdout` by default, anything with `write(string)` in tests. */
export interface LogStream {
  write(chunk: string): unknown;
}

export interface Logger {
  readonly level: LogThreshold;
  enabled(level: LogLevel): boolean;
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
  /** A logger that adds these fields to every entry (request id, merchant …). */
  child(bindings: LogFields): Logger;
}

export interface LoggerOptions {
  /** Threshold; read from `LOG_LEVEL` in `env` when not given. */
  readonly level?: string;
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly stream?: LogStream;
  readonly now?: () => Date;
  /** Fields on every entry. */
  readonly bindings?: LogFields;
}

const ALIASES: Readonly<Record<string, LogThreshold>> = {
  trace: 'debug',
  debug: 'debug',
  info: 'info',
  warn: 'warn',
  warning: 'warn',
  error: 'error',
  fatal: 'error',
  silent: 'silent',
  off: 'silent',
  none: 'silent',
};

/** The threshold named by a `LOG_LEVEL` value (any case); undefined when it names none. */
export function parseLogLevel(text: string | undefined): LogThreshold | undefined {
  if (text === undefined) return undefined;
  return ALIASES[text.trim().toLowerCase()];
}

/** Keys pino writes itself: a field of that name is kept as `field.<name>`. */
const RESERVED = new Set(['time', 'level', 'msg']);

/** Credential fields censored by name after the serializers too (pino's redact paths). */
const CREDENTIAL_PATHS = [
  'authorization',
  'password',
  'cvv',
  'token',
  '*.authorization',
  '*.password',
  '*.cvv',
  '*.token',
  'headers["proxy-authorization"]',
  'headers.cookie',
];

/** A line's fields, redacted and with pino's own keys moved aside; never throws. */
function scrubbed(fields: Record<string, unknown>): Record<string, unknown> {
  let clean: unknown;
  try {
    clean = redact(fields);
  } catch {
    return { logError: 'unserializable fields' };
  }
  const out: Record<string, unknown> = {};
  if (typeof clean !== 'object' || clean === null || Array.isArray(clean)) return out;
  for (const [k, v] of Object.entries(clean)) out[RESERVED.has(k) ? `field.${k}` : k] = v;
  return out;
}

/** A stream whose failures stay with it: a broken log must not take a payment down. */
function guarded(stream: LogStream): LogStream {
  return {
    write(chunk: string) {
      try {
        stream.write(chunk);
      } catch {}
      return true;
    },
  };
}

function wrap(p: pino.Logger, level: LogThreshold): Logger {
  const at =
    (l: LogLevel) =>
    (msg: string, fields?: LogFields): void => {
      if (p.isLevelEnabled(l)) p[l](fields ?? {}, msg);
    };
  return {
    level,
    enabled: (l) => p.isLevelEnabled(l),
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    child: (bindings) => wrap(p.child(bindings), level),
  };
}

export function createLogger(options: LoggerOptions = {}): Logger {
  const env = options.env ?? process.env;
  const requested = options.level ?? env.LOG_LEVEL;
  const parsed = parseLogLevel(requested);
  const level: LogThreshold = parsed ?? 'info';
  const now = options.now ?? (() => new Date());
  const p = pino(
    {
      level,
      base: null,
      messageKey: 'msg',
      timestamp: () => `,"time":"${now().toISOString()}"`,
      formatters: {
        level: (label) => ({ level: label }),
        bindings: scrubbed,
        log: scrubbed,
      },
      serializers: {
        msg: (msg: unknown) => redactString(String(msg)),
        // errors are plain objects already (formatters.log): pino's own would fold causes into the message
        err: (err: unknown) => err,
      },
      redact: {
        paths: CREDENTIAL_PATHS,
        censor: (value: unknown) => (value === '' || value === null || value === undefined ? value : MASK),
      },
    },
    guarded(options.stream ?? process.stdout) as pino.DestinationStream,
  );
  const bound = options.bindings === undefined ? p : p.child(options.bindings);
  const logger = wrap(bound, level);
  if (requested !== undefined && requested.trim() !== '' && parsed === undefined)
    logger.warn('Unknown LOG_LEVEL, using info', { logLevel: requested });
  return logger;
}

/** The process logger: stdout, threshold from `LOG_LEVEL` (info by default). */
export const logger: Logger = createLogger();
