/** A merchant's scheduled payments: the list, and for admins deschedule. */
import { useEffect } from 'preact/hooks';
import { del, get, seg } from '../api';
import { ActionMessages } from '../components/ActionMessages';
import { Loading } from '../components/Alert';
import { Page } from '../components/Page';
import { ScrollTable } from '../components/ScrollTable';
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
        <ScrollTable label="Scheduled payments">
          <table>
            <caption class="visually-hidden">Scheduled payments</caption>
            <thead>
              <tr>
                <th scope="col">Id</th>
                <th scope="col">State</th>
                <th scope="col">Type</th>
                <th scope="col" class="number">
                  Amount
                </th>
                <th scope="col">Job</th>
                <th scope="col">Next run</th>
                <th scope="col">Registration</th>
                {canChange.value && <th scope="col">Action</th>}
              </tr>
            </thead>
            <tbody>
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
                        <button
                          type="button"
                          class="danger"
                          aria-label={`Deschedule ${s.id}`}
                          disabled={deschedule.busy}
                          onClick={() =>
                            void deschedule.run(async () => {
                              await del(`/merchants/${seg(merchantId)}/schedules/${seg(s.id)}`);
                              list.reload();
                              return `Schedule ${s.id} descheduled.`;
                            })
                          }
                        >
                          Deschedule
                        </button>
                      )}
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollTable>
      )}
      <ActionMessages action={deschedule} />
    </Page>
  );
}
