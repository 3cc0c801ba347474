/** A channel's information: entityId, environment, brands, 3-D Secure, throttle, connector. */
import type { Channel } from '../types';

export function ChannelFacts({ channel }: { channel: Channel }) {
  const throttle = channel.throttlePerMinute ?? channel.throttle ?? null;
  const rows: [string, string][] = [
    ['entityId', channel.entityId],
    ['Name', channel.name],
    ['Environment', channel.environment ?? (channel.mode === 'LIVE' ? 'live' : 'test')],
    ['Brands', channel.brands === null ? 'All brands' : channel.brands.join(', ')],
    ['Currencies', channel.currencies === null ? 'Any currency' : channel.currencies.join(', ')],
    ['3-D Secure', channel.threeDSecure ? 'On' : 'Off'],
    ['Throttle', throttle === null ? "The gateway's default" : `${throttle} requests per minute`],
    [
      'Connector',
      channel.connector === null
        ? 'None (simulator)'
        : `${channel.connector.baseUrl} (${channel.connector.entityId})`,
    ],
  ];
  if (channel.bankAccount) rows.push(['Bank account', channel.bankAccount.iban]);
  return (
    <dl class="facts">
      {rows.map(([name, value]) => (
        <div key={name}>
          <dt>{name}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
