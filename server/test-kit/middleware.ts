/** What the middleware tests share: an envelope with a fixed clock, a store with one merchant. */
import type { Context } from 'hono';
import type { AccessToken, Channel, ChannelMode } from '../../shared/engine/core/model';
import type { Store } from '../../shared/engine/core/ports';
import { buildNumber, envelope } from '../http/middleware/envelope';
import { newToken } from '../security/tokens';
import { memoryStore } from './engine/memory-store';

export const testEnvelope = () => envelope(buildNumber('0'.repeat(40), new Date(0)), () => new Date(0));

export const MERCHANT = 'a'.repeat(32);

export const channelOf = (id: string, mode: ChannelMode = 'TEST', merchantId = MERCHANT): Channel => ({
  id,
  merchantId,
  name: id.slice(0, 4),
  mode,
  settings: {},
  createdAt: new Date(0),
});

/** A merchant with a test channel, a second test channel and a live one, and a token for all its test channels. */
export async function merchantFixture(options: { dispatching?: boolean; channelIds?: string[] } = {}) {
  const store: Store = memoryStore();
  await store.insertMerchant({
    id: MERCHANT,
    name: 'm',
    createdAt: new Date(0),
    ...(options.dispatching === undefined ? {} : { dispatching: options.dispatching }),
  });
  const test = channelOf('1'.repeat(32));
  const second = channelOf('2'.repeat(32));
  const live = channelOf('3'.repeat(32), 'LIVE');
  for (const ch of [test, second, live]) await store.insertChannel(ch);
  const t = newToken();
  const token: AccessToken = {
    id: 'tok1',
    merchantId: MERCHANT,
    userId: t.userId,
    secretHash: t.secretHash,
    channelIds: options.channelIds ?? [],
    revokedAt: null,
    createdAt: new Date(0),
  };
  await store.insertToken(token);
  return { store, token, secret: t.secret, bearer: `Bearer ${t.token}`, test, second, live };
}

/** The JSON envelope's result of an answer. */
export const resultOf = async (res: Response) =>
  ((await res.json()) as { result: { code: string; description: string } }).result;

/** A handler that answers the context's variables it names as JSON. */
export const echo =
  (...names: string[]) =>
  (c: Context) =>
    c.json(Object.fromEntries(names.map((n) => [n, c.get(n as never)])));
