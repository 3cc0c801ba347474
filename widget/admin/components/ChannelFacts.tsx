/**
 * A channel's information: entityId, environment, brands, 3-D Secure, throttle, its connector
 * (kind, address, merchant account or entity: never its credentials) and its routes in order,
 * each with its rules and its circuit breaker's state (GET …/circuits).
 */
import type { RouteCircuit } from '../../../shared/contract';
import type { Channel } from '../types';
import { DataTable } from './DataTable';
import { Facts } from './KeyValues';

type Shown = NonNullable<Channel['connector']>;

const KIND_NAMES: Readonly<Record<string, string>> = { opp: 'opp', adyen: 'Adyen', stripe: 'Stripe' };

/** A connector in words: its kind, address and account (the credentials are never answered). */
export function connectorInWords(c: Shown): string {
  const kind = (c as { kind?: string }).kind ?? 'opp';
  const account =
    'merchantAccount' in c
      ? `, merchant account ${c.merchantAccount}`
      : 'entityId' in c && c.entityId !== undefined
        ? `, entity ${c.entityId}`
        : '';
  return `${KIND_NAMES[kind] ?? kind} at ${c.baseUrl}${account}`;
}

const CIRCUITS: Readonly<Record<RouteCircuit['state'], string>> = {
  closed: 'Closed (in use)',
  open: 'Open (skipped for a cool-down after failing)',
  'half-open': 'Half-open (being tried again)',
};

function rules(r: NonNullable<Channel['routes']>[number]): string {
  const parts = [
    r.brands && `brands ${r.brands.join(', ')}`,
    r.countries && `card countries ${r.countries.join(', ')}`,
    r.currencies && `currencies ${r.currencies.join(', ')}`,
    r.minAmount !== undefined && `from ${r.minAmount} minor units`,
    r.maxAmount !== undefined && `up to ${r.maxAmount} minor units`,
  ].filter((p): p is string => typeof p === 'string');
  return parts.length === 0 ? 'Any payment' : parts.join('; ');
}

export function RoutesTable({ channel, circuits }: { channel: Channel; circuits?: readonly RouteCircuit[] }) {
  const routes = channel.routes ?? [];
  if (routes.length === 0)
    return <p class="muted">No routes: the channel's one connector, or the simulator.</p>;
  return (
    <DataTable label="Routes, tried in order" columns={['Order', 'Connector', 'Rules', 'Circuit']}>
      {routes.map((r, i) => {
        const state = circuits?.find((c) => c.route === i)?.state;
        return (
          <tr key={i}>
            <td>{i + 1}</td>
            <td>{connectorInWords(r.connector)}</td>
            <td>{rules(r)}</td>
            <td>{state === undefined ? '—' : CIRCUITS[state]}</td>
          </tr>
        );
      })}
    </DataTable>
  );
}

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
    ['Connector', channel.connector === null ? 'None (simulator)' : connectorInWords(channel.connector)],
    ['Routes', channel.routes == null ? 'None' : `${channel.routes.length} in order (below)`],
  ];
  if (channel.bankAccount) rows.push(['Bank account', channel.bankAccount.iban]);
  return <Facts rows={rows} />;
}
