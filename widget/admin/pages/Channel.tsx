/**
 * A channel: its information, its connector and routes with each route's circuit, operators
 * change it (settings, connector, routes: credentials write-only), and its risk rules.
 */
import { useEffect } from 'preact/hooks';
import type { RouteCircuit } from '../../../shared/contract';
import { get, patch, seg } from '../api';
import { Loading } from '../components/Alert';
import { ChannelFacts, RoutesTable } from '../components/ChannelFacts';
import { ChannelForm } from '../components/ChannelForm';
import { ConnectorForm } from '../components/ConnectorForm';
import { Page, Section } from '../components/Page';
import { RiskRules } from '../components/RiskRules';
import { RoutesForm } from '../components/RoutesForm';
import { useLoad } from '../components/useLoad';
import { href } from '../router';
import { openMerchant } from '../state/merchant';
import { isOperator } from '../state/session';
import type { Channel } from '../types';

export function ChannelPage({ entityId }: { entityId: string }) {
  const channel = useLoad(() => get<Channel>(`/channels/${seg(entityId)}`), [entityId]);
  const circuits = useLoad(
    () => get<{ circuits: RouteCircuit[] }>(`/channels/${seg(entityId)}/circuits`),
    [entityId, channel.data],
  );
  const merchantId = channel.data?.merchantId;
  useEffect(() => {
    if (merchantId !== undefined) openMerchant(merchantId);
  }, [merchantId]);
  const c = channel.data;
  return (
    <Page title={c ? `Channel ${c.name}` : 'Channel'}>
      <Loading data={c} error={channel.error} />
      {c && (
        <>
          <p>
            <a href={href(`/merchants/${encodeURIComponent(c.merchantId)}`)}>Back to the merchant</a>
          </p>
          <ChannelFacts channel={c} />
          <Section title="Routes">
            <RoutesTable channel={c} {...(circuits.data ? { circuits: circuits.data.circuits } : {})} />
          </Section>
          {isOperator.value && (
            <>
              <Section title="Change the channel">
                <ChannelForm
                  channel={c}
                  submitLabel="Save channel"
                  save={async (body) => {
                    await patch<Channel>(`/channels/${seg(entityId)}`, body);
                    channel.reload();
                    return 'The channel was saved.';
                  }}
                />
              </Section>
              <Section title="Connector">
                <ConnectorForm key={c.entityId} channel={c} saved={channel.reload} />
              </Section>
              <Section title="Change the routes">
                <RoutesForm key={c.entityId} channel={c} saved={channel.reload} />
              </Section>
            </>
          )}
          <Section title="Risk rules">
            <RiskRules entityId={entityId} />
          </Section>
        </>
      )}
    </Page>
  );
}
