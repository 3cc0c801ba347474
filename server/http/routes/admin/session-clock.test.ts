/**
 * The operator's accounts keep real time on a gateway whose test clock runs: moving the sandbox's
 * clock (a day, a month) must neither sign the operator out nor move the gateway's TOTP window
 * away from the authenticator app's, which reads the wall clock. Through HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { totpCode } from '../../../security/totp';
import { ADMIN_TOKEN, addUser, adminCall, PASSWORD, signIn } from '../../../test-kit/admin';
import { type TestGateway, testGateway } from '../../../test-kit/gateway';

let gw: TestGateway;

beforeAll(async () => {
  gw = await testGateway({ testClock: true, env: { GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN } });
}, 60_000);
afterAll(() => gw?.cleanup());

const advance = async (by: string) => {
  const moved = await adminCall(gw.app, 'POST', '/admin/v1/clock', {
    token: ADMIN_TOKEN,
    body: { advance: by },
  });
  expect(moved.status).toBe(200);
  expect(Date.parse(moved.body.now)).toBeGreaterThan(Date.now() + 86_400_000 - 60_000);
};

describe('on the test clock', () => {
  it('a session outlives the sandbox clock moving a month on', async () => {
    await addUser(gw, 'clockwise', 'operator');
    const session = await signIn(gw.app, 'clockwise');
    await advance('30d');
    const read = await session.call('GET', '/admin/v1/session');
    expect(read.status).toBe(200);
    expect(read.body.user).toMatchObject({ username: 'clockwise' });
  });

  it('a TOTP code of the wall clock signs in after the sandbox clock moved a day on', async () => {
    await addUser(gw, 'timely', 'operator');
    const session = await signIn(gw.app, 'timely');
    const setup = await session.call('POST', '/admin/v1/session/totp', { password: PASSWORD });
    const secret: string = setup.body.secret;
    await advance('1d');
    const confirmed = await session.call('POST', '/admin/v1/session/totp/confirm', {
      code: totpCode(secret, new Date()),
    });
    expect(confirmed.status).toBe(200);
    // a new step, so the code is not the one just used
    const next = totpCode(secret, new Date(Date.now() + 30_000));
    const res = await adminCall(gw.app, 'POST', '/admin/v1/session', {
      body: { username: 'timely', password: PASSWORD, totp: next },
    });
    expect(res.status).toBe(200);
  });
});
