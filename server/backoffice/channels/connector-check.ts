/**
 * "Check the connection" of a channel's connector (issue 33 point 4), for every face: one harmless
 * call with its credentials (server/connectors/check.ts) and what it found, audited as
 * `channel.connector-check`. A channel without a connector is refused, naming `connector`.
 */
import type { Channel } from '../../../shared/engine/core/model';
import { type ConnectionCheck, checkConnection, type Fetch } from '../../connectors/check';
import type { BackofficeContext } from '../context';
import { refused } from '../errors';

export type { ConnectionCheck };

export async function checkChannelConnector(
  ctx: BackofficeContext,
  channel: Channel,
  fetch: Fetch,
): Promise<ConnectionCheck> {
  const connector = channel.settings.connector;
  if (connector === undefined)
    throw refused(`channel ${channel.id} has no connector to check`, [
      { name: 'connector', value: null, message: 'is not set on this channel' },
    ]);
  const found = await checkConnection(fetch, connector);
  await ctx.audit('channel.connector-check', channel.id, channel.merchantId);
  return found;
}
