/**
 * The payments list exported as CSV: the list's own filters (readListQuery, without `limit` and
 * `after`), every matching payment newest first, read a page at a time through the list's
 * keyset pages (storage/payments/list.ts) and written as it is read, so an export of a year
 * holds one page in memory. Written like the reconciliation file (shared/settlement/csv.ts):
 * `;`-separated, CRLF, RFC 4180 quoting, and text cells a spreadsheet would run as a formula
 * neutralised with a leading `'`. Amounts are decimal strings in the currency's exponent; the
 * card as the API answers it (bin and last four digits), never its number.
 */
import type { Payment } from '../../../shared/engine/core/model';
import { CSV_LINE_END, CSV_SEPARATOR, csvField, neutralizeFormula } from '../../../shared/settlement';
import type { PaymentListQuery } from '../../storage/payments/list';
import { type ListFilters, paymentRow } from './payment-list';

/** Payments read per page. */
const EXPORT_PAGE = 500;

/** The columns, and whether a column holds text someone else typed (neutralised). */
const COLUMNS: readonly (readonly [string, (p: Payment) => string, boolean])[] = [
  ['CreatedAt', (p) => p.createdAt.toISOString(), false],
  ['Id', (p) => p.id, false],
  ['ShortId', (p) => p.shortId, false],
  ['EntityId', (p) => p.channelId, false],
  ['PaymentType', (p) => p.paymentType, false],
  ['PaymentBrand', (p) => p.paymentBrand ?? '', true],
  ['Amount', (p) => paymentRow(p).amount ?? '', false],
  ['Currency', (p) => p.currency ?? '', false],
  ['Status', (p) => paymentRow(p).status, false],
  ['ResultCode', (p) => p.resultCode, false],
  ['ResultDescription', (p) => paymentRow(p).result.description, true],
  ['MerchantTransactionId', (p) => p.merchantTransactionId ?? '', true],
  ['CardBin', (p) => p.card?.bin ?? '', false],
  ['CardLast4Digits', (p) => p.card?.last4Digits ?? '', false],
  ['ReferencedId', (p) => p.referencedId ?? '', false],
];

export const PAYMENTS_CSV_HEADER = COLUMNS.map(([name]) => name);

const line = (cells: readonly string[]) => cells.map(csvField).join(CSV_SEPARATOR) + CSV_LINE_END;

export function paymentCsvLine(p: Payment): string {
  return line(COLUMNS.map(([, value, text]) => (text ? neutralizeFormula(value(p)) : value(p))));
}

/** The file's lines: the header, then each payment the filters match, a page at a time. */
export async function* paymentsCsv(
  store: { listPaymentsPage(query: PaymentListQuery): Promise<Payment[]> },
  scope: Pick<PaymentListQuery, 'merchantId' | 'channelIds'>,
  filters: Omit<ListFilters, 'limit' | 'before'>,
): AsyncGenerator<string> {
  yield line(PAYMENTS_CSV_HEADER);
  let before: PaymentListQuery['before'];
  for (;;) {
    const page = await store.listPaymentsPage({
      ...filters,
      ...scope,
      limit: EXPORT_PAGE,
      ...(before === undefined ? {} : { before }),
    });
    for (const p of page) yield paymentCsvLine(p);
    const last = page[page.length - 1];
    if (page.length < EXPORT_PAGE || last === undefined) return;
    before = { at: last.createdAt.getTime(), id: last.id };
  }
}
