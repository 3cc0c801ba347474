import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { Client, FTPError } from 'basic-ftp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MerchantFileSystem, type RunningFtpServer, startFtpServer } from './ftp';

const MERCHANT_A = 'a'.repeat(32);
const MERCHANT_B = 'b'.repeat(32);
const USERS: Record<string, { password: string; merchantId: string }> = {
  alice: { password: 'alice-secret', merchantId: MERCHANT_A },
  bob: { password: 'bob-secret', merchantId: MERCHANT_B },
  mallory: { password: 'mallory-secret', merchantId: '../b' },
  carol: { password: 'carol-secret', merchantId: 'c'.repeat(32) },
};
const authenticate = async (username: string, password: string) => {
  const user = USERS[username];
  return user && user.password === password ? user.merchantId : undefined;
};

const SIGNALS = ['SIGTERM', 'SIGINT', 'SIGQUIT'] as const;
const REPORT = Buffer.concat([Buffer.from('ReconciliationType;PaymentType\r\n'), randomBytes(70_000)]);

let temp: string;
let root: string;
let aFolder: string;

beforeAll(async () => {
  temp = await mkdtemp(join(tmpdir(), 'ftp-test-'));
  root = join(temp, 'root');
  aFolder = join(root, MERCHANT_A);
  await mkdir(join(aFolder, 'archive'), { recursive: true });
  await mkdir(join(root, MERCHANT_B), { recursive: true });
  await writeFile(join(aFolder, 'reconciliation-2026-03-02.csv'), REPORT);
  await writeFile(join(aFolder, 'archive', 'reconciliation-2026-03-01.csv'), 'old\r\n');
  await writeFile(join(root, MERCHANT_B, 'b-secret.csv'), 'B only\r\n');
  await writeFile(join(temp, 'outside.txt'), 'outside the root\n');
  // Links out of A's folder must not exist for A; a link within it is followed.
  await symlink(join(root, MERCHANT_B, 'b-secret.csv'), join(aFolder, 'link-to-b.csv'));
  await symlink(join(root, MERCHANT_B), join(aFolder, 'link-to-b-folder'));
  await symlink(join(temp, 'outside.txt'), join(aFolder, 'link-outside.txt'));
  await symlink('reconciliation-2026-03-02.csv', join(aFolder, 'latest.csv'));
});

afterAll(async () => {
  await rm(temp, { recursive: true, force: true });
});

async function download(client: Client, path: string): Promise<Buffer> {
  const file = join(temp, `download-${randomBytes(6).toString('hex')}`);
  try {
    await client.downloadTo(file, path);
    return await readFile(file);
  } finally {
    await rm(file, { force: true });
  }
}

/** The FTP reply code of a failed command. */
async function refusal(promise: Promise<unknown>): Promise<number> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof FTPError) return error.code;
    throw error;
  }
  throw new Error('expected the server to refuse');
}

