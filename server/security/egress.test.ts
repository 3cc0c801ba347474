/**
 * The egress policy as tables: addresses, URLs and names allowed or refused on a developer's
 * machine and in production, the allow-list by host, address and CIDR, IPv6 and the IPv4 forms
 * hidden in it; then its fetch against real servers on loopback (names resolved by an injected
 * resolver: no DNS, no internet).
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { classifyAddress, egressOptionsFromEnv, egressPolicy, parseAllowList, type Resolve } from './egress';

const dev = egressPolicy({ production: false });
const prod = egressPolicy({ production: true });

describe('classifyAddress', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['::1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['0:0:0:0:0:ffff:7f00:1', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['::ffff:10.0.0.1', 'private'],
    ['64:ff9b::a00:1', 'private'], // NAT64 of 10.0.0.1
    ['2002:a00:1::1', 'private'], // 6to4 of 10.0.0.1
    ['100.64.0.1', 'shared'],
    ['100.127.255.255', 'shared'],
    ['169.254.1.1', 'link-local'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['febf::1', 'link-local'],
    ['fc00::1', 'unique-local'],
    ['fd12:3456::1', 'unique-local'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['::', 'unspecified'],
    ['169.254.169.254', 'metadata'],
    ['::ffff:169.254.169.254', 'metadata'],
    ['fd00:ec2::254', 'metadata'],
    ['100.100.100.200', 'metadata'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['ff02::1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['240.0.0.1', 'reserved'],
    ['192.0.2.1', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['2001:db8::1', 'reserved'],
    ['::1.2.3.4', 'reserved'], // IPv4-compatible
    // IPv4-translated (SIIT, ::ffff:0:0:0/96) and NAT64 (64:ff9b::/96): the IPv4 inside decides
    ['::ffff:0:7f00:1', 'loopback'],
    ['::ffff:0:127.0.0.1', 'loopback'],
    ['0:0:0:0:ffff:0:a9fe:a9fe', 'metadata'],
    ['::ffff:0:a9fe:a9fe', 'metadata'],
    ['::ffff:0:a00:1', 'private'],
    ['64:ff9b::7f00:1', 'loopback'],
    ['64:ff9b::127.0.0.1', 'loopback'],
    ['64:ff9b::a9fe:a9fe', 'metadata'],
    ['64:ff9b::c0a8:1', 'private'],
  ])('%s is %s', (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
  });

  it.each([
    '8.8.8.8',
    '93.184.216.34',
    '11.0.0.1',
    '172.15.255.255',
    '172.32.0.1',
    '100.63.255.255',
    '100.128.0.1',
    '192.169.0.1',
    '169.253.255.255',
    '223.255.255.255',
    '2001:4860:4860::8888',
    '2a00:1450:4001:80b::200e',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    '2002:808:808::1',
  ])('%s is public', (address) => {
    expect(classifyAddress(address)).toBeUndefined();
  });
});

describe('checkUrl', () => {
  const LOOPBACK = [
    'http://127.0.0.1/x',
    'http://127.1:8080/x',
    'http://2130706433/',
    'http://0x7f000001/',
    'http://0x7f.1/',
    'http://0177.0.0.1/',
    'http://127.0.0.1./',
    'http://%31%32%37.0.0.1/',
    'http://[::1]/',
    'http://[::ffff:7f00:1]/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::ffff:0:7f00:1]/',
    'http://[::ffff:0:127.0.0.1]/',
    'http://[64:ff9b::7f00:1]/',
    'http://[64:ff9b::127.0.0.1]/',
    'http://localhost/',
    'http://LocalHost./',
    'http://shop.localhost/',
    'https://localhost:8443/',
  ];
  const ALWAYS_REFUSED = [
    'http://0.0.0.0/',
    'http://0/',
    'http://[::]/',
    'http://10.0.0.1/',
    'http://012.0.0.1/',
    'http://167772161/', // 10.0.0.1
    'http://172.16.0.1/',
    'http://192.168.0.1/',
    'http://100.64.0.1/',
    'http://169.254.169.254/latest/meta-data/',
    'http://[::ffff:a9fe:a9fe]/',
    'http://[::ffff:0:a9fe:a9fe]/',
    'http://[64:ff9b::a9fe:a9fe]/',
    'http://[::ffff:0:a00:1]/',
    'http://metadata.google.internal/computeMetadata/v1/',
    'http://METADATA.GOOGLE.INTERNAL./',
    'http://[fd00:ec2::254]/',
    'http://[fe80::1]/',
    'http://[fc00::1]/',
    'http://224.0.0.1/',
    'http://255.255.255.255/',
    'http://[ff02::1]/',
  ];
  const PUBLIC = [
    'https://shop.example/notify?x=1',
    'http://93.184.216.34/',
    'http://[2001:4860:4860::8888]/',
    'https://127.0.0.1.nip.io/', // a name: checked at connection
    'https://localhost.example/',
  ];

  it.each(LOOPBACK)('%s: allowed on a developer machine, refused in production', (url) => {
    expect(dev.checkUrl(url)).toBeUndefined();
    expect(prod.checkUrl(url)).toMatch(/^must not point to a loopback address \(/);
  });
  it.each(ALWAYS_REFUSED)('%s: refused everywhere', (url) => {
    expect(dev.checkUrl(url)).toMatch(/^must not point to /);
    expect(prod.checkUrl(url)).toMatch(/^must not point to /);
  });
  it.each(PUBLIC)('%s: allowed everywhere', (url) => {
    expect(dev.checkUrl(url)).toBeUndefined();
    expect(prod.checkUrl(url)).toBeUndefined();
  });
  it('names the normalised address', () => {
    expect(prod.checkUrl('http://0x7f000001/')).toBe('must not point to a loopback address (127.0.0.1)');
    expect(prod.checkUrl('http://[::ffff:127.0.0.1]/')).toBe(
      'must not point to a loopback address (::ffff:7f00:1)',
    );
    expect(dev.checkUrl('http://169.254.169.254/')).toBe(
      'must not point to a cloud metadata address (169.254.169.254)',
    );
  });
  it.each([
    'file:///etc/passwd',
    'ftp://example.com/',
    'gopher://127.0.0.1:25/',
    'not a url',
    'javascript:alert(1)',
  ])('%s: not http(s)', (url) => {
    expect(dev.checkUrl(url)).toMatch(/^must be an (absolute|http)/);
  });
});

describe('GATEWAY_CALLBACK_ALLOW', () => {
  it('allows listed addresses, CIDRs (IPv4 and IPv6) and hosts, and nothing else', () => {
    const p = egressPolicy({
      production: true,
      allow: ' 127.0.0.1, 10.0.0.0/8 ,fd00::/8, [::1], Internal.Shop.,,127.2',
    });
    expect(p.checkUrl('http://127.0.0.1:9/')).toBeUndefined();
    expect(p.checkUrl('http://127.1:9/')).toBeUndefined();
    expect(p.checkUrl('http://[::ffff:127.0.0.1]/')).toBeUndefined();
    expect(p.checkUrl('http://127.0.0.2/')).toBeUndefined(); // 127.2
    expect(p.checkUrl('http://127.0.0.3/')).toMatch(/loopback/);
    expect(p.checkUrl('http://10.200.3.4/')).toBeUndefined();
    expect(p.checkUrl('http://11.0.0.1/')).toBeUndefined();
    expect(p.checkUrl('http://192.168.1.1/')).toMatch(/private/);
    expect(p.checkUrl('http://[fd12::1]/')).toBeUndefined();
    expect(p.checkUrl('http://[fc00::1]/')).toMatch(/unique-local/);
    expect(p.checkUrl('http://[::1]/')).toBeUndefined();
    expect(p.checkUrl('http://internal.shop/')).toBeUndefined();
    expect(p.checkUrl('http://localhost/')).toMatch(/loopback/);
    expect(p.checkAddress('10.1.1.1')).toBeUndefined();
    expect(p.checkAddress('169.254.169.254')).toMatch(/metadata/);
  });
  it('allows the names below a *.domain entry, not the domain itself', () => {
    const p = egressPolicy({ production: true, allow: '*.corp.internal' });
    expect(p.checkUrl('http://shop.corp.internal/')).toBeUndefined();
    expect(p.checkAddress('10.0.0.1')).toMatch(/private/);
    expect(p.checkUrl('http://localhost/')).toMatch(/loopback/);
  });
  it('allows localhost by name', () => {
    expect(
      egressPolicy({ production: true, allow: 'localhost' }).checkUrl('http://localhost:3000/'),
    ).toBeUndefined();
  });
  it.each([
    '10.0.0.0/33',
    '10.0.0.0/x',
    'fd00::/129',
    'http://shop.example/',
    'shop.example:8080',
    'a/b',
    'user@host',
    '*.10.0.0.1',
    '*.',
  ])('refuses the entry %s at start', (entry) => {
    expect(() => parseAllowList(entry)).toThrow(/GATEWAY_CALLBACK_ALLOW/);
  });
  it('is read from the environment with NODE_ENV, options winning', () => {
    expect(egressOptionsFromEnv({ NODE_ENV: 'production', GATEWAY_CALLBACK_ALLOW: '10.0.0.1' })).toEqual({
      production: true,
      allow: '10.0.0.1',
    });
    expect(egressOptionsFromEnv({}).production).toBe(false);
    expect(egressOptionsFromEnv({ NODE_ENV: 'production' }, { production: false }).production).toBe(false);
  });
});

describe('fetch through the policy', () => {
  let server: Server;
  let base: string;
  let port: number;
  const hits: { url: string; method: string; headers: IncomingHttpHeaders; body: string }[] = [];
  let answer: (url: string) => { status: number; headers?: Record<string, string>; body?: string } = () => ({
    status: 200,
    body: '{"ok":true}',
  });

  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        hits.push({
          url: req.url ?? '',
          method: req.method ?? '',
          headers: req.headers,
          body: Buffer.concat(chunks).toString(),
        });
        const a = answer(req.url ?? '');
        if (a.status === 0) return; // never answer
        res.writeHead(a.status, a.headers).end(a.body);
      });
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    port = (server.address() as AddressInfo).port;
    base = `http://127.0.0.1:${port}`;
  });
  afterAll(
    () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  );
  beforeEach(() => {
    hits.length = 0;
    answer = () => ({ status: 200, body: '{"ok":true}' });
  });

  /** A resolver of test names, counting its calls. */
  const resolver = (table: Record<string, string[]>) => {
    const calls: string[] = [];
    const resolve: Resolve = async (hostname) => {
      calls.push(hostname);
      const addresses = table[hostname];
      if (addresses === undefined)
        throw Object.assign(new Error(`ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
      return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    };
    return { calls, resolve };
  };

  it('sends method, headers and body, and answers like fetch', async () => {
    const res = await dev.fetch(`${base}/hook?x=1`, {
      method: 'POST',
      body: 'hello',
      headers: { 'Content-Type': 'text/plain', 'X-Test': 'yes' },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true });
    expect(hits).toEqual([expect.objectContaining({ url: '/hook?x=1', method: 'POST', body: 'hello' })]);
    expect(hits[0]!.headers).toMatchObject({
      'content-type': 'text/plain',
      'x-test': 'yes',
      'content-length': '5',
    });
  });

  it('refuses a loopback URL in production before connecting', async () => {
    for (const url of [
      `${base}/x`,
      `http://127.1:${port}/x`,
      `http://localhost:${port}/x`,
      `http://[::ffff:7f00:1]:${port}/`,
    ]) {
      const error = await prod.fetch(url).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TypeError);
      expect(String((error as Error).cause)).toMatch(/loopback/);
    }
    expect(hits).toEqual([]);
  });

  it('checks what a name resolves to, once, and connects to that address', async () => {
    const names = resolver({ 'shop.test': ['127.0.0.1'], 'mixed.test': ['127.0.0.1', '10.0.0.1'] });
    const strict = egressPolicy({ production: true, resolve: names.resolve });
    const error = await strict.fetch(`http://shop.test:${port}/x`).catch((e: unknown) => e);
    expect(String((error as Error).cause)).toMatch(
      /shop\.test resolves to 127\.0\.0\.1, a loopback address, refused/,
    );
    expect(hits).toEqual([]);

    const lenient = egressPolicy({ production: false, resolve: names.resolve });
    names.calls.length = 0;
    const res = await lenient.fetch(`http://shop.test:${port}/y`);
    expect(res.status).toBe(200);
    expect(names.calls).toEqual(['shop.test']);
    expect(hits.map((h) => [h.url, h.headers.host])).toEqual([['/y', `shop.test:${port}`]]);

    // every address is checked: one private address among them refuses the name
    const mixed = await lenient.fetch(`http://mixed.test:${port}/z`).catch((e: unknown) => e);
    expect(String((mixed as Error).cause)).toMatch(/mixed\.test resolves to 10\.0\.0\.1, a private address/);
    expect(hits).toHaveLength(1);
  });

  it('gives sockets a lookup (one address or all of them) that refuses as fetch does', async () => {
    const names = resolver({ 'shop.test': ['127.0.0.1', '::1'], 'far.test': ['93.184.216.34'] });
    const p = egressPolicy({ production: true, resolve: names.resolve });
    const lookup = (host: string, options: { all?: boolean; family?: number }) =>
      new Promise<unknown>((done) =>
        p.lookup(host, options, (error, address, family) => done(error ?? { address, family })),
      );
    expect(String(await lookup('shop.test', { all: true }))).toMatch(/127\.0\.0\.1, a loopback address/);
    expect(await lookup('far.test', {})).toEqual({ address: '93.184.216.34', family: 4 });
    expect(await lookup('far.test', { all: true })).toEqual({
      address: [{ address: '93.184.216.34', family: 4 }],
      family: undefined,
    });
    expect(String(await lookup('far.test', { family: 6 }))).toMatch(/no IPv6 address/);
  });

  it('lets an allow-listed host or address through in production', async () => {
    const names = resolver({ 'shop.test': ['127.0.0.1'], 'other.test': ['127.0.0.1'] });
    const byHost = egressPolicy({ production: true, allow: 'shop.test', resolve: names.resolve });
    expect((await byHost.fetch(`http://shop.test:${port}/a`)).status).toBe(200);
    await expect(byHost.fetch(`http://other.test:${port}/b`)).rejects.toThrow('fetch failed');
    const byCidr = egressPolicy({ production: true, allow: '127.0.0.0/8', resolve: names.resolve });
    expect((await byCidr.fetch(`http://other.test:${port}/c`)).status).toBe(200);
    expect((await byCidr.fetch(`${base}/d`)).status).toBe(200);
    expect(hits.map((h) => h.url)).toEqual(['/a', '/c', '/d']);
  });

  it('follows no redirect: the 3xx is the answer', async () => {
    answer = (url) =>
      url === '/from'
        ? { status: 302, headers: { Location: `${base}/to` } }
        : { status: 200, body: 'reached' };
    const res = await dev.fetch(`${base}/from`, { redirect: 'follow' });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(`${base}/to`);
    expect(hits.map((h) => h.url)).toEqual(['/from']);
  });

  it('gives up when the signal says so, as fetch does', async () => {
    answer = () => ({ status: 0 });
    const error = await dev
      .fetch(`${base}/slow`, { signal: AbortSignal.timeout(100) })
      .catch((e: unknown) => e);
    expect((error as Error).name).toBe('TimeoutError');
    expect(error).toBeInstanceOf(DOMException);
  });

  it('reports a closed port as fetch does: TypeError with the cause', async () => {
    const closed = createServer();
    await new Promise<void>((done) => closed.listen(0, '127.0.0.1', done));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((done) => closed.close(() => done()));
    const error = await dev.fetch(`http://127.0.0.1:${closedPort}/`).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect(String((error as Error).cause)).toMatch(/ECONNREFUSED/);
  });

  it('answers 204 and HEAD without a body', async () => {
    answer = () => ({ status: 204 });
    const res = await dev.fetch(`${base}/none`, { method: 'DELETE' });
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
  });
});
