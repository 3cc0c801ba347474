/** A channel: its information, operators change it, and its risk rules (admins edit them). */
import { useEffect } from 'preact/hooks';
import { get, patch, seg } from '../api';
import { Loading } from '../components/Alert';
import { ChannelFacts } from '../components/ChannelFacts';
import { ChannelForm } from '../components/ChannelForm';
import { Page, Section } from '../components/Page';
import { RiskRules } from '../components/RiskRules';
import { useLoad } from '../components/useLoad';
import { href } from '../router';
import { openMerchant } from '../state/merchant';
import { isOperator } from '../state/session';
import type { Channel } from '../types';

export function ChannelPage({ entityId }: { entityId: string }) {
  const channel = useLoad(() => get<Channel>(`/channels/${seg(entityId)}`), [entityId]);
  const merchantId = channel.data?.merchantId;
  useEffect(() => {
    if (merchantId !== undefined) openMerchant(merchantId);
  }, [merchantId]);
  return (
    <Page title={channel.data ? `Channel ${channel.data.name}` : 'Channel'}>
      <Loading data={channel.data} error={channel.error} />
      {channel.data && (
        <>
          <p>
            <a href={href(`/merchants/${encodeURIComponent(channel.data.merchantId)}`)}>
              Back to the merchant
            </a>
          </p>
          <ChannelFacts channel={channel.data} />
          {isOperator.value && (
            <Section title="Change the channel">
              <ChannelForm
                channel={channel.data}
                submitLabel="Save channel"
                save={async (body) => {
                  await patch<Channel>(`/channels/${seg(entityId)}`, body);
                  channel.reload();
                  return 'The channel was saved.';
                }}
              />
            </Section>
          )}
          <Section title="Risk rules">
            <RiskRules entityId={entityId} />
          </Section>
        </>
      )}
    </Page>
  );
}
