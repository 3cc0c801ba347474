/**
 * The test clock as the operator moves it (GATEWAY_TEST_CLOCK=on; the admin API's
 * `/admin/v1/clock` and `gateway clock`): refused in production and while a live channel exists
 * (a live payment must never see a moved clock), moves one at a time, never backwards.
 */
import type { ChannelStore, MerchantDirectory } from '../../shared/engine/core/ports';
import { StartupError } from '../mode';
import type { DueWorkStore } from '../storage/due/store';
import { type AdvanceDeps, advanceTo, type DueWorker, type Ran } from './advance';
import type { TestClock } from './test-clock';

export type { DueKind, DueWorker, Ran } from './advance';
export { parseDuration, parseInstant, type TestClock, testClock, testClockSetting } from './test-clock';

export type MoveOutcome =
  | { readonly kind: 'moved'; readonly now: Date; readonly ran: Ran }
  | { readonly kind: 'backwards'; readonly now: Date }
  | { readonly kind: 'live-channel' };

export interface ClockControl {
  readonly clock: TestClock;
  /** Moves the clock to `target`, running everything that became due, in order. */
  moveTo(target: Date): Promise<MoveOutcome>;
  /** Moves the clock forward by `ms`. */
  advance(ms: number): Promise<MoveOutcome>;
}

export interface ClockControlDeps {
  readonly clock: TestClock;
  readonly store: DueWorkStore &
    Pick<MerchantDirectory, 'listMerchants'> &
    Pick<ChannelStore, 'listChannels'>;
  /** The workers, known once they are built (after the apps). */
  readonly workers: () => readonly DueWorker[];
  readonly settlementCutoffMs: number;
  readonly onError: AdvanceDeps['onError'];
}

/** Whether any merchant has a live channel. */
export async function anyLiveChannel(
  store: Pick<MerchantDirectory, 'listMerchants'> & Pick<ChannelStore, 'listChannels'>,
): Promise<boolean> {
  for (const merchant of await store.listMerchants())
    if ((await store.listChannels(merchant.id)).some((c) => c.mode === 'LIVE')) return true;
  return false;
}

/** The test clock is refused in production mode, before anything is opened. */
export function refuseInProduction(production: boolean): void {
  if (production)
    throw new StartupError('GATEWAY_TEST_CLOCK is refused in production mode (NODE_ENV=production)');
}

/** The test clock is refused while a live channel exists: live payments must not see a moved clock. */
export async function refuseWithLiveChannels(store: ClockControlDeps['store']): Promise<void> {
  if (await anyLiveChannel(store))
    throw new StartupError(
      'GATEWAY_TEST_CLOCK is refused: a live channel exists, and live payments must not see a moved clock',
    );
}

export function clockControl(deps: ClockControlDeps): ClockControl {
  const { clock } = deps;
  // One move at a time: a second waits for the first, then starts from where it ended.
  let last: Promise<unknown> = Promise.resolve();
  const serial = <T>(task: () => Promise<T>): Promise<T> => {
    const run = last.then(task, task);
    last = run.catch(() => {});
    return run;
  };

  const move = (target: () => Date) =>
    serial(async (): Promise<MoveOutcome> => {
      if (await anyLiveChannel(deps.store)) return { kind: 'live-channel' };
      const now = clock.now();
      const to = target();
      if (to.getTime() < now.getTime()) return { kind: 'backwards', now };
      const ran = await advanceTo(
        {
          clock,
          due: deps.store,
          workers: deps.workers(),
          settlementCutoffMs: deps.settlementCutoffMs,
          onError: deps.onError,
        },
        to,
      );
      return { kind: 'moved', now: clock.now(), ran };
    });

  return {
    clock,
    moveTo: (target) => move(() => target),
    advance: (ms) => move(() => new Date(clock.now().getTime() + ms)),
  };
}
