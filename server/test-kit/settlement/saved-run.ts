/**
 * A settlement run written and read back the way the settlement run does (staged records copied
 * by saveStagedSettlementRun, records read a page at a time), for tests that need a run in the
 * store without settling a day through the API.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  recordRow,
  type Settlement,
  type SettlementRun,
  type SettlementStore,
  StagedRecords,
  type StoredSettlementRecord,
} from '../../storage/settlements';

/** Stages each settlement's records in order (seq from 0) and saves the run; what the store answered. */
export async function saveRun(
  store: Pick<SettlementStore, 'saveStagedSettlementRun'>,
  run: SettlementRun,
  settlements: readonly { settlement: Settlement; records: readonly StoredSettlementRecord[] }[],
): Promise<boolean> {
  const dir = await mkdtemp(join(tmpdir(), 'gateway-saved-run-'));
  const staged = await StagedRecords.open(dir);
  try {
    for (const { settlement, records } of settlements)
      for (const [seq, stored] of records.entries()) await staged.add(recordRow(settlement.id, seq, stored));
    return await store.saveStagedSettlementRun(
      run,
      settlements.map((s) => s.settlement),
      staged,
    );
  } finally {
    await staged.discard();
    await rm(dir, { recursive: true, force: true });
  }
}

/** A settlement's records, every page, in stored order. */
export async function allRecords(
  store: Pick<SettlementStore, 'settlementRecordPages'>,
  settlementId: string,
): Promise<StoredSettlementRecord[]> {
  const records: StoredSettlementRecord[] = [];
  for await (const page of store.settlementRecordPages(settlementId)) records.push(...page);
  return records;
}
