/**
 * The day's reconciliation CSV file, written atomically into the merchant's folder.
 */

import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Channel } from '../../../shared/engine/core/model';
import { RECONCILIATION_HEADER, reconciliationCsvLines } from '../../../shared/settlement';
import type { Settlement } from '../../storage/settlements';
import {
  csvOptions,
  merchantFolder,
  RECONCILIATION_FOLDER,
  reconciliationFileName,
  type SettlementRunDeps,
} from './model';

/** Text of about this many UTF-16 units is written at once: few writes, bounded memory. */
const WRITE_CHUNK = 1 << 20;

/**
 * Writes `content` to `path` atomically: a synced temporary file in `tmpDir`, renamed over it.
 * `content` may come piece by piece (a day's CSV line by line): it is written as it comes, so a
 * large file is never held whole in memory.
 */
export async function writeFileAtomic(
  path: string,
  tmpDir: string,
  content: string | Iterable<string> | AsyncIterable<string>,
): Promise<void> {
  await mkdir(tmpDir, { recursive: true, mode: 0o700 });
  const tmp = join(tmpDir, `${randomBytes(8).toString('hex')}.tmp`);
  // Owner only: the files hold merchants' transactions (the FTP server runs as the same user).
  const handle = await open(tmp, 'w', 0o600);
  try {
    if (typeof content === 'string') await handle.writeFile(content, 'utf8');
    else {
      let pending = '';
      for await (const piece of content) {
        pending += piece;
        if (pending.length < WRITE_CHUNK) continue;
        await handle.write(pending, null, 'utf8');
        pending = '';
      }
      if (pending !== '') await handle.write(pending, null, 'utf8');
    }
    await handle.sync();
  } catch (error) {
    await handle.close();
    await rm(tmp, { force: true });
    throw error;
  }
  await handle.close();
  try {
    await rename(tmp, path);
  } catch (error) {
    await rm(tmp, { force: true });
    throw error;
  }
}

export async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * The day's file from the stored settlements (currencies in order), written atomically, a page of
 * a settlement's records at a time: a day's file is never held whole in memory.
 */
export async function writeDayFile(
  deps: SettlementRunDeps,
  channel: Channel,
  date: string,
  settlements: readonly Settlement[],
): Promise<string> {
  const folder = merchantFolder(deps.dataDir, channel.merchantId);
  await mkdir(folder, { recursive: true, mode: 0o700 });
  const path = join(folder, reconciliationFileName(channel.id, date, channel.mode));
  const options = csvOptions(deps.env);
  async function* lines(): AsyncGenerator<string> {
    yield RECONCILIATION_HEADER;
    for (const s of [...settlements].sort((a, b) => (a.currency < b.currency ? -1 : 1)))
      for await (const records of deps.store.settlementRecordPages(s.id))
        yield* reconciliationCsvLines(records, options);
  }
  await writeFileAtomic(path, join(deps.dataDir, RECONCILIATION_FOLDER, '.tmp'), lines());
  return path;
}
