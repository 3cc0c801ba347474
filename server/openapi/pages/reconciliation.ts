/** /docs/reconciliation: the reconciliation file's columns and format (shared/settlement/csv.ts). */
import { CSV_SEPARATOR, RECONCILIATION_COLUMNS } from '../../../shared/settlement';
import { code, layout, table } from './layout';

export function reconciliationPage(): string {
  const body = `
<p>Each settlement day the gateway writes one file per merchant account and currency, delivered by read-only FTP(S) (one folder per merchant) and by ${code('GET /reports/v1/reconciliations/aggregations/{id}/file')}.</p>
<p>Separator ${code(CSV_SEPARATOR)}, a header line first, every line ending with CRLF, UTF-8 without BOM; a field holding the separator, a quote or a line break is quoted (RFC 4180). Amounts are unsigned with two decimals (${code('Cashflow')} gives the direction); dates ${code('yyyy-MM-dd')}, times ${code('yyyy-MM-dd HH:mm:ss')} UTC. A text cell starting with ${code('=')}, ${code('+')}, ${code('-')}, ${code('@')}, TAB or CR is written with a leading ${code("'")} unless GATEWAY_CSV_NEUTRALISE=off.</p>
${table(
  'Columns, in order',
  ['#', 'Column'],
  RECONCILIATION_COLUMNS.map((c, i) => [String(i + 1), code(c)]),
)}`;
  return layout('/docs/reconciliation', 'Reconciliation file', body);
}
