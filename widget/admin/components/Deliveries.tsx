/**
 * Webhook deliveries (the delivery log): where each went (the endpoint), its state, attempts,
 * last answer, its payload (decrypted: the notification as the gateway sealed it, opened on
 * demand), and for admins a resend of any finished delivery (delivered, or dead-lettered after its
 * attempts), confirmed first. Pending ones the gateway is still sending; a removed webhook's are
 * not offered.
 */
import { useState } from 'preact/hooks';
import { get, post, seg } from '../api';
import { formatDate } from '../format';
import { canChange } from '../state/session';
import type { Delivery } from '../types';
import { ActionButton } from './ActionButton';
import { ActionMessages } from './ActionMessages';
import { ErrorMessage } from './Alert';
import { DataTable } from './DataTable';
import { useAction } from './useAction';

/** The notification a delivery carries, loaded when asked for. */
function Payload({ merchantId, delivery }: { merchantId: string; delivery: Delivery }) {
  const [shown, setShown] = useState<string | undefined>(undefined);
  const [error, setError] = useState<Error | undefined>(undefined);
  const toggle = async () => {
    if (shown !== undefined) return setShown(undefined);
    try {
      const full = await get<{ notification?: unknown }>(
        `/merchants/${seg(merchantId)}/webhook-deliveries/${seg(String(delivery.id))}`,
      );
      setShown(JSON.stringify(full.notification ?? null, null, 2));
    } catch (caught) {
      setError(caught instanceof Error ? caught : new Error(String(caught)));
    }
  };
  return (
    <>
      <button
        type="button"
        class="secondary"
        aria-expanded={shown !== undefined}
        aria-label={`Payload of delivery ${delivery.id}`}
        onClick={() => void toggle()}
      >
        Payload
      </button>
      <ErrorMessage error={error} />
      {shown !== undefined && (
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take the focus (WCAG 2.1.1)
        <section class="payload" tabIndex={0} aria-label={`Notification of delivery ${delivery.id}`}>
          <pre class="code">{shown}</pre>
        </section>
      )}
    </>
  );
}

export function Deliveries({
  merchantId,
  deliveries,
  changed,
  endpoints,
}: {
  merchantId: string;
  deliveries: readonly Delivery[];
  changed: () => void;
  /**
   * The merchant's webhooks, id → URL, for the endpoint column: a delivery whose webhook is not
   * among them had its webhook removed (the gateway refuses to resend it: it could only die again).
   */
  endpoints?: ReadonlyMap<string, string>;
}) {
  const resend = useAction();
  if (deliveries.length === 0) return <p class="muted">No webhook deliveries.</p>;
  const removed = (d: Delivery) => endpoints !== undefined && !!d.webhookId && !endpoints.has(d.webhookId);
  const endpoint = (d: Delivery) =>
    d.callbackUrl ??
    (removed(d) ? 'removed webhook' : d.webhookId ? (endpoints?.get(d.webhookId) ?? d.webhookId) : '—');
  return (
    <>
      <DataTable
        label="Webhook deliveries"
        columns={[
          'Created',
          'Endpoint',
          'Notification',
          'Payment',
          'State',
          'Attempts',
          'Last answer',
          'Payload',
          canChange.value && 'Action',
        ]}
      >
        {deliveries.map((d) => (
          <tr key={d.id}>
            <td>{formatDate(d.createdAt)}</td>
            <td class="url">{endpoint(d)}</td>
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
            <td>
              <Payload merchantId={merchantId} delivery={d} />
            </td>
            {canChange.value && (
              <td>
                {/* a pending one the gateway is still sending */}
                {d.status !== 'pending' && !removed(d) && (
                  <ActionButton
                    action={resend}
                    class="secondary"
                    label={`Resend delivery ${d.id}`}
                    confirm={`Delivery ${d.id} (${d.type}) is sent to ${endpoint(d)} again, its retries restarted.`}
                    work={async () => {
                      await post(
                        `/merchants/${seg(merchantId)}/webhook-deliveries/${seg(String(d.id))}/redeliver`,
                      );
                      changed();
                      return `Delivery ${d.id} will be sent again.`;
                    }}
                  >
                    Resend
                  </ActionButton>
                )}
              </td>
            )}
          </tr>
        ))}
      </DataTable>
      <ActionMessages action={resend} />
    </>
  );
}
