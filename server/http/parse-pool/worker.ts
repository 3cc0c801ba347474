/**
 * The parse pool's thread (index.ts bundles this file with esbuild and runs it with `eval`): each
 * message is one `parseRequest`, answered with its result, the same pure function the main
 * thread would have run.
 */
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { omittedOf } from '../../../shared/params/error-list';
import { parseRequest, type RequestKind } from '../../../shared/params/requests';

export interface ParseTask {
  readonly id: number;
  readonly kind: RequestKind;
  readonly body: string;
  readonly maxBytes: number;
}

// On Linux a thread has a niceness of its own, and 0 names the calling thread: the main thread
// (the event loop every merchant's request waits on) is then served first when the cores are busy.
try {
  setPriority(0, (workerData as { niceness?: number } | undefined)?.niceness ?? 0);
} catch {
  // not permitted (or not Linux): the thread runs at the process's priority
}

parentPort?.on('message', (task: ParseTask) => {
  try {
    const parsed = parseRequest(task.kind, task.body, { maxBytes: task.maxBytes });
    // a summary entry's count is known by its identity, which the message's clone loses
    parentPort?.postMessage({ id: task.id, parsed, omitted: parsed.ok ? 0 : omittedOf(parsed.errors) });
  } catch (error) {
    parentPort?.postMessage({ id: task.id, error: error instanceof Error ? error.message : String(error) });
  }
});