describe('FTP server (plain)', () => {
  let server: RunningFtpServer;
  const clients: Client[] = [];
  const connect = async (user: string, password: string) => {
    const client = new Client(10_000);
    clients.push(client);
    await client.access({ host: '127.0.0.1', port: server.port, user, password });
    return client;
  };

  let signalListeners: number[];

  beforeAll(async () => {
    signalListeners = SIGNALS.map((s) => process.listenerCount(s));
    server = await startFtpServer({ host: '127.0.0.1', port: 0, root, authenticate });
  });
  afterAll(async () => {
    for (const c of clients) c.close();
    await server.close();
  });

  it('listens on a random loopback port, and leaves the process signals alone', () => {
    expect(server.port).toBeGreaterThan(0);
    expect(SIGNALS.map((s) => process.listenerCount(s))).toEqual(signalListeners);
  });

  it('gives a merchant without a folder yet an empty one', async () => {
    const client = await connect('carol', 'carol-secret');
    expect(await client.list()).toEqual([]);
  });

  it('shows merchant A only its own folder, as /, without links that leave it', async () => {
    const client = await connect('alice', 'alice-secret');
    expect(await client.pwd()).toBe('/');
    const names = (await client.list()).map((f) => [f.name, f.isDirectory]);
    expect(names).toEqual([
      ['archive', true],
      ['latest.csv', false],
      ['reconciliation-2026-03-02.csv', false],
    ]);
    expect((await client.list('/archive')).map((f) => f.name)).toEqual(['reconciliation-2026-03-01.csv']);
    // `..` stops at the merchant's /
    expect((await client.list('../..')).map((f) => f.name)).toContain('reconciliation-2026-03-02.csv');
  });

  it('downloads a file byte for byte, also through a link inside the folder', async () => {
    const client = await connect('alice', 'alice-secret');
    expect((await download(client, 'reconciliation-2026-03-02.csv')).equals(REPORT)).toBe(true);
    expect((await download(client, '/latest.csv')).equals(REPORT)).toBe(true);
    expect(await client.size('reconciliation-2026-03-02.csv')).toBe(REPORT.length);
    await client.cd('archive');
    expect(await client.pwd()).toBe('/archive');
    expect((await download(client, 'reconciliation-2026-03-01.csv')).toString()).toBe('old\r\n');
    await client.cd('..');
    expect(await client.pwd()).toBe('/');
  });

  it("cannot reach merchant B's files or anything outside the folder", async () => {
    const client = await connect('alice', 'alice-secret');
    expect(await refusal(client.cd(`../${MERCHANT_B}`))).toBe(550);
    expect(await refusal(client.cd(`/../../${MERCHANT_B}`))).toBe(550);
    expect(await refusal(client.cd('link-to-b-folder'))).toBe(550);
    expect(await client.pwd()).toBe('/');
    for (const path of [
      `../${MERCHANT_B}/b-secret.csv`,
      `/../${MERCHANT_B}/b-secret.csv`,
      'link-to-b.csv',
      'link-to-b-folder/b-secret.csv',
      'link-outside.txt',
      '../outside.txt',
      '../../outside.txt',
      '/etc/passwd',
    ]) {
      expect(await refusal(download(client, path)), path).toBeGreaterThanOrEqual(500);
    }
    expect(await refusal(client.size('link-to-b.csv'))).toBe(550);
  });

  it('refuses uploads, appends, deletes, renames and mkdir, and leaves the folder as it was', async () => {
    const client = await connect('alice', 'alice-secret');
    const before = (await readdir(aFolder)).sort();
    expect(await refusal(client.uploadFrom(Readable.from(['new']), 'new.csv'))).toBe(502);
    expect(await refusal(client.appendFrom(Readable.from(['more']), 'reconciliation-2026-03-02.csv'))).toBe(
      502,
    );
    expect(await refusal(client.remove('reconciliation-2026-03-02.csv'))).toBe(502);
    expect(await refusal(client.rename('reconciliation-2026-03-02.csv', 'x.csv'))).toBe(502);
    expect(await refusal(client.send('MKD newdir'))).toBe(502);
    expect(await refusal(client.removeEmptyDir('archive'))).toBe(502);
    expect(await refusal(client.send('SITE CHMOD 777 reconciliation-2026-03-02.csv'))).toBe(502);
    expect(await refusal(client.send('PORT 127,0,0,1,4,1'))).toBe(502);
    expect((await readdir(aFolder)).sort()).toEqual(before);
    expect((await readFile(join(aFolder, 'reconciliation-2026-03-02.csv'))).equals(REPORT)).toBe(true);
  });

  it('merchant B sees only its own file', async () => {
    const client = await connect('bob', 'bob-secret');
    expect((await client.list()).map((f) => f.name)).toEqual(['b-secret.csv']);
    expect((await download(client, 'b-secret.csv')).toString()).toBe('B only\r\n');
    expect(
      await refusal(download(client, `../${MERCHANT_A}/reconciliation-2026-03-02.csv`)),
    ).toBeGreaterThanOrEqual(500);
  });

  it('refuses a wrong password, an unknown user and a merchant id that is not a folder name', async () => {
    expect(await refusal(connect('alice', 'wrong'))).toBe(530);
    expect(await refusal(connect('nobody', 'alice-secret'))).toBe(530);
    expect(await refusal(connect('mallory', 'mallory-secret'))).toBe(530);
    const client = new Client(10_000);
    clients.push(client);
    await client.connect('127.0.0.1', server.port);
    expect(await refusal(client.send('CWD /'))).toBe(530);
    expect(await refusal(client.send('RETR reconciliation-2026-03-02.csv'))).toBe(530);
  });
});

