/**
 * Heavy bodies decoded and validated off the main thread (issue 30, the noisy neighbour): one
 * 512 KiB body of 16,384 parameters costs 60–140 ms of `parseRequest`, and on the event loop that
 * is time every other merchant's request waits. The pool runs the same pure `parseRequest` on
 * worker threads and hands back its result (structured clone: plain objects, arrays and strings,
 * so the answer is the one the main thread would have computed).
 *
 * The threads start with the first heavy body (an ordinary gateway never starts one), and each
 * stops after {@link IDLE_MS} without work, giving its heap back. Their program is worker.ts
 * bundled by esbuild (a dependency already: lifecycle/bundle.ts) into one script run with `eval`,
 * so the same code serves `tsx`, vitest and the production bundle. If the threads cannot run
 * (the bundle fails, a thread dies), the parse runs on the main thread: slower, never wrong.
 */

import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { withOmitted } from '../../../shared/params/error-list';
import type { ParsedRequest, RequestKind } from '../../../shared/params/requests';
import { parseRequest } from '../../../shared/params/requests';
import type { ParseTask } from './worker';

/** How long a thread without work lives on. */
export const IDLE_MS = 10_000;

/**
 * The threads run below the event loop's priority: when the cores are busy, a heavy body's parse
 * waits for them rather than the requests of every other merchant on the main thread. Niceness 10
 * weighs about a tenth of the main thread (Linux CFS), so a heavy body still progresses on a
 * loaded machine.
 */
export const NICENESS = 10;

export interface ParsePool {
  /** `parseRequest(kind, body, { maxBytes })`, on a pool thread when one runs. */
  parse<K extends RequestKind>(kind: K, body: string, maxBytes: number): Promise<ParsedRequest<K>>;
  /** Stops the threads (a later parse starts them again). */
  close(): Promise<void>;
}

export interface ParsePoolOptions {
  /** At most this many threads; by default one core fewer than the machine's, at least 1, at most 4. */
  readonly threads?: number;
  readonly idleMs?: number;
  /** The threads' niceness (Linux, per thread); {@link NICENESS} unless given. */
  readonly niceness?: number;
}

type Reply = {
  readonly id: number;
  readonly parsed?: ParsedRequest<RequestKind>;
  /** The summary entry's count (shared/params/error-list.ts): known by identity, lost in the clone. */
  readonly omitted?: number;
  readonly error?: string;
};

/** The reply's result as the main thread would hold it: the summary entry counting again. */
function revived(reply: Reply): ParsedRequest<RequestKind> | undefined {
  const { parsed, omitted = 0 } = reply;
  if (parsed === undefined || parsed.ok || omitted === 0) return parsed;
  return { ...parsed, errors: withOmitted(parsed.errors, omitted) };
}

interface Pending {
  resolve(parsed: ParsedRequest<RequestKind>): void;
  reject(error: Error): void;
}

interface Thread {
  readonly worker: Worker;
  readonly pending: Map<number, Pending>;
  idle?: NodeJS.Timeout;
}

let program: Promise<string> | undefined;

/** worker.ts and what it imports as one CommonJS script (built once per process). */
function workerProgram(): Promise<string> {
  program ??= (async () => {
    const esbuild = createRequire(import.meta.url)('esbuild') as typeof import('esbuild');
    const built = await esbuild.build({
      entryPoints: [fileURLToPath(new URL('./worker.ts', import.meta.url))],
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      write: false,
      logLevel: 'silent',
    });
    return built.outputFiles[0]!.text;
  })();
  return program;
}

export function createParsePool(options: ParsePoolOptions = {}): ParsePool {
  const max = options.threads ?? Math.max(1, Math.min(4, availableParallelism() - 1));
  const idleMs = options.idleMs ?? IDLE_MS;
  const niceness = options.niceness ?? NICENESS;
  const threads: Thread[] = [];
  let nextId = 0;
  let starting = 0;
  let broken = false;

  function stop(thread: Thread, reason: string): void {
    const at = threads.indexOf(thread);
    if (at !== -1) threads.splice(at, 1);
    clearTimeout(thread.idle);
    for (const p of thread.pending.values()) p.reject(new Error(reason));
    thread.pending.clear();
    void thread.worker.terminate();
  }

  function start(code: string): Thread {
    const worker = new Worker(code, { eval: true, workerData: { niceness } });
    const thread: Thread = { worker, pending: new Map() };
    worker.on('message', (reply: Reply) => {
      const p = thread.pending.get(reply.id);
      if (p === undefined) return;
      thread.pending.delete(reply.id);
      const parsed = revived(reply);
      if (parsed !== undefined) p.resolve(parsed);
      else p.reject(new Error(reply.error ?? 'no answer'));
      if (thread.pending.size === 0) {
        thread.idle = setTimeout(() => stop(thread, 'idle'), idleMs);
        thread.idle.unref();
      }
    });
    worker.on('error', (error: Error) => stop(thread, error.message));
    worker.on('exit', () => stop(thread, 'the parse thread exited'));
    // It must never keep an otherwise finished process alive.
    worker.unref();
    threads.push(thread);
    return thread;
  }

  /** The least busy thread, a new one while there are fewer than `max` and all are busy. */
  async function threadFor(): Promise<Thread> {
    const quiet = threads.find((t) => t.pending.size === 0);
    if (quiet !== undefined) return quiet;
    if (threads.length + starting < max) {
      starting++;
      try {
        return start(await workerProgram());
      } finally {
        starting--;
      }
    }
    // another call is starting the first thread: it is there once the program is
    if (threads.length === 0) return workerProgram().then(threadFor);
    return threads.reduce((a, b) => (b.pending.size < a.pending.size ? b : a));
  }

  async function offThread<K extends RequestKind>(
    kind: K,
    body: string,
    maxBytes: number,
  ): Promise<ParsedRequest<K>> {
    const thread = await threadFor();
    clearTimeout(thread.idle);
    const id = nextId++;
    const task: ParseTask = { id, kind, body, maxBytes };
    return new Promise<ParsedRequest<K>>((resolve, reject) => {
      thread.pending.set(id, { resolve: resolve as Pending['resolve'], reject });
      thread.worker.postMessage(task);
    });
  }

  return {
    async parse(kind, body, maxBytes) {
      if (!broken) {
        try {
          return await offThread(kind, body, maxBytes);
        } catch {
          // A program that cannot be built stays so; a thread that died is replaced next time.
          broken =
            threads.length === 0 &&
            program !== undefined &&
            (await program.then(
              () => false,
              () => true,
            ));
        }
      }
      return parseRequest(kind, body, { maxBytes });
    },
    async close() {
      for (const thread of [...threads]) stop(thread, 'closed');
    },
  };
}

let shared: ParsePool | undefined;

/**
 * The process's pool: what it shares is the machine's cores, so every app (test and live) of a
 * gateway process uses this one.
 */
export function parsePool(): ParsePool {
  shared ??= createParsePool();
  return shared;
}
