/**
 * FTP logins (server/reporting/ftp.ts): failed logins are throttled per client address and
 * username, as on the HTTP API (the same counter when the gateway starts it); a login without
 * TLS is accepted from loopback only. The server is bound to loopback here, so the rule for other
 * addresses is checked on its decision function.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, FTPError } from 'basic-ftp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuthFailures } from '../security/auth-failures';
import { ftpLogin } from '../test-kit/ftp';
import { isLoopback, plainLoginAllowed, type RunningFtpServer, startFtpServer } from './ftp';

const USERS: Record<string, { password: string; merchantId: string }> = {
  alice: { password: 'alice-secret', merchantId: 'a'.repeat(32) },
  bob: { password: 'bob-secret', merchantId: 'b'.repeat(32) },
};
const authenticate = async (username: string, password: string) => {
  const user = USERS[username];
  return user && user.password === password ? user.merchantId : undefined;
};

describe('FTP logins', () => {
  let temp: string;
  let server: RunningFtpServer;
  beforeAll(async () => {
    temp = await mkdtemp(join(tmpdir(), 'ftp-logins-'));
    await mkdir(join(temp, 'root'));
    server = await startFtpServer({
      host: '127.0.0.1',
      port: 0,
      root: join(temp, 'root'),
      authenticate,
      authFailures: createAuthFailures(),
    });
  });
  afterAll(async () => {
    await server?.close();
    await rm(temp, { recursive: true, force: true });
  });

  it('throttles wrong passwords per address; another address still logs in', async () => {
    const replies: string[] = [];
    for (let i = 0; i < 14; i++) {
      const client = new Client(10_000);
      try {
        await client.access({ host: '127.0.0.1', port: server.port, user: 'alice', password: `guess-${i}` });
        replies.push('logged in');
      } catch (error) {
        replies.push(error instanceof FTPError ? `${error.code} ${error.message}` : String(error));
      } finally {
        client.close();
      }
    }
    expect(replies.slice(0, 10).every((r) => r.startsWith('530') && r.includes('Login incorrect'))).toBe(
      true,
    );
    expect(replies.slice(10).every((r) => r.startsWith('530') && r.includes('Too many failed logins'))).toBe(
      true,
    );
    // the right password from the throttled address waits too; from another address it works
    expect(await ftpLogin(server.port, '127.0.0.1', 'bob', 'bob-secret')).toMatch(/^530 .*Too many/);
    expect(await ftpLogin(server.port, '127.0.0.2', 'bob', 'bob-secret')).toMatch(/^230 /);
  });
});

describe('plain (non-TLS) FTP logins', () => {
  it('are allowed from loopback only', () => {
    for (const ip of ['127.0.0.1', '127.0.0.2', '::1', '::ffff:127.0.0.1']) {
      expect([ip, isLoopback(ip), plainLoginAllowed(ip, false)]).toEqual([ip, true, true]);
    }
    for (const ip of ['10.0.0.5', '192.168.1.20', '::ffff:10.0.0.5', '2001:db8::1', '128.0.0.1', undefined]) {
      expect([ip, plainLoginAllowed(ip, false)]).toEqual([ip, false]);
      // over TLS from anywhere
      expect([ip, plainLoginAllowed(ip, true)]).toEqual([ip, true]);
    }
  });
});
