/** Webhook deliveries (the delivery log): state, attempts, last answer, and for admins redelivery of a dead-lettered one. */
import { post, seg } from '../api';
import { formatDate } from '../format';
import { canChange } from '../state/session';
import type { Delivery } from '../types';
import { ActionButton } from './ActionButton';
import { ActionMessages } from './ActionMessages';
import { DataTable } from './DataTable';
import { useAction } from './useAction';

export function Deliveries({
  merchantId,
  deliveries,
  changed,
}: {
  merchantId: string;
  deliveries: readonly Delivery[];
  changed: () => void;
}) {
  const redeliver = useAction();
  if (deliveries.length === 0) return <p class="muted">No webhook deliveries.</p>;
  return (
    <>
      <DataTable
        label="Webhook deliveries"
        columns={[
          'Created',
          'Notification',
          'Payment',
          'State',
          'Attempts',
          'Last answer',
          canChange.value && 'Action',
        ]}
      >
        {deliveries.map((d) => (
          <tr key={d.id}>
            <td>{formatDate(d.createdAt)}</td>
            <td>
              {d.type}
              {d.action ? ` ${d.action}` : ''}
            </td>
            <td>{d.paymentId ? <code>{d.paymentId}</code> : '—'}</td>
            <td>
              <span class={`badge badge-${d.status}`}>{d.status}</span>
            </td>
            <td>{d.attempts}</td>
            <td>
              {d.lastStatus ?? ''} {d.lastError ?? ''}{' '}
              {d.lastAttemptAt ? `(${formatDate(d.lastAttemptAt)})` : ''}
            </td>
            {canChange.value && (
              <td>
                {/* the gateway retries the others itself */}
                {d.status === 'dead' && (
                  <ActionButton
                    action={redeliver}
                    class="secondary"
                    label={`Redeliver delivery ${d.id}`}
                    work={async () => {
                      await post(
                        `/merchants/${seg(merchantId)}/webhook-deliveries/${seg(String(d.id))}/redeliver`,
                      );
                      changed();
                      return `Delivery ${d.id} will be sent again.`;
                    }}
                  >
                    Redeliver
                  </ActionButton>
                )}
              </td>
            )}
          </tr>
        ))}
      </DataTable>
      <ActionMessages action={redeliver} />
    </>
  );
}
