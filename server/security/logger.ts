/**
 * Structured logging: one JSON object per line, `{time, level, msg, …fields}`, with every field
 * (and the message) passed through {@link redact} first, so no card number, security code,
 * password or token reaches the log whatever a caller hands in.
 */
import { redact, redactString } from './redact';

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

const RANK: Record<LogThreshold, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

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

const RESERVED = new Set(['time', 'level', 'msg']);

export function createLogger(options: LoggerOptions = {}): Logger {
  const env = options.env ?? process.env;
  const requested = options.level ?? env.LOG_LEVEL;
  const parsed = parseLogLevel(requested);
  const level: LogThreshold = parsed ?? 'info';
  const stream = options.stream ?? process.stdout;
  const now = options.now ?? (() => new Date());

  const make = (bindings: LogFields): Logger => {
    const enabled = (l: LogLevel) => RANK[l] >= RANK[level];
    const write = (l: LogLevel, msg: string, fields: LogFields | undefined) => {
      if (!enabled(l)) return;
      const entry: Record<string, unknown> = {
        time: now().toISOString(),
        level: l,
        msg: redactString(String(msg)),
      };
      for (const source of [bindings, fields]) {
        if (source === undefined) continue;
        const clean = redact(source);
        if (typeof clean !== 'object' || clean === null || Array.isArray(clean)) continue;
        for (const [k, v] of Object.entries(clean)) entry[RESERVED.has(k) ? `field.${k}` : k] = v;
      }
      let line: string;
      try {
        line = JSON.stringify(entry);
      } catch {
        line = JSON.stringify({
          time: entry.time,
          level: l,
          msg: entry.msg,
          logError: 'unserializable fields',
        });
      }
      try {
        stream.write(`${line}\n`);
      } catch {
        // A broken log stream must not take a payment down with it.
      }
    };
    return {
      level,
      enabled,
      debug: (msg, fields) => write('debug', msg, fields),
      info: (msg, fields) => write('info', msg, fields),
      warn: (msg, fields) => write('warn', msg, fields),
      error: (msg, fields) => write('error', msg, fields),
      child: (more) => make({ ...bindings, ...more }),
    };
  };

  const logger = make(options.bindings ?? {});
  if (requested !== undefined && requested.trim() !== '' && parsed === undefined)
    logger.warn('Unknown LOG_LEVEL, using info', { logLevel: requested });
  return logger;
}

/** The process logger: stdout, threshold from `LOG_LEVEL` (info by default). */
export const logger: Logger = createLogger();
