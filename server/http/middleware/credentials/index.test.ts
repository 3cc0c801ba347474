import { describe, expect, it } from 'vitest';
import { memoryStore } from '../../../../shared/engine/core/memory-store';
import { newToken } from '../../../security/tokens';
import { tokenChecker } from '.';

describe('tokenChecker', () => {
  async function setup() {
    const store = memoryStore();
    const t = newToken();
    await store.insertToken({
      id: 'tok1',
      merchantId: 'm'.repeat(32),
      userId: t.userId,
      secretHash: t.secretHash,
      channelIds: [],
      revokedAt: null,
      createdAt: new Date(0),
    });
    let clock = 1_000;
    const check = tokenChecker(store, () => clock, 5_000);
    return { store, t, check, advance: (ms: number) => (clock += ms) };
  }

  it('a wrong secret fails even right after the right one succeeded (the cache is per secret)', async () => {
    const { t, check } = await setup();
    const right = { kind: 'credentials', userId: t.userId, secret: t.secret } as const;
    expect(await check(right)).toMatchObject({ ok: true });
    expect(await check(right)).toMatchObject({ ok: true });
    expect(await check({ ...right, secret: `${t.secret.slice(0, -1)}x` })).toMatchObject({
      ok: false,
      status: 403,
    });
  });

  it('a revoked token is refused once its cached entry has expired', async () => {
    const { store, t, check, advance } = await setup();
    const right = { kind: 'credentials', userId: t.userId, secret: t.secret } as const;
    expect(await check(right)).toMatchObject({ ok: true });
    await store.revokeToken('tok1', new Date());
    advance(5_001);
    expect(await check(right)).toMatchObject({ ok: false, status: 403 });
  });
});
