/**
 * The day's reconciliation CSV file, written atomically into the merchant's folder.
 */

import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Channel } from '../../../shared/engine/core/model';
import { reconciliationCsv } from '../../../shared/settlement';
import type { Settlement, StoredSettlementRecord } from '../../storage/settlements';
import {
  csvOptions,
  merchantFolder,
  RECONCILIATION_FOLDER,
  reconciliationFileName,
  type SettlementRunDeps,
} from './model';

/** Writes `content` to `path` atomically: a synced temporary file in `tmpDir`, renamed over it. */
export async function writeFileAtomic(path: string, tmpDir: string, content: string): Promise<void> {
  await mkdir(tmpDir, { recursive: true, mode: 0o700 });
  const tmp = join(tmpDir, `${randomBytes(8).toString('hex')}.tmp`);
  // Owner only: the files hold merchants' transactions (the FTP server runs as the same user).
  const handle = await open(tmp, 'w', 0o600);
  try {
    await handle.writeFile(content, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
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

/** The day's file from the stored settlements (currencies in order), written atomically. */
export async function writeDayFile(
  deps: SettlementRunDeps,
  channel: Channel,
  date: string,
  settlements: readonly Settlement[],
): Promise<string> {
  const records: StoredSettlementRecord[] = [];
  for (const s of [...settlements].sort((a, b) => (a.currency < b.currency ? -1 : 1)))
    records.push(...(await deps.store.listSettlementRecords(s.id)));
  const folder = merchantFolder(deps.dataDir, channel.merchantId);
  await mkdir(folder, { recursive: true, mode: 0o700 });
  const path = join(folder, reconciliationFileName(channel.id, date, channel.mode));
  const csv = reconciliationCsv(records, csvOptions(deps.env));
  await writeFileAtomic(path, join(deps.dataDir, RECONCILIATION_FOLDER, '.tmp'), csv);
  return path;
}
