/**
 * A payment's whole story: the transaction, those linked to it (captures, refunds, reversals,
 * chargebacks), its 3-D Secure and risk results, its webhook deliveries, the checkout it came
 * from, the connectors its channel's routing tried (when the answer lists them); and the back
 * office's actions on it.
 */
import { useEffect } from 'preact/hooks';
import { get, seg } from '../api';
import { Loading } from '../components/Alert';
import { BackOffice } from '../components/BackOffice';
import { DataTable } from '../components/DataTable';
import { Deliveries } from '../components/Deliveries';
import { KeyValues } from '../components/KeyValues';
import { Page, Section } from '../components/Page';
import { useLoad } from '../components/useLoad';
import { formatAmount, formatDate } from '../format';
import { href } from '../router';
import { openMerchant } from '../state/merchant';
import type { Channel, PaymentStory, PaymentSummary } from '../types';

type Transaction = Record<string, unknown> & Partial<PaymentSummary>;

const when = (t: Transaction) => (t.createdAt ?? (t.timestamp as string | undefined)) as string | undefined;

function Related({ merchantId, related }: { merchantId: string; related: readonly Transaction[] }) {
  if (related.length === 0) return <p class="muted">No linked transactions.</p>;
  return (
    <DataTable
      label="Linked transactions"
      columns={['Date', 'Id', 'Type', { label: 'Amount', number: true }, 'Result']}
    >
      {related.map((t) => (
        <tr key={t.id}>
          <td>{formatDate(when(t))}</td>
          <td>
            <a
              href={href(
                `/merchants/${encodeURIComponent(merchantId)}/payments/${encodeURIComponent(t.id ?? '')}`,
              )}
            >
              <code>{t.id}</code>
            </a>
          </td>
          <td>{t.paymentType}</td>
          <td class="number">{formatAmount(t.amount, t.currency)}</td>
          <td>
            <code>{t.result?.code}</code> {t.result?.description}
          </td>
        </tr>
      ))}
    </DataTable>
  );
}

type Attempt = PaymentStory['attempts'][number];

const OUTCOMES: Readonly<Record<Attempt['outcome'], string>> = {
  processed: 'Processed: the processor answered',
  refused: 'Refused: nothing reached it, the next was tried',
  uncertain: 'Uncertain: it may have processed it; the gateway asks it',
  skipped: 'Skipped: its circuit was open',
};

/** The routing's attempts, in order; read defensively: an older gateway answers none. */
function Attempts({ attempts }: { attempts: readonly Attempt[] | undefined }) {
  if (attempts === undefined || attempts.length === 0)
    return <p class="muted">Not routed: no connector attempts.</p>;
  return (
    <DataTable label="Connector attempts" columns={['Date', 'Route', 'Connector', 'Outcome', 'Code']}>
      {attempts.map((a, i) => (
        <tr key={i}>
          <td>{formatDate(a.at)}</td>
          <td>{a.route + 1}</td>
          <td>{a.kind}</td>
          <td>{OUTCOMES[a.outcome] ?? a.outcome}</td>
          <td>{a.code === null ? '—' : <code>{a.code}</code>}</td>
        </tr>
      ))}
    </DataTable>
  );
}

export function PaymentPage({ merchantId, paymentId }: { merchantId: string; paymentId: string }) {
  useEffect(() => openMerchant(merchantId), [merchantId]);
  const story = useLoad(
    () => get<PaymentStory>(`/merchants/${seg(merchantId)}/payments/${seg(paymentId)}`),
    [merchantId, paymentId],
  );
  const entityId = story.data?.payment.entityId;
  const channel = useLoad(
    () => (entityId ? get<Channel>(`/channels/${seg(entityId)}`) : Promise.resolve(undefined)),
    [entityId],
  );
  const p = story.data?.payment;
  const environment = channel.data?.environment ?? (channel.data?.mode === 'LIVE' ? 'live' : 'test');
  return (
    <Page title={p ? `Payment ${p.id}` : 'Payment'}>
      <p>
        <a href={href(`/merchants/${encodeURIComponent(merchantId)}/payments`)}>Back to the payments</a>
      </p>
      <Loading data={story.data} error={story.error} />
      {story.data && p && (
        <>
          <p class="summary">
            <strong>{p.paymentType}</strong> {formatAmount(p.amount, p.currency)}{' '}
            {p.status && <span class={`badge badge-${p.status}`}>{p.status}</span>}{' '}
            <code>{p.result?.code}</code> {p.result?.description} · {formatDate(when(p))}
          </p>
          <Section title="Transaction">
            <KeyValues value={p} skip={['response']} />
            {p.response !== undefined && (
              <details>
                <summary>The whole answer, as GET /v1/payments/{'{id}'} gives it</summary>
                <KeyValues value={p.response} />
              </details>
            )}
          </Section>
          <Section title="Back office">
            <BackOffice
              merchantId={merchantId}
              payment={p}
              testEnvironment={channel.data !== undefined && environment === 'test'}
              changed={story.reload}
            />
          </Section>
          <Section title="Linked transactions">
            <Related merchantId={merchantId} related={story.data.related} />
          </Section>
          {(story.data as { attempts?: readonly Attempt[] }).attempts !== undefined && (
            <Section title="Connector attempts">
              <Attempts attempts={(story.data as { attempts?: readonly Attempt[] }).attempts} />
            </Section>
          )}
          <Section title="3-D Secure">
            <KeyValues value={story.data.threeDSecure} />
          </Section>
          <Section title="Risk">
            <KeyValues value={story.data.risk} />
          </Section>
          <Section title="Webhook deliveries">
            <Deliveries merchantId={merchantId} deliveries={story.data.deliveries} changed={story.reload} />
          </Section>
          <Section title="Checkout">
            {story.data.checkout === null ? (
              <p class="muted">Not made through a checkout.</p>
            ) : (
              <KeyValues value={story.data.checkout} />
            )}
          </Section>
        </>
      )}
    </Page>
  );
}
