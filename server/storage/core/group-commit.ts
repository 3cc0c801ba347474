/**
 * Group commit: the writer behind `insertPayment`. Items are queued; a writer flushes everything
 * queued in ONE transaction, and each caller's promise resolves only after the transaction
 * holding its item has committed. One fsync (SQLite) or one commit (PostgreSQL) thus covers
 * every payment that arrived meanwhile. When a batch fails, its items are retried one by one, so
 * only an item that fails on its own is refused; the batches after it are unaffected.
 */
interface Pending<T> {
  readonly item: T;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

export interface GroupCommitOptions {
  /**
   * How many batches may be written at once (default 1). SQLite has one writer: one batch at a
   * time. PostgreSQL commits concurrent transactions on separate connections and flushes their
   * WAL together, so a batch need not wait for the previous one's commit round trip (and the
   * event-loop turns between its statements) before it starts.
   */
  readonly concurrency?: number;
}

/**
 * Queues items and writes them in batches: a flush starts when a writer is free (on the next
 * turn of the event loop, so that everything arriving in the current turn joins it) and takes
 * everything queued; items arriving while every writer is busy wait for the next flush, which
 * starts as soon as one has finished. No timers, no batch size to tune.
 */
export class GroupCommit<T> {
  #queue: Pending<T>[] = [];
  /** Writers running or scheduled for the next turn, and whether one is scheduled. */
  #running = 0;
  #scheduled = false;
  #idle: (() => void)[] = [];
  readonly #write: (items: readonly T[]) => void | Promise<void>;
  readonly #concurrency: number;

  constructor(write: (items: readonly T[]) => void | Promise<void>, options: GroupCommitOptions = {}) {
    this.#write = write;
    this.#concurrency = Math.max(1, Math.floor(options.concurrency ?? 1));
  }

  add(item: T): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.#queue.push({ item, resolve, reject });
      this.#schedule();
    });
  }

  /** Resolves once everything queued so far has been written (or has failed). */
  drained(): Promise<void> {
    if (this.#running === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }

  #schedule(): void {
    if (this.#scheduled || this.#running >= this.#concurrency) return;
    this.#scheduled = true;
    this.#running++;
    setImmediate(() => {
      this.#scheduled = false;
      void this.#run();
    });
  }

  /** One writer: flushes what is queued, again and again while items keep coming. */
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
    this.#running--;
    if (this.#running === 0) for (const resolve of this.#idle.splice(0)) resolve();
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
