/**
 * A merchant's webhooks: register (the gateway sends a test notification first), list, remove;
 * and the delivery log with redelivery.
 */
import { useEffect, useState } from 'preact/hooks';
import { del, get, post, query, seg } from '../api';
import { ActionButton, SubmitButton } from '../components/ActionButton';
import { ActionMessages } from '../components/ActionMessages';
import { Loading } from '../components/Alert';
import { Deliveries } from '../components/Deliveries';
import { Checkbox, Field, Select } from '../components/Field';
import { Page, Section } from '../components/Page';
import { ShownOnce } from '../components/ShownOnce';
import { onSubmit, useAction } from '../components/useAction';
import { useLoad } from '../components/useLoad';
import { formatDate } from '../format';
import { openMerchant } from '../state/merchant';
import { canChange } from '../state/session';
import type { Delivery, Webhook } from '../types';

const TYPES = ['PAYMENT', 'REGISTRATION', 'SCHEDULE', 'RISK'] as const;

function Register({ merchantId, registered }: { merchantId: string; registered: () => void }) {
  const [url, setUrl] = useState('');
  const [types, setTypes] = useState<readonly string[]>(TYPES);
  const [encrypted, setEncrypted] = useState(true);
  const [key, setKey] = useState<string | undefined>(undefined);
  const action = useAction();
  const submit = onSubmit(() =>
    action.run(async () => {
      setKey(undefined);
      const answer = await post<Webhook & { key: string }>(`/merchants/${seg(merchantId)}/webhooks`, {
        url: url.trim(),
        types,
        encrypted,
      });
      if (answer.encrypted) setKey(answer.key);
      setUrl('');
      registered();
      return `The test notification was answered: webhook ${answer.id} registered.`;
    }),
  );
  const toggle = (type: string) => (on: boolean) =>
    setTypes((now) => (on ? [...now, type] : now.filter((t) => t !== type)));
  return (
    <form onSubmit={submit} noValidate>
      <Field
        label="Webhook URL"
        type="url"
        value={url}
        onValue={setUrl}
        hint="The gateway sends a test notification to it before registering it"
        error={action.field('url')}
      />
      <fieldset>
        <legend>Notifications</legend>
        {TYPES.map((type) => (
          <Checkbox key={type} label={type} checked={types.includes(type)} onChecked={toggle(type)} />
        ))}
        {action.field('types') && <span class="field-error">{action.field('types')}</span>}
      </fieldset>
      <Checkbox label="Encrypted (AES-256-GCM)" checked={encrypted} onChecked={setEncrypted} />
      <ActionMessages action={action} />
      {key !== undefined && <ShownOnce label="Decryption key" secret={key} />}
      <SubmitButton action={action}>Register webhook</SubmitButton>
    </form>
  );
}

function WebhookList({
  merchantId,
  webhooks,
  changed,
}: {
  merchantId: string;
  webhooks: Webhook[];
  changed: () => void;
}) {
  const remove = useAction();
  if (webhooks.length === 0) return <p class="muted">No webhooks registered.</p>;
  return (
    <>
      <ul class="cards">
        {webhooks.map((w) => (
          <li key={w.id}>
            <p>
              <strong class="url">{w.url}</strong>
            </p>
            <p class="muted">
              {(w.types ?? TYPES).join(', ')} · {w.encrypted ? 'encrypted' : 'plain JSON'} · since{' '}
              {formatDate(w.createdAt)} · <code>{w.id}</code>
            </p>
            {canChange.value && (
              <ActionButton
                action={remove}
                class="danger"
                label={`Remove webhook ${w.url}`}
                confirm={`Notifications are no longer sent to ${w.url}. This cannot be undone.`}
                work={async () => {
                  await del(`/merchants/${seg(merchantId)}/webhooks/${seg(w.id)}`);
                  changed();
                  return `Webhook ${w.url} removed.`;
                }}
              >
                Remove
              </ActionButton>
            )}
          </li>
        ))}
      </ul>
      <ActionMessages action={remove} />
    </>
  );
}

