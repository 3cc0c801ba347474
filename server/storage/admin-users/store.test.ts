/**
 * The admin users' store on SQLite and PostgreSQL: users (unique usernames), the lock after
 * `limit` failures counted in the database, sessions, the audit log's pages, tokens' last use,
 * and the payments list's keyset pages.
 */
import { expect, it } from 'vitest';
import { newId } from '../../../shared/engine/core/ids';
import { asMinor } from '../../../shared/money';
import { adminUser } from '../../test-kit/fixtures/admin-users';
import { describeDialects, dialectStore } from '../../test-kit/store-dialects';
import type { AdminUser } from './store';

const user = (username: string, merchantId: string | null): AdminUser =>
  adminUser({
    id: newId(),
    username,
    role: merchantId === null ? 'operator' : 'merchant-admin',
    merchantId,
    passwordHash: 'scrypt$32768$8$1$c2FsdHNhbHRzYWx0c2FsdA$a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2U',
    createdAt: new Date('2026-11-24T10:00:00.123Z'),
  });

describeDialects('%s admin users store', (dialect) => {
  const store = dialectStore(dialect, 'gateway-admin-users-');

  it('keeps users with unique usernames, changes and lists them', async () => {
    const merchantId = newId();
    const op = user('op', null);
    const admin = user('shop', merchantId);
    expect(await store.insertAdminUser(op)).toBe(true);
    expect(await store.insertAdminUser(admin)).toBe(true);
    expect(await store.insertAdminUser({ ...user('op', null) })).toBe(false);
    expect(await store.getAdminUser(op.id)).toEqual(op);
    expect(await store.getAdminUserByUsername('shop')).toEqual(admin);
    expect((await store.listAdminUsers(merchantId)).map((u) => u.username)).toEqual(['shop']);
    expect(await store.countAdminUsers()).toBe(2);
    const lockedUntil = new Date('2026-11-24T11:00:00Z');
    await store.updateAdminUser(admin.id, {
      totpSecret: 'sealed',
      totpStep: 59_000_000,
      lockedUntil,
      disabledAt: lockedUntil,
    });
    expect(await store.getAdminUser(admin.id)).toMatchObject({
      totpSecret: 'sealed',
      totpStep: 59_000_000,
      lockedUntil,
      disabledAt: lockedUntil,
    });
  });

  it('locks after the limit of failures, counted in the database', async () => {
    const u = user('guesser', null);
    await store.insertAdminUser(u);
    const at = new Date('2026-11-24T12:00:00Z');
    for (let i = 0; i < 9; i++) expect(await store.recordLoginFailure(u.id, at, 10, 900_000)).toBeNull();
    expect((await store.getAdminUser(u.id))?.failedLogins).toBe(9);
    expect(await store.recordLoginFailure(u.id, at, 10, 900_000)).toEqual(new Date(at.getTime() + 900_000));
    expect(await store.getAdminUser(u.id)).toMatchObject({
      failedLogins: 0,
      lockedUntil: new Date(at.getTime() + 900_000),
    });
  });

  it('keeps sessions by their hash, and the audit log in pages', async () => {
    const session = {
      idHash: 'a'.repeat(64),
      userId: 'u1',
      createdAt: new Date(1000),
      lastSeenAt: new Date(1000),
      address: '10.0.0.1',
    };
    await store.insertAdminSession(session);
    await store.touchAdminSession(session.idHash, new Date(5000));
    expect(await store.getAdminSession(session.idHash)).toEqual({ ...session, lastSeenAt: new Date(5000) });
    await store.deleteAdminSessions('u1');
    expect(await store.getAdminSession(session.idHash)).toBeUndefined();

    for (let i = 0; i < 5; i++)
      await store.appendAudit({
        at: new Date(i),
        actor: 'op',
        actorId: null,
        role: 'operator',
        action: `a${i}`,
        target: null,
        merchantId: i % 2 === 0 ? 'm1' : null,
        address: null,
      });
    const first = await store.listAudit({ limit: 2 });
    const rest = await store.listAudit({ limit: 10, after: first[1]!.id });
    expect([...first, ...rest].map((e) => e.action)).toEqual(['a0', 'a1', 'a2', 'a3', 'a4']);
    expect((await store.listAudit({ limit: 10, merchantId: 'm1' })).map((e) => e.action)).toEqual([
      'a0',
      'a2',
      'a4',
    ]);
  });

  it('records a token’s last use', async () => {
    const merchantId = newId();
    const id = newId();
    await store.insertToken({
      id,
      merchantId,
      userId: newId(),
      secretHash: 'sha256:x',
      channelIds: [],
      environment: 'test',
      revokedAt: null,
      createdAt: new Date(0),
    });
    expect((await store.tokenLastUse(merchantId)).size).toBe(0);
    await store.recordTokenUse(id, new Date(60_000));
    expect(await store.tokenLastUse(merchantId)).toEqual(new Map([[id, new Date(60_000)]]));
  });

  it('lists payments newest first across channels in keyset pages', async () => {
    const merchantId = newId();
    const channels = [newId(), newId(), newId()];
    const ids: { id: string; at: number; channel: number }[] = [];
    for (let i = 0; i < 40; i++) {
      const id = newId();
      const at = 1_000_000 + Math.floor(i / 4) * 1000;
      ids.push({ id, at, channel: i % 3 });
      await store.insertPayment({
        id,
        merchantId,
        channelId: channels[i % 3]!,
        paymentType: 'DB',
        amount: asMinor(100),
        currency: 'EUR',
        resultCode: '000.100.110',
        resultDescription: '',
        shortId: '1',
        ndc: id,
        details: {},
        createdAt: new Date(at),
      });
    }
    const expected = ids
      .filter((p) => p.channel < 2)
      .sort((a, b) => b.at - a.at || (a.id < b.id ? 1 : -1))
      .map((p) => p.id);
    const seen: string[] = [];
    let before: { at: number; id: string } | undefined;
    for (;;) {
      const page = await store.listPaymentsPage({
        merchantId,
        channelIds: channels.slice(0, 2),
        limit: 7,
        ...(before ? { before } : {}),
      });
      seen.push(...page.map((p) => p.id));
      if (page.length < 7) break;
      const last = page[page.length - 1]!;
      before = { at: last.createdAt.getTime(), id: last.id };
    }
    expect(seen).toEqual(expected);
    expect(seen).toHaveLength(27);
  });
});
