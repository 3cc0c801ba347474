/**
 * The recent API requests' recorder: the access log's facts of each merchant API request, kept
 * off the request's path. `record` only pushes onto a bounded queue (no await, no I/O); a flush
 * a moment later writes what is queued in one transaction (storage/api-requests). A queue that
 * is full (the store slower than the traffic) drops its oldest entry and counts it (`dropped`,
 * the metric gateway_api_requests_dropped_total): the payment path never waits for this log.
 */
import type { ApiRequestRecord, ApiRequestStore } from '../../storage/api-requests/store';

export interface RequestRecorderOptions {
  /** Entries waiting at most; beyond it the oldest is dropped. */
  readonly capacity?: number;
  /** Entries written per transaction at most. */
  readonly batch?: number;
  /** How long the first entry of a batch waits for others, in milliseconds. */
  readonly delayMs?: number;
  /** Told of each entry dropped because the queue was full. */
  readonly dropped?: () => void;
  /** Told when a batch could not be written (its entries are lost: this is a log, not a ledger). */
  readonly failed?: (error: unknown) => void;
}

export interface RequestRecorder {
  record(entry: ApiRequestRecord): void;
  /** Writes everything queued (shutdown, tests). */
  drain(): Promise<void>;
}

export function requestRecorder(
  store: Pick<ApiRequestStore, 'insertApiRequests'>,
  options: RequestRecorderOptions = {},
): RequestRecorder {
  const capacity = options.capacity ?? 10_000;
  const batch = options.batch ?? 500;
  const delayMs = options.delayMs ?? 50;
  let queue: ApiRequestRecord[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  let writing: Promise<void> = Promise.resolve();

  const flush = (): Promise<void> => {
    timer = undefined;
    writing = writing.then(async () => {
      while (queue.length > 0) {
        const taken = queue.slice(0, batch);
        queue = queue.slice(taken.length);
        try {
          await store.insertApiRequests(taken);
        } catch (error) {
          options.failed?.(error);
        }
      }
    });
    return writing;
  };

  return {
    record(entry) {
      if (queue.length >= capacity) {
        queue.shift();
        options.dropped?.();
      }
      queue.push(entry);
      if (timer === undefined) {
        timer = setTimeout(() => void flush(), delayMs);
        timer.unref?.();
      }
    },
    async drain() {
      if (timer !== undefined) clearTimeout(timer);
      await flush();
    },
  };
}
