/**
 * Graceful shutdown on SIGTERM and SIGINT (server/main.ts):
 *
 * 1. readyz answers 503 (draining), so a load balancer that still probes sends new work elsewhere;
 * 2. every listener stops accepting (server.close) and its idle keep-alive connections are closed,
 *    repeatedly, so a connection that finishes its request while draining is not left open;
 *    in-flight requests finish and are answered with `Connection: close` (a payment's answer
 *    waits for its group-commit batch, so every batch holding an answered payment is committed).
 *    Without that header a keep-alive client would send its next request on the connection the
 *    sweep is about to close, and see it reset: no different from a crash, for all it can tell;
 * 3. the gateway closes: the workers finish the poll in progress (each item they claimed is
 *    processed and recorded, which ends its claim; the webhook dispatcher abandons attempts still
 *    waiting for a receiver and gives their claims back, due at once) and stop, the open
 *    group-commit batch is flushed, the store is closed;
 * 4. the process exits 0.
 *
 * A hard deadline (GATEWAY_SHUTDOWN_TIMEOUT_MS, 10 s by default) ends it with exit code 1 and
 * every remaining connection closed: claims still held then are left to expire with their leases
 * (delivery stays at least once), and a request still running is cut, unanswered.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Logger } from '../security/logger';

export const DEFAULT_SHUTDOWN_TIMEOUT_MS = 10_000;
/** How often idle keep-alive connections are closed while draining. */
const IDLE_SWEEP_MS = 50;

/** A node server, or anything closed like one (the demo shop). */
type Listener = { close(done?: () => void): unknown } & Partial<
  Pick<Server, 'closeIdleConnections' | 'closeAllConnections' | 'on'>
>;

export interface ShutdownParts {
  /** The public, live, demo shop and metrics listeners (undefined: not started). */
  readonly servers: readonly (Listener | undefined)[];
  /** readyz's draining flag. */
  readonly drain: () => void;
  /** Stops the workers, flushes the group commit and closes the store (gateway.close). */
  readonly close: () => Promise<void>;
  readonly logger: Logger;
  readonly timeoutMs?: number;
  readonly exit?: (code: number) => void;
}

/**
 * The answers a listener has not finished, so that a shutdown can make each the last of its
 * connection; once `closing`, every answer is (a request already read on a kept-alive
 * connection as the listener closes).
 */
function answersInFlight(server: Listener): { closing(): void } {
  const open = new Set<ServerResponse>();
  let closing = false;
  const last = (res: ServerResponse) => {
    if (!res.headersSent) res.shouldKeepAlive = false;
  };
  server.on?.('request', (_req: IncomingMessage, res: ServerResponse) => {
    if (closing) return last(res);
    open.add(res);
    res.once('close', () => open.delete(res));
  });
  return {
    closing() {
      closing = true;
      for (const res of open) last(res);
      open.clear();
    },
  };
}

/** Closes one listener: resolves once its in-flight requests are answered and its connections closed. */
function closeListener(server: Listener, inFlight: { closing(): void } | undefined): Promise<void> {
  inFlight?.closing();
  return new Promise<void>((resolve) => {
    const sweep = setInterval(() => server.closeIdleConnections?.(), IDLE_SWEEP_MS);
    sweep.unref();
    server.close(() => {
      clearInterval(sweep);
      resolve();
    });
    server.closeIdleConnections?.();
  });
}

/** The shutdown procedure; the first call runs it, later ones (a second signal) wait for the same. */
export function gracefulShutdown(parts: ShutdownParts): (signal: string) => Promise<void> {
  const exit = parts.exit ?? ((code: number) => process.exit(code));
  const timeoutMs = parts.timeoutMs ?? DEFAULT_SHUTDOWN_TIMEOUT_MS;
  // tracked from the start: the answers in flight when the signal comes are the ones to mark
  const inFlight = new Map(parts.servers.flatMap((s) => (s === undefined ? [] : [[s, answersInFlight(s)]])));
  let running: Promise<void> | undefined;
  return (signal) => {
    running ??= (async () => {
      const started = Date.now();
      parts.logger.info('shutting down: no new connections, finishing requests in flight', { signal });
      const deadline = setTimeout(() => {
        parts.logger.error('shutdown deadline passed: closing what is left', { timeoutMs });
        for (const server of parts.servers) server?.closeAllConnections?.();
        exit(1);
      }, timeoutMs);
      deadline.unref();
      try {
        parts.drain();
        await Promise.all(
          parts.servers.flatMap((s) => (s === undefined ? [] : [closeListener(s, inFlight.get(s))])),
        );
        await parts.close();
        clearTimeout(deadline);
        parts.logger.info('shut down', { ms: Date.now() - started });
        exit(0);
      } catch (error) {
        clearTimeout(deadline);
        parts.logger.error('shutdown failed', { error });
        exit(1);
      }
    })();
    return running;
  };
}

/** GATEWAY_SHUTDOWN_TIMEOUT_MS, else the default. */
export function shutdownTimeout(env: Readonly<Record<string, string | undefined>>): number {
  const n = Number(env.GATEWAY_SHUTDOWN_TIMEOUT_MS);
  return Number.isFinite(n) && n > 0 ? n : DEFAULT_SHUTDOWN_TIMEOUT_MS;
}
