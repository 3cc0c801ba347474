/**
 * The staging folder `<dataDir>/reconciliation/.tmp/`: a run's records on their way into the store
 * (`<16 hex>.records`, StagedRecords) and a day's file before its rename (`<16 hex>.tmp`,
 * writeFileAtomic). Each run removes its own; a run that crashed (killed, power lost) leaves
 * them, holding merchants' transactions, until the next run removes them here.
 *
 * Which are stale: there is no claim of a run in progress to ask (the run row is written only in
 * the transaction that saves the day), and several processes may settle into one data folder (the
 * gateway's worker, the CLI, gateways sharing PostgreSQL). So the bound is the files' age: a live
 * run writes its files as it goes (a flush at least every MiB of text) and then reads or renames
 * them within the minutes a day takes (a million payments: about 80 s), so a staging file
 * untouched for an hour belongs to no running run. The age is the file system's (wall time), not
 * the test clock's, which moves days at once.
 */
import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';

/** A staging file not modified for this long belongs to no running run. */
export const STALE_STAGING_MS = 60 * 60 * 1000;

/** The names the runs give their staging files; nothing else in the folder is touched. */
const STAGING_NAME = /^[0-9a-f]{16}\.(records|tmp)$/;

/** Removes the stale staging files of `dir` (none when it does not exist); how many it removed. */
export async function removeStaleStaging(dir: string, nowMs: number = Date.now()): Promise<number> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw error;
  }
  let removed = 0;
  for (const name of names) {
    if (!STAGING_NAME.test(name)) continue;
    const path = join(dir, name);
    try {
      if (nowMs - (await stat(path)).mtimeMs < STALE_STAGING_MS) continue;
      await rm(path, { force: true });
      removed += 1;
    } catch (error) {
      // gone meanwhile: its run finished, or another run removed it first
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  return removed;
}
