/**
 * Group commit: the writer behind `insertPayment`. Items are queued; one writer flushes
 * everything queued in ONE transaction as soon as the previous flush has finished, and each
 * caller's promise resolves only after the transaction holding its item has committed. One fsync
 * (SQLite) or one commit round trip (PostgreSQL) thus covers every payment that arrived
 * meanwhile. When a batch fails, its items are retried one by one, so only an item that fails on
 * its own is refused; the batches after it are unaffected.
 */
interface Pending<T> {
  readonly item: T;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

/**
 * Queues items and writes them in batches: a flush starts when the writer is idle (on the next
 * turn of the event loop, so that everything arriving in the current turn joins it) and takes
 * everything queued; items arriving while it runs wait for the next flush, which starts as soon
 * as this one has finished. No timers, no batch size to tune.
 */
export class GroupCommit<T> {
  #queue: Pending<T>[] = [];
  #busy = false;
  #idle: (() => void)[] = [];
  readonly #write: (items: readonly T[]) => void | Promise<void>;

  constructor(write: (items: readonly T[]) => void | Promise<void>) {
    this.#write = write;
  }

  add(item: T): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.#queue.push({ item, resolve, reject });
      if (!this.#busy) {
        this.#busy = true;
        setImmediate(() => void this.#run());
      }
    });
  }

  /** Resolves once everything queued so far has been written (or has failed). */
  drained(): Promise<void> {
    if (!this.#busy) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }

  async #run(): Promise<void> {
    while (this.#queue.length > 0) {
      const batch = this.#queue;
      this.#queue = [];
      try {
        await this.#write(batch.map((p) => p.item));
        for (const p of batch) p.resolve();
      } catch (error) {
        if (batch.length === 1) batch[0]!.reject(error);
        // One bad row must not fail the payments that merely shared its batch: write each
        // alone, so only the row that fails again is refused.
        else for (const p of batch) await this.#writeAlone(p);
      }
    }
    this.#busy = false;
    for (const resolve of this.#idle.splice(0)) resolve();
  }

  async #writeAlone(p: Pending<T>): Promise<void> {
    try {
      await this.#write([p.item]);
      p.resolve();
    } catch (error) {
      p.reject(error);
    }
  }
}
