/**
 * The circuit breaker of routed connectors, on the gateway's clock (each order's `now`): a
 * connector that fails FAILURES times (known technical failures: nothing reached it) within
 * WINDOW_MS is skipped for COOL_DOWN_MS ("open"), then tried again ("half-open"): one success
 * closes it, one more failure opens it for another cool-down. One breaker per gateway; its states
 * are read by the metric (server/metrics/connector-state.ts).
 */

export const FAILURES = 3;
export const WINDOW_MS = 60_000;
export const COOL_DOWN_MS = 30_000;

export type CircuitState = 'closed' | 'open' | 'half-open';

export interface ConnectorState {
  readonly kind: string;
  /** The channel (entityId) whose route it is. */
  readonly channel: string;
  readonly route: number;
  readonly state: CircuitState;
}

interface Circuit {
  readonly kind: string;
  failures: number[];
  openUntil?: number;
}

export interface Breaker {
  /** Whether the route may be tried at `now` (closed, or its cool-down over). */
  admits(channel: string, route: number, kind: string, now: Date): boolean;
  failed(channel: string, route: number, kind: string, now: Date): void;
  succeeded(channel: string, route: number, kind: string): void;
  /** Every route's state at `now` (read at each scrape). */
  states(now: Date): ConnectorState[];
}

export function circuitBreaker(): Breaker {
  const circuits = new Map<string, Circuit>();
  const keyOf = (channel: string, route: number) => `${channel}#${route}`;
  const circuit = (channel: string, route: number, kind: string): Circuit => {
    const key = keyOf(channel, route);
    let found = circuits.get(key);
    if (found === undefined || found.kind !== kind) {
      found = { kind, failures: [] };
      circuits.set(key, found);
    }
    return found;
  };
  const stateOf = (c: Circuit, at: number): CircuitState =>
    c.openUntil === undefined ? 'closed' : at < c.openUntil ? 'open' : 'half-open';

  return {
    admits: (channel, route, kind, now) => stateOf(circuit(channel, route, kind), now.getTime()) !== 'open',
    failed(channel, route, kind, now) {
      const c = circuit(channel, route, kind);
      const at = now.getTime();
      // tried again after its cool-down and failed again: straight back to open
      if (stateOf(c, at) === 'half-open') {
        c.openUntil = at + COOL_DOWN_MS;
        return;
      }
      c.failures = [...c.failures.filter((t) => at - t < WINDOW_MS), at];
      if (c.failures.length >= FAILURES) {
        c.openUntil = at + COOL_DOWN_MS;
        c.failures = [];
      }
    },
    succeeded(channel, route, kind) {
      const c = circuit(channel, route, kind);
      c.failures = [];
      delete c.openUntil;
    },
    states: (now) =>
      [...circuits].map(([key, c]) => {
        const [channel = '', route = '0'] = key.split('#');
        return { kind: c.kind, channel, route: Number(route), state: stateOf(c, now.getTime()) };
      }),
  };
}
