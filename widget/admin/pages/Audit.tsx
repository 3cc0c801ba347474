/** The audit log: who did what, when, from where (operators: everything; admins: their merchant's). */
import { get, query } from '../api';
import { Loading } from '../components/Alert';
import { DataTable } from '../components/DataTable';
import { Page } from '../components/Page';
import { useLoad } from '../components/useLoad';
import { formatDate } from '../format';
import { href, route } from '../router';
import type { AuditEntry } from '../types';

export function Audit() {
  const after = route.value.query.get('after') ?? undefined;
  const log = useLoad(
    () => get<{ entries: AuditEntry[]; next: string | null }>(`/audit${query({ after, limit: 50 })}`),
    [after],
  );
  return (
    <Page title="Audit log">
      <Loading data={log.data} error={log.error} />
      {log.data && log.data.entries.length === 0 && <p class="muted">Nothing recorded yet.</p>}
      {log.data && log.data.entries.length > 0 && (
        <DataTable
          label="Audit log, newest first"
          columns={['When', 'Who', 'Action', 'Target', 'Merchant', 'Address']}
        >
          {log.data.entries.map((e) => (
            <tr key={e.id}>
              <td>{formatDate(e.at)}</td>
              <td>
                {e.actor} <span class="muted">({e.role})</span>
              </td>
              <td>{e.action}</td>
              <td>
                <code>{e.target}</code>
              </td>
              <td>{e.merchantId ? <code>{e.merchantId}</code> : '—'}</td>
              <td>{e.address}</td>
            </tr>
          ))}
        </DataTable>
      )}
      <nav aria-label="Pages of the audit log" class="pager">
        {after !== undefined && <a href={href('/audit')}>Newest entries</a>}
        {log.data?.next && <a href={href('/audit', { after: log.data.next })}>Older entries</a>}
      </nav>
    </Page>
  );
}
