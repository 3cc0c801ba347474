/** A merchant's settlement and reconciliation files, each downloadable as the spec's CSV. */
import { useEffect } from 'preact/hooks';
import { API, get, seg } from '../api';
import { Loading } from '../components/Alert';
import { DataTable } from '../components/DataTable';
import { Page } from '../components/Page';
import { useLoad } from '../components/useLoad';
import { formatDate, formatDay } from '../format';
import { openMerchant } from '../state/merchant';
import type { SettlementFile } from '../types';

export function Settlements({ merchantId }: { merchantId: string }) {
  useEffect(() => openMerchant(merchantId), [merchantId]);
  const files = useLoad(
    () => get<{ files: SettlementFile[] }>(`/merchants/${seg(merchantId)}/settlements`),
    [merchantId],
  );
  return (
    <Page title="Settlements and reconciliation files">
      <Loading data={files.data} error={files.error} />
      {files.data && files.data.files.length === 0 && <p class="muted">No settlement files yet.</p>}
      {files.data && files.data.files.length > 0 && (
        <DataTable
          label="Settlement files"
          columns={['Day', 'Channel', { label: 'Records', number: true }, 'Made', 'File']}
        >
          {files.data.files.map((f) => (
            <tr key={`${f.date}-${f.entityId}`}>
              <td>{formatDay(f.date)}</td>
              <td>
                <code>{f.entityId}</code>
              </td>
              <td class="number">{f.records}</td>
              <td>{formatDate(f.createdAt)}</td>
              <td>
                <a href={`${API}/merchants/${seg(merchantId)}/settlements/${seg(f.date)}/file`} download>
                  Download CSV<span class="visually-hidden"> of {f.date}</span>
                </a>
              </td>
            </tr>
          ))}
        </DataTable>
      )}
    </Page>
  );
}
