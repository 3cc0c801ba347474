/**
 * A day's settlement records on their way into the store. The settlement run settles a day a page
 * of transactions at a time and adds each record here: it goes to a temporary file (owner only),
 * already in the form of its row. The store then copies the file into `settlement_records` inside
 * the transaction that claims the run, a page of rows at a time (`saveStagedSettlementRun`). So a
 * day of any size is never held in memory, and the claiming transaction lasts only for the copy,
 * not for the reading and settling of the day (on SQLite it holds the database's write lock).
 *
 * One line per record: settlement id, seq, payment id, record type, request time (epoch ms), the
 * record's JSON, separated by TAB. None of the fields holds a TAB or a line break: ids and types
 * are letters, digits and spaces, and JSON escapes both characters inside strings.
 */
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { type FileHandle, mkdir, open, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { SettlementRecordsTable } from './tables';

/** Text of about this many UTF-16 units is written at once: few writes, bounded memory. */
const WRITE_CHUNK = 1 << 20;

export class StagedRecords {
  private pending = '';
  private handle: FileHandle | undefined;
  /** Records added so far. */
  count = 0;

  private constructor(
    private readonly path: string,
    handle: FileHandle,
  ) {
    this.handle = handle;
  }

  /** A new, empty staging file in `dir` (created with mode 0700 if missing). */
  static async open(dir: string): Promise<StagedRecords> {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const path = join(dir, `${randomBytes(8).toString('hex')}.records`);
    return new StagedRecords(path, await open(path, 'wx', 0o600));
  }

  /** Adds a record as the row `settlement_records` will hold. */
  async add(row: SettlementRecordsTable): Promise<void> {
    if (this.handle === undefined) throw new Error('staged records: added after they were read');
    this.pending += `${row.settlement_id}\t${row.seq}\t${row.payment_id ?? ''}\t${row.record_type}\t${
      row.request_time ?? ''
    }\t${row.record}\n`;
    this.count += 1;
    if (this.pending.length >= WRITE_CHUNK) await this.flush();
  }

  private async flush(): Promise<void> {
    if (this.pending === '') return;
    await this.handle!.write(this.pending, null, 'utf8');
    this.pending = '';
  }

  /** The rows added, `size` at a time, in the order they were added; nothing can be added after. */
  async *rows(size: number): AsyncGenerator<SettlementRecordsTable[]> {
    if (this.handle !== undefined) {
      await this.flush();
      await this.handle.close();
      this.handle = undefined;
    }
    const lines = createInterface({ input: createReadStream(this.path, 'utf8'), crlfDelay: Infinity });
    let page: SettlementRecordsTable[] = [];
    for await (const line of lines) {
      if (line === '') continue;
      page.push(rowOf(line));
      if (page.length < size) continue;
      yield page;
      page = [];
    }
    if (page.length > 0) yield page;
  }

  /** Removes the file. */
  async discard(): Promise<void> {
    await this.handle?.close();
    this.handle = undefined;
    await rm(this.path, { force: true });
  }
}

function rowOf(line: string): SettlementRecordsTable {
  const fields: string[] = [];
  let from = 0;
  // the first five fields; the JSON (the rest of the line) is never split
  for (let i = 0; i < 5; i++) {
    const tab = line.indexOf('\t', from);
    if (tab === -1) throw new Error('staged records: a line without its six fields');
    fields.push(line.slice(from, tab));
    from = tab + 1;
  }
  const [settlementId, seq, paymentId, recordType, requestTime] = fields as [
    string,
    string,
    string,
    string,
    string,
  ];
  return {
    settlement_id: settlementId,
    seq: Number(seq),
    payment_id: paymentId === '' ? null : paymentId,
    record_type: recordType,
    request_time: requestTime === '' ? null : Number(requestTime),
    record: line.slice(from),
  };
}
