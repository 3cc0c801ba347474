import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { AccessToken } from '../../../../shared/engine/core/model';
import { channelOf, MERCHANT, merchantFixture, resultOf, testEnvelope } from '../../../test-kit/middleware';
import { cachedChannels, channel, mayUse, resolveChannel, usableChannels } from '.';

const env = testEnvelope();

describe('mayUse', () => {
  const token = { merchantId: MERCHANT, channelIds: [] as string[] } as unknown as AccessToken;
  const mine = channelOf('1'.repeat(32));

  it('the merchant own channels of the environment', () => {
    expect(mayUse(token, mine, 'test')).toBe(true);
    expect(mayUse(token, mine, 'live')).toBe(false);
    expect(mayUse(token, channelOf('1'.repeat(32), 'TEST', 'b'.repeat(32)), 'test')).toBe(false);
  });

  it('only those a token names, when it names some', () => {
    const named = { ...token, channelIds: ['2'.repeat(32)] };
    expect(mayUse(named, mine, 'test')).toBe(false);
    expect(mayUse(named, channelOf('2'.repeat(32)), 'test')).toBe(true);
  });
});

describe('resolveChannel', () => {
  it('needs the entityId when the token may use more than one channel of the environment', async () => {
    const { store, token, test } = await merchantFixture();
    expect(await resolveChannel(store, token, undefined, 'test')).toMatchObject({ ok: false, status: 403 });
    expect(await resolveChannel(store, token, test.id, 'test')).toEqual({ ok: true, channel: test });
    // the live channel is the token's only one there
    expect((await usableChannels(store, token, 'live')).map((c) => c.mode)).toEqual(['LIVE']);
  });

  it('dispatches by the merchant id only when the merchant has dispatching on', async () => {
    const off = await merchantFixture();
    expect(await resolveChannel(off.store, off.token, MERCHANT, 'test')).toMatchObject({
      ok: false,
      status: 403,
    });
    const on = await merchantFixture({ dispatching: true });
    expect(await resolveChannel(on.store, on.token, MERCHANT, 'test')).toEqual({
      ok: true,
      channel: on.test,
    });
  });
});

describe('channel middleware', () => {
  async function app() {
    const f = await merchantFixture();
    const a = new Hono<{ Variables: { token: AccessToken; request: unknown } }>();
    a.use(async (c, next) => {
      c.set('token', f.token);
      c.set('request', { entityId: c.req.query('entityId') });
      await next();
    });
    a.get('/', channel({ env, environment: 'test' }, cachedChannels(f.store)), (c) =>
      c.text(c.var.channel.id),
    );
    return { a, f };
  }

  it('leaves the channel the entityId names on the context', async () => {
    const { a, f } = await app();
    expect(await (await a.request(`/?entityId=${f.test.id}`)).text()).toBe(f.test.id);
  });

  it('answers 403 for a channel of the other environment', async () => {
    const { a, f } = await app();
    const res = await a.request(`/?entityId=${f.live.id}`);
    expect(res.status).toBe(403);
    expect((await resultOf(res)).description).toBe(
      'invalid authentication information: this token may not use that entityId',
    );
  });
});
