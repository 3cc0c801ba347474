/**
 * Passwords, session secrets and TOTP secrets never in clear: not in the data folder's bytes
 * (SQLite database, WAL) nor in what the gateway logs, whatever users do (sign in, fail, change
 * and reset passwords, set up TOTP). The demo users' file is the one place a generated password
 * is written, on a developer's machine, mode 0600 (session.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../security/logger';
import { totpCode } from '../../../security/totp';
import { ADMIN_TOKEN, addUser, adminCall, signIn } from '../../../test-kit/admin';
import { type TestGateway, testGateway } from '../../../test-kit/gateway';

const lines: string[] = [];
let gw: TestGateway;

beforeAll(async () => {
  gw = await testGateway({
    env: { GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN },
    logger: createLogger({ level: 'debug', stream: { write: (line: string) => lines.push(line) } }),
  });
}, 60_000);
afterAll(() => gw?.cleanup());

describe('admin secrets at rest and in logs', () => {
  it('never holds a password, session secret or TOTP secret in clear', async () => {
    const m = await gw.addMerchant({ channels: 1 });
    const secrets: string[] = ['first password 0001', 'second password 0002'];
    await addUser(gw, 'secret-keeper', 'merchant-admin', m.merchantId, secrets[0]);
    await adminCall(gw.app, 'POST', '/admin/v1/session', {
      body: { username: 'secret-keeper', password: 'wrong guess 12345' },
    });
    secrets.push('wrong guess 12345');
    const session = await signIn(gw.app, 'secret-keeper', secrets[0]);
    secrets.push(session.cookie.split('=')[1]!, session.csrf);
    await session.call('POST', '/admin/v1/session/password', {
      currentPassword: secrets[0],
      newPassword: secrets[1],
    });
    const setup = await session.call('POST', '/admin/v1/session/totp', { password: secrets[1] });
    secrets.push(setup.body.secret);
    await session.call('POST', '/admin/v1/session/totp/confirm', {
      code: totpCode(setup.body.secret, new Date()),
    });
    const created = await session.call('POST', '/admin/v1/users', {
      username: 'new-one',
      role: 'merchant-viewer',
    });
    secrets.push(created.body.password);
    const reset = await adminCall(gw.app, 'POST', `/admin/v1/users/${created.body.user.id}/reset-password`, {
      token: ADMIN_TOKEN,
    });
    secrets.push(reset.body.password);
    const token = await session.call('POST', `/admin/v1/merchants/${m.merchantId}/tokens`, {});
    secrets.push(token.body.accessToken);
    for (const s of secrets) expect(s.length).toBeGreaterThanOrEqual(12);

    const files = (await gw.dataFiles()).filter((f) => !f.path.endsWith('demo-users.json'));
    expect(files.some((f) => /\.(db|sqlite)/.test(f.path))).toBe(true);
    for (const { path, bytes } of files)
      for (const s of secrets) expect(bytes.includes(Buffer.from(s)), `${s} in ${path}`).toBe(false);
    const log = lines.join('\n');
    expect(log.length).toBeGreaterThan(0);
    for (const s of secrets) expect(log.includes(s), `${s} in the log`).toBe(false);
  });
});
