/** Webhook deliveries (the delivery log): state, attempts, last answer, and for admins redelivery of a dead-lettered one. */
import { post, seg } from '../api';
import { formatDate } from '../format';
import { canChange } from '../state/session';
import type { Delivery } from '../types';
import { ActionMessages } from './ActionMessages';
import { ScrollTable } from './ScrollTable';
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
      <ScrollTable label="Webhook deliveries">
        <table>
          <caption class="visually-hidden">Webhook deliveries</caption>
          <thead>
            <tr>
              <th scope="col">Created</th>
              <th scope="col">Notification</th>
              <th scope="col">Payment</th>
              <th scope="col">State</th>
              <th scope="col">Attempts</th>
              <th scope="col">Last answer</th>
              {canChange.value && <th scope="col">Action</th>}
            </tr>
          </thead>
          <tbody>
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
                      <button
                        type="button"
                        class="secondary"
                        aria-label={`Redeliver delivery ${d.id}`}
                        disabled={redeliver.busy}
                        onClick={() =>
                          void redeliver.run(async () => {
                            await post(
                              `/merchants/${seg(merchantId)}/webhook-deliveries/${seg(String(d.id))}/redeliver`,
                            );
                            changed();
                            return `Delivery ${d.id} will be sent again.`;
                          })
                        }
                      >
                        Redeliver
                      </button>
                    )}
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollTable>
      <ActionMessages action={redeliver} />
    </>
  );
}
