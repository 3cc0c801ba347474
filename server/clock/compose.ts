/**
 * The test clock's part of the composition root (server/gateway.ts): the clock every part of the
 * gateway reads, its refusals (production at once; a live channel once the store is open), and
 * the control the admin API moves it with, given the workers once they are built.
 */
import type { Clock } from '../../shared/engine/core/ports';
import { DEFAULT_CUTOFF_MS } from '../reporting/settlement-run/model';
import type { Logger } from '../security/logger';
import type { Poller } from '../workers/poller';
import type { DueKind, DueWorker } from './advance';
import {
  type ClockControl,
  type ClockControlDeps,
  clockControl,
  refuseInProduction,
  refuseWithLiveChannels,
} from './index';
import { type TestClock, type TestClockOptions, testClock, testClockSetting } from './test-clock';

/** startGateway's `testClock` option: true (running), or how (frozen, start); GATEWAY_TEST_CLOCK when absent. */
export type TestClockSetting = boolean | TestClockOptions;

/** The workers as startGateway builds them. */
type Workers = Readonly<Record<'pending' | 'notifier' | 'scheduler' | 'webhooks' | 'settlement', Poller>>;
/** Each worker's options as startGateway has them: `autoStart: false` means it does not poll on its own. */
type WorkerOptions = Partial<
  Record<'pending' | 'notifier' | 'scheduler' | 'webhooks' | 'settlement', { readonly autoStart?: boolean }>
>;

export interface GatewayTestClock {
  readonly clock: TestClock;
  /** Refuses a store with a live channel, and closes it then; says in the log that the clock is a test clock. */
  check(store: ClockControlDeps['store'] & { close(): Promise<void> }, logger: Logger): Promise<void>;
  /** The admin API's control over it; the settlement run's cut-off by default (02:00 UTC). */
  control(store: ClockControlDeps['store'], logger: Logger, settlementCutoffMs?: number): ClockControl;
  /** The workers a move runs, and which of them poll on their own. */
  attach(workers: Workers, options: WorkerOptions): void;
}

/** The test clock the gateway runs with, or undefined; in production it refuses to start (StartupError). */
export function gatewayTestClock(
  setting: TestClockSetting | undefined,
  env: Readonly<Record<string, string | undefined>>,
  production: boolean,
  base: Clock,
): GatewayTestClock | undefined {
  const options =
    setting === undefined ? testClockSetting(env) : setting === true ? {} : setting || undefined;
  if (options === undefined) return undefined;
  refuseInProduction(production);
  const clock = testClock(base, options);
  let workers: DueWorker[] = [];
  return {
    clock,
    async check(store, logger) {
      try {
        await refuseWithLiveChannels(store);
      } catch (error) {
        await store.close();
        throw error;
      }
      logger.warn('test clock: the gateway’s time moves through POST /admin/v1/clock (GATEWAY_TEST_CLOCK)', {
        now: clock.now().toISOString(),
        frozen: clock.frozen,
      });
    },
    control: (store, logger, settlementCutoffMs) =>
      clockControl({
        clock,
        store,
        workers: () => workers,
        settlementCutoffMs: settlementCutoffMs ?? DEFAULT_CUTOFF_MS,
        onError: (kind, error) => logger.error('test clock: a worker failed', { kind, error }),
      }),
    attach(built, opts) {
      const worker = (kind: DueKind, name: keyof Workers): DueWorker => ({
        kind,
        poller: built[name],
        polling: opts[name]?.autoStart !== false,
      });
      workers = [
        worker('pendingPayments', 'pending'),
        worker('shopperResultUrl', 'notifier'),
        worker('schedules', 'scheduler'),
        worker('webhooks', 'webhooks'),
        worker('settlement', 'settlement'),
      ];
    },
  };
}
