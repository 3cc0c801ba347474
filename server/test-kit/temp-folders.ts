/**
 * Temporary folders (and what runs on them) removed at the end of each test file even when a test
 * forgot to: the safety net behind `testGateway` and `tempFolder`. A test that stops early (a failed
 * assertion before its `cleanup()`), or closes a gateway where it meant to clean it up, used to
 * leave its data folder in /tmp for good: hundreds of them, over a gigabyte, on a shared machine.
 *
 * The Vitest setup file (server/test-kit/setup.ts, `test.setupFiles` in vite.config.ts) calls
 * `releaseLeftovers` in a file-level `afterAll`: it runs after the file's own `afterAll` hooks
 * (Vitest runs "after" hooks in reverse order of registration), so explicit clean-ups come first
 * and this only catches what they missed. Test files may share this module (a worker keeps its
 * modules from one file to the next, `isolate: false`), but a worker runs one file at a time and the
 * setup file runs again before each: what is registered here belongs to the file that runs, and is
 * released at its end, before the next file starts (temp-folders.test.ts runs two such files).
 *
 * Programs that are not test files (the e2e harness, the QA kit's gateway, benchmarks) take
 * `tempFolderUntilExit` instead: deleted when their process exits.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** What undoes one thing a test made: idempotent, as it may run again at the file's end. */
export type Release = () => Promise<void>;

const pending: Release[] = [];

/**
 * Registers `release` to run at the end of the test file unless the returned function (the
 * explicit clean-up, once it has run) takes it back first.
 */
export function atFileEnd(release: Release): () => void {
  pending.push(release);
  return () => {
    const index = pending.lastIndexOf(release);
    if (index >= 0) pending.splice(index, 1);
  };
}

/**
 * A fresh folder under the system's temporary folder (`mkdtemp`), deleted at the end of the test
 * file if the test has not deleted it itself. For data folders a test hands to `testGateway`
 * (a restart on the same data) or to a gateway it starts otherwise.
 */
export async function tempFolder(prefix: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  atFileEnd(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/**
 * Runs what is still registered, newest first (a gateway is closed before its folder is deleted,
 * a restarted gateway before the one it replaced), every one even if another fails; then fails
 * with what failed.
 */
export async function releaseLeftovers(): Promise<void> {
  const errors: unknown[] = [];
  while (pending.length > 0) {
    const release = pending.pop()!;
    try {
      await release();
    } catch (error) {
      errors.push(error);
    }
  }
  if (errors.length > 0) throw new AggregateError(errors, 'cleaning up what the test file left');
}

/**
 * For a program rather than a test file: a fresh temporary folder deleted when the process exits,
 * however it gets there short of SIGKILL: at the end, through `process.exit`, on an uncaught error
 * (a start-up that fails half-way), or on a signal the program handles by exiting (a default
 * SIGINT/SIGTERM ends the process without its 'exit' event, so such a program handles them).
 */
export function tempFolderUntilExit(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
