/**
 * SQLite's WAL checkpoints on a thread of their own.
 *
 * In WAL mode a commit appends pages to `gateway.db-wal`; a checkpoint copies them back into the
 * database file and syncs it, so that the WAL can start over. By default SQLite runs that copy
 * inside whichever commit makes the WAL cross 1,000 pages: on the event loop, in the middle of a
 * batch of payments whose answers wait for it (under load about ten times a second, one of the
 * slowest steps of the batches it falls in: in the tail of the latency).
 *
 * Here a worker thread with its own connection runs PASSIVE checkpoints, which wait for nobody
 * and block nobody: writers go on appending while it copies. It wakes when told that a batch
 * committed (a counter in shared memory, no message), lets a few more commits gather, and copies
 * what is there; between commits it sleeps without a timer (it looks once a second for what other
 * writes left). It starts with the first batch of payments and stops when the gateway has gone
 * quiet (the idle step, or a minute without a batch), so an idle gateway holds no thread. Once it has copied everything, the next
 * write starts the WAL over. While the thread runs, the main connection keeps an automatic
 * checkpoint as a backstop (`BACKSTOP_PAGES`), should the thread ever fall behind; it then finds
 * most pages already copied.
 *
 * Durability is unchanged: a commit is durable when its WAL frames are synced, before and after.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** The main connection's automatic checkpoint while this thread runs. */
export const BACKSTOP_PAGES = 4000;
/** And while it does not (SQLite's default): before the first batch of payments, once idle. */
export const INLINE_PAGES = 1000;
/** How long the thread lets commits gather after the first one it is told of, in ms. */
const GATHER_MS = 20;
/** How often a waiting thread looks anyway (writes made without telling it: checkouts, webhooks). */
const IDLE_LOOK_MS = 1000;
/**
 * How long a thread waits without a batch before it ends by itself (a gateway with light traffic
 * may never be busy enough for the idle step, and should not hold the thread for good either).
 */
const QUIET_MS = 60_000;
/** Passes in a row while a pass leaves frames written meanwhile (each one shorter than the last). */
const CATCH_UP_PASSES = 4;

const SEQ = 0;
const STOP = 1;

/** Runs in the worker: plain CommonJS, given the database file and better-sqlite3's path. */
const WORKER = `
const { workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const state = new Int32Array(workerData.state);
const db = new Database(workerData.file, { fileMustExist: true });
// The checkpoint syncs the database file before the WAL may start over.
db.pragma('synchronous = FULL');
db.pragma('wal_autocheckpoint = 0');
const look = Math.min(${IDLE_LOOK_MS}, workerData.quietMs);
// From 0: commits made while the thread was starting are copied at once.
let seen = 0;
let quiet = 0;
while (Atomics.load(state, ${STOP}) === 0) {
  const woke = Atomics.wait(state, ${SEQ}, seen, look);
  if (Atomics.load(state, ${STOP}) !== 0) break;
  quiet = woke === 'timed-out' ? quiet + look : 0;
  // Long without a batch: what other writes left is copied below, one last time.
  const ending = quiet >= workerData.quietMs;
  if (!ending) Atomics.wait(state, ${STOP}, 0, ${GATHER_MS});
  seen = Atomics.load(state, ${SEQ});
  // Passes again while commits made during a pass are left (at most a few): a pass that ends with
  // everything copied lets the next write start the WAL over, so it stays small.
  for (let pass = 0; pass < ${CATCH_UP_PASSES}; pass++) {
    let left = 0;
    try {
      const [row] = db.pragma('wal_checkpoint(PASSIVE)');
      left = row.busy === 0 && row.log > 0 ? row.log - row.checkpointed : 0;
    } catch {
      // The file gone at shutdown: the next round, or the backstop.
    }
    if (left <= 0 || Atomics.load(state, ${STOP}) !== 0) break;
  }
  if (ending) break;
}
db.close();
`;

export interface Checkpointer {
  /** A write committed on the main connection: the thread (started if need be) copies it soon. */
  committed(): void;
  /**
   * The gateway has gone quiet (server/lifecycle/idle-memory.ts): the thread stops and gives back
   * its memory (a thread is about 9 MB: its own V8 heap and Node environment); the next commit
   * starts another.
   */
  release(): void;
  /** Stops the thread for good; resolves once every thread has exited. */
  close(): Promise<void>;
}

interface Thread {
  readonly state: Int32Array;
  /** Resolves when the thread has ended: true when it failed (could not open the file, threw). */
  readonly exited: Promise<boolean>;
}

/**
 * `autocheckpoint` sets the main connection's automatic checkpoint: raised to the backstop while a
 * thread runs, SQLite's default again when it stops (writes other than payments' do not wake the
 * thread, so without one they keep SQLite's own checkpoints, as short as before).
 */
export function checkpointer(
  file: string,
  autocheckpoint: (pages: number) => void,
  /** How long a thread waits without a batch before it ends by itself (tests shorten it). */
  quietMs = QUIET_MS,
): Checkpointer {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  let thread: Thread | undefined;
  // False once closed, or once a thread has failed: SQLite's own checkpoints from then on, rather
  // than a new thread started (and failing again) by every batch.
  let startable = true;
  const stopping = new Set<Promise<boolean>>();
  const stop = (t: Thread): void => {
    Atomics.store(t.state, STOP, 1);
    Atomics.notify(t.state, SEQ);
    Atomics.notify(t.state, STOP);
    stopping.add(t.exited);
    void t.exited.then(() => stopping.delete(t.exited));
  };
  const release = (): void => {
    if (thread === undefined) return;
    stop(thread);
    thread = undefined;
    autocheckpoint(INLINE_PAGES);
  };
  return {
    committed() {
      if (!startable) return;
      if (thread === undefined) {
        const started = startThread(file, driver, quietMs);
        thread = started;
        autocheckpoint(BACKSTOP_PAGES);
        // Ended by itself: quiet (the next batch starts another) or failed (none again).
        void started.exited.then((failed) => {
          if (failed) startable = false;
          if (thread !== started) return;
          thread = undefined;
          autocheckpoint(INLINE_PAGES);
        });
      }
      Atomics.add(thread.state, SEQ, 1);
      Atomics.notify(thread.state, SEQ);
    },
    release,
    async close() {
      startable = false;
      release();
      await Promise.all(stopping);
    },
  };
}

function startThread(file: string, driver: string, quietMs: number): Thread {
  const shared = new SharedArrayBuffer(8);
  const worker = new Worker(WORKER, { eval: true, workerData: { file, driver, state: shared, quietMs } });
  const exited = new Promise<boolean>((resolve) => {
    worker.once('exit', () => resolve(false));
    // A thread that fails leaves SQLite's own checkpoints to do its work: nothing is lost.
    worker.once('error', () => resolve(true));
  });
  // It must never keep an otherwise finished process alive.
  worker.unref();
  return { state: new Int32Array(shared), exited };
}