describe('FTP server (explicit FTPS)', () => {
  let server: RunningFtpServer;
  let certDir: string;
  const clients: Client[] = [];

  beforeAll(async () => {
    certDir = await mkdtemp(join(tmpdir(), 'ftps-cert-'));
    const key = join(certDir, 'key.pem');
    const cert = join(certDir, 'cert.pem');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-subj',
        '/CN=localhost',
        '-days',
        '1',
        '-keyout',
        key,
        '-out',
        cert,
      ],
      { stdio: 'ignore' },
    );
    server = await startFtpServer({
      host: '127.0.0.1',
      port: 0,
      root,
      authenticate,
      tls: { cert: await readFile(cert), key: await readFile(key) },
    });
  });
  afterAll(async () => {
    for (const c of clients) c.close();
    await server?.close();
    await rm(certDir, { recursive: true, force: true });
  });

  it('lists and downloads over TLS', async () => {
    const client = new Client(10_000);
    clients.push(client);
    await client.access({
      host: '127.0.0.1',
      port: server.port,
      user: 'alice',
      password: 'alice-secret',
      secure: true,
      secureOptions: { rejectUnauthorized: false },
    });
    expect((await client.list()).map((f) => f.name)).toContain('reconciliation-2026-03-02.csv');
    expect((await download(client, 'reconciliation-2026-03-02.csv')).equals(REPORT)).toBe(true);
    expect(await refusal(client.uploadFrom(Readable.from(['new']), 'new.csv'))).toBe(502);
  });

  it('refuses a login before AUTH TLS', async () => {
    const client = new Client(10_000);
    clients.push(client);
    expect(
      await refusal(
        client.access({ host: '127.0.0.1', port: server.port, user: 'alice', password: 'alice-secret' }),
      ),
    ).toBe(530);
  });
});

describe('MerchantFileSystem', () => {
  it('resolves paths lexically inside /, then refuses what leaves the folder on disk', async () => {
    const fs = new MerchantFileSystem(aFolder);
    expect(fs.clientPath('../../x')).toBe('/x');
    expect(fs.clientPath('/etc/passwd')).toBe('/etc/passwd');
    expect(fs.clientPath('..\\..\\x')).toBe('/x');
    expect(() => fs.clientPath('a\0b')).toThrow(/No such file/);
    await expect(fs.get('link-outside.txt')).rejects.toThrow('No such file or directory');
    await expect(fs.get('/etc/passwd')).rejects.toThrow('No such file or directory');
    await expect(fs.read('archive')).rejects.toThrow('Not a file');
    await expect(fs.chdir('latest.csv')).rejects.toThrow('Not a directory');
    const file = await fs.get('latest.csv');
    expect([file.isFile(), file.size, file.mode & 0o222]).toEqual([true, REPORT.length, 0]);
  });

  it('throws on every write whatever the command layer lets through', () => {
    const fs = new MerchantFileSystem(aFolder);
    for (const write of [fs.write, fs.delete, fs.mkdir, fs.rename, fs.chmod, fs.getUniqueName]) {
      expect(() => write.call(fs)).toThrow('Permission denied: read-only');
    }
  });

  it('reads from an offset (REST)', async () => {
    const fs = new MerchantFileSystem(aFolder);
    const { stream, clientPath } = await fs.read('reconciliation-2026-03-02.csv', { start: 10 });
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    expect(clientPath).toBe('/reconciliation-2026-03-02.csv');
    expect(Buffer.concat(chunks).equals(REPORT.subarray(10))).toBe(true);
  });
});
