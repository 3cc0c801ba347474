/** A merchant's recent API requests: what its access tokens asked, newest first (no bodies). */
import { useEffect } from 'preact/hooks';
import { get, seg } from '../api';
import { Loading } from '../components/Alert';
import { DataTable } from '../components/DataTable';
import { Page } from '../components/Page';
import { useLoad } from '../components/useLoad';
import { formatDate } from '../format';
import { openMerchant } from '../state/merchant';
import type { ApiRequest } from '../types';

export function Requests({ merchantId }: { merchantId: string }) {
  useEffect(() => openMerchant(merchantId), [merchantId]);
  const list = useLoad(
    () => get<{ requests: ApiRequest[] }>(`/merchants/${seg(merchantId)}/requests`),
    [merchantId],
  );
  return (
    <Page title="Recent API requests">
      <p class="muted">
        The last 100 requests this merchant’s access tokens made (the newest 500 are kept): never a request’s
        body, parameters or credentials.
      </p>
      <button type="button" class="secondary" onClick={() => list.reload()}>
        Refresh
      </button>
      <Loading data={list.data} error={list.error} />
      {list.data && list.data.requests.length === 0 && <p role="status">No API requests yet.</p>}
      {list.data && list.data.requests.length > 0 && (
        <DataTable
          label="Recent API requests, newest first"
          columns={[
            'Time',
            'Method',
            'Route',
            { label: 'Status', number: true },
            'Result code',
            { label: 'Duration (ms)', number: true },
            'Request id',
          ]}
        >
          {list.data.requests.map((r) => (
            <tr key={r.requestId + r.at}>
              <td>{formatDate(r.at)}</td>
              <td>{r.method}</td>
              <td>
                <code>{r.route}</code>
              </td>
              <td class="number">{r.status}</td>
              <td>{r.resultCode === null ? '—' : <code>{r.resultCode}</code>}</td>
              <td class="number">{r.durationMs.toFixed(1)}</td>
              <td>
                <code>{r.requestId}</code>
              </td>
            </tr>
          ))}
        </DataTable>
      )}
    </Page>
  );
}
