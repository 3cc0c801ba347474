/** A merchant's scheduled payments: the list, and for admins deschedule. */
import { useEffect } from 'preact/hooks';
import { del, get, seg } from '../api';
import { ActionButton } from '../components/ActionButton';
import { ActionMessages } from '../components/ActionMessages';
import { Loading } from '../components/Alert';
import { DataTable } from '../components/DataTable';
import { Page } from '../components/Page';
import { useAction } from '../components/useAction';
import { useLoad } from '../components/useLoad';
import { formatAmount, formatDate } from '../format';
import { openMerchant } from '../state/merchant';
import { canChange } from '../state/session';
import type { Schedule } from '../types';

const jobText = (job: unknown) =>
  job !== null && typeof job === 'object'
    ? Object.entries(job as Record<string, unknown>)
        .map(([k, v]) => `${k} ${String(v)}`)
        .join(' · ')
    : String(job ?? '');

export function Schedules({ merchantId }: { merchantId: string }) {
  useEffect(() => openMerchant(merchantId), [merchantId]);
  const list = useLoad(
    () => get<{ schedules: Schedule[] }>(`/merchants/${seg(merchantId)}/schedules`),
    [merchantId],
  );
  const deschedule = useAction();
  return (
    <Page title="Schedules">
      <Loading data={list.data} error={list.error} />
      {list.data && list.data.schedules.length === 0 && <p class="muted">No scheduled payments.</p>}
      {list.data && list.data.schedules.length > 0 && (
        <DataTable
          label="Scheduled payments"
          columns={[
            'Id',
            'State',
            'Type',
            { label: 'Amount', number: true },
            'Job',
            'Next run',
            'Registration',
            canChange.value && 'Action',
          ]}
        >
          {list.data.schedules.map((s) => (
            <tr key={s.id}>
              <td>
                <code>{s.id}</code>
              </td>
              <td>{s.state}</td>
              <td>{s.paymentType}</td>
              <td class="number">{formatAmount(s.amount, s.currency)}</td>
              <td>{jobText(s.job)}</td>
              <td>{formatDate(s.nextFireAt)}</td>
              <td>
                <code>{s.registrationId}</code>
              </td>
              {canChange.value && (
                <td>
                  {s.state === 'ACTIVE' && (
                    <ActionButton
                      action={deschedule}
                      class="danger"
                      label={`Deschedule ${s.id}`}
                      confirm={`Schedule ${s.id} stops: no further payment is made from it.`}
                      work={async () => {
                        await del(`/merchants/${seg(merchantId)}/schedules/${seg(s.id)}`);
                        list.reload();
                        return `Schedule ${s.id} descheduled.`;
                      }}
                    >
                      Deschedule
                    </ActionButton>
                  )}
                </td>
              )}
            </tr>
          ))}
        </DataTable>
      )}
      <ActionMessages action={deschedule} />
    </Page>
  );
}