const TYPES_SHOWN: readonly (readonly [string, string])[] = [
  ['', 'Any type'],
  ['PAYMENT', 'Payment'],
  ['REGISTRATION', 'Registration'],
  ['SCHEDULE', 'Schedule'],
  ['RISK', 'Risk'],
];

/**
 * The delivery log: filters (status, type, endpoint) and pages (newest first, `before` the last row).
 * `webhooks` undefined while they load: until then no delivery is taken for a removed webhook's.
 */
function DeliveryLog({ merchantId, webhooks }: { merchantId: string; webhooks?: readonly Webhook[] }) {
  const [status, setStatus] = useState('');
  const [type, setType] = useState('');
  const [webhookId, setWebhookId] = useState('');
  // the pages seen so far: each one's `before` (undefined for the newest)
  const [pages, setPages] = useState<(string | undefined)[]>([undefined]);
  const before = pages[pages.length - 1];
  const filter = (set: (value: string) => void) => (value: string) => {
    set(value);
    setPages([undefined]);
  };
  const deliveries = useLoad(
    () =>
      get<{ deliveries: Delivery[]; next: string | null }>(
        `/merchants/${seg(merchantId)}/webhook-deliveries${query({ status, type, webhookId, before, limit: 25 })}`,
      ),
    [merchantId, status, type, webhookId, before],
  );
  const endpoints = webhooks && new Map(webhooks.map((w) => [w.id, w.url || 'the gateway’s inbox']));
  return (
    <>
      <div class="search">
        <div class="grid">
          <Select
            label="Status"
            value={status}
            onValue={filter(setStatus)}
            options={[
              ['', 'All'],
              ['pending', 'Pending'],
              ['delivered', 'Delivered'],
              ['dead', 'Failed (dead letter)'],
            ]}
          />
          <Select label="Event type" value={type} onValue={filter(setType)} options={TYPES_SHOWN} />
          <Select
            label="Endpoint"
            value={webhookId}
            onValue={filter(setWebhookId)}
            options={[
              ['', 'Every endpoint'],
              ...(webhooks ?? []).map((w) => [w.id, endpoints?.get(w.id) ?? w.id] as const),
            ]}
          />
        </div>
      </div>
      <Loading data={deliveries.data} error={deliveries.error} />
      {deliveries.data && (
        <Deliveries
          merchantId={merchantId}
          deliveries={deliveries.data.deliveries}
          changed={deliveries.reload}
          endpoints={endpoints}
        />
      )}
      <nav aria-label="Pages of the delivery log" class="pager">
        {pages.length > 1 && (
          <button type="button" class="secondary" onClick={() => setPages(pages.slice(0, -1))}>
            Newer deliveries
          </button>
        )}
        {deliveries.data?.next && (
          <button
            type="button"
            class="secondary"
            onClick={() => setPages([...pages, deliveries.data?.next ?? undefined])}
          >
            Older deliveries
          </button>
        )}
      </nav>
    </>
  );
}

export function Webhooks({ merchantId }: { merchantId: string }) {
  useEffect(() => openMerchant(merchantId), [merchantId]);
  const webhooks = useLoad(
    () => get<{ webhooks: Webhook[] }>(`/merchants/${seg(merchantId)}/webhooks`),
    [merchantId],
  );
  const [round, setRound] = useState(0);
  return (
    <Page title="Webhooks">
      <Section title="Registered webhooks">
        <Loading data={webhooks.data} error={webhooks.error} />
        {webhooks.data && (
          <WebhookList merchantId={merchantId} webhooks={webhooks.data.webhooks} changed={webhooks.reload} />
        )}
      </Section>
      {canChange.value && (
        <Section title="Register a webhook">
          <Register
            merchantId={merchantId}
            registered={() => {
              webhooks.reload();
              setRound((r) => r + 1);
            }}
          />
        </Section>
      )}
      <Section title="Delivery log">
        <DeliveryLog key={round} merchantId={merchantId} webhooks={webhooks.data?.webhooks} />
      </Section>
    </Page>
  );
}
