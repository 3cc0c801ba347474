/** A merchant: its channels (with their information), access tokens; operators create channels. */
import { useEffect } from 'preact/hooks';
import { get, post, seg } from '../api';
import { Loading } from '../components/Alert';
import { ChannelForm } from '../components/ChannelForm';
import { DataTable } from '../components/DataTable';
import { Page, Section } from '../components/Page';
import { Tokens } from '../components/Tokens';
import { useLoad } from '../components/useLoad';
import { formatDate } from '../format';
import { href } from '../router';
import { openMerchant } from '../state/merchant';
import { isOperator } from '../state/session';
import type { Channel, Merchant } from '../types';

function ChannelTable({ channels }: { channels: readonly Channel[] }) {
  if (channels.length === 0) return <p class="muted">No channels yet.</p>;
  return (
    <DataTable
      label="Channels"
      columns={['Name', 'entityId', 'Environment', 'Brands', '3-D Secure', 'Throttle', 'Connector']}
    >
      {channels.map((c) => (
        <tr key={c.entityId}>
          <td>
            <a href={href(`/channels/${encodeURIComponent(c.entityId)}`)}>{c.name}</a>
          </td>
          <td>
            <code>{c.entityId}</code>
          </td>
          <td>{c.environment ?? (c.mode === 'LIVE' ? 'live' : 'test')}</td>
          <td>{c.brands === null ? 'All' : c.brands.join(' ')}</td>
          <td>{c.threeDSecure ? 'On' : 'Off'}</td>
          <td>{c.throttlePerMinute ?? c.throttle ?? 'Default'}</td>
          <td>{c.connector === null ? 'Simulator' : c.connector.baseUrl}</td>
        </tr>
      ))}
    </DataTable>
  );
}

export function MerchantPage({ merchantId }: { merchantId: string }) {
  useEffect(() => openMerchant(merchantId), [merchantId]);
  const merchant = useLoad(() => get<Merchant>(`/merchants/${seg(merchantId)}`), [merchantId]);
  const channels = useLoad(
    () => get<{ channels: Channel[] }>(`/merchants/${seg(merchantId)}/channels`),
    [merchantId],
  );
  return (
    <Page title={merchant.data ? `Merchant ${merchant.data.name}` : 'Merchant'}>
      <Loading data={merchant.data} error={merchant.error} />
      {merchant.data && (
        <dl class="facts">
          <div>
            <dt>Merchant id</dt>
            <dd>
              <code>{merchant.data.id}</code>
            </dd>
          </div>
          <div>
            <dt>Created</dt>
            <dd>{formatDate(merchant.data.createdAt)}</dd>
          </div>
        </dl>
      )}
      <nav aria-label="Records of this merchant">
        <ul>
          <li>
            <a href={href(`/merchants/${encodeURIComponent(merchantId)}/registrations`)}>Saved cards</a>
          </li>
          <li>
            <a href={href(`/merchants/${encodeURIComponent(merchantId)}/requests`)}>Recent API requests</a>
          </li>
        </ul>
      </nav>
      <Section title="Channels">
        <Loading data={channels.data} error={channels.error} />
        {channels.data && <ChannelTable channels={channels.data.channels} />}
        {isOperator.value && (
          <>
            <h3>Create a channel</h3>
            <ChannelForm
              submitLabel="Create channel"
              save={async (body) => {
                const channel = await post<Channel>(`/merchants/${seg(merchantId)}/channels`, body);
                channels.reload();
                return `Channel ${channel.name} created: entityId ${channel.entityId}.`;
              }}
            />
          </>
        )}
      </Section>
      <Section title="Access tokens">
        <Tokens merchantId={merchantId} />
      </Section>
    </Page>
  );
}
