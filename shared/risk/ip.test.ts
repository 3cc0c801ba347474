import { describe, expect, it } from 'vitest';
import { formatIp, ipInRange, parseIp, parseIpRange } from './ip';

const range = (text: string) => {
  const r = parseIpRange(text);
  if (typeof r === 'string') throw new Error(`${text}: ${r}`);
  return r;
};
const ip = (text: string) => {
  const a = parseIp(text);
  if (a === undefined) throw new Error(`${text}: not an address`);
  return a;
};

describe('parseIp', () => {
  it.each([
    ['0.0.0.0', 4, 0n],
    ['255.255.255.255', 4, 0xffffffffn],
    ['192.0.2.1', 4, 0xc0000201n],
    ['::', 6, 0n],
    ['::1', 6, 1n],
    ['2001:db8::1', 6, 0x20010db8000000000000000000000001n],
    ['2001:DB8:0:0:0:0:0:1', 6, 0x20010db8000000000000000000000001n],
    ['1:2:3:4:5:6:7::', 6, 0x00010002000300040005000600070000n],
    ['64:ff9b::192.0.2.33', 6, 0x0064ff9b0000000000000000c0000221n],
    ['::ffff:192.0.2.1', 4, 0xc0000201n],
    ['0:0:0:0:0:ffff:c000:0201', 4, 0xc0000201n],
  ] as const)('%s', (text, version, value) => {
    expect(parseIp(text)).toEqual({ version, value });
  });

  it.each([
    '',
    '1.2.3',
    '1.2.3.4.5',
    '256.0.0.1',
    '01.2.3.4',
    '1.2.3.4 ',
    '1::2::3',
    ':::',
    ':1:2:3:4:5:6:7',
    '1:2:3:4:5:6:7:8:9',
    '1:2:3:4:5:6:7',
    '12345::',
    'fe80::1%eth0',
    '1.2.3.4::',
    'g::1',
    'example.com',
  ])('refuses %j', (text) => {
    expect(parseIp(text)).toBeUndefined();
  });
});

describe('parseIpRange', () => {
  it('reads addresses as full-length ranges and CIDR prefixes', () => {
    expect(range('192.0.2.1')).toEqual({ version: 4, value: 0xc0000201n, prefix: 32 });
    expect(range('10.0.0.0/8')).toEqual({ version: 4, value: 0x0a000000n, prefix: 8 });
    expect(range('0.0.0.0/0')).toEqual({ version: 4, value: 0n, prefix: 0 });
    expect(range('2001:db8::/32')).toEqual({ version: 6, value: 0x20010db8n << 96n, prefix: 32 });
    expect(range('::/0')).toEqual({ version: 6, value: 0n, prefix: 0 });
  });

  it('turns IPv4-mapped IPv6 ranges into the IPv4 range', () => {
    expect(range('::ffff:10.0.0.0/104')).toEqual(range('10.0.0.0/8'));
    expect(range('::ffff:192.0.2.1')).toEqual(range('192.0.2.1'));
  });

  it.each([
    ['10.1.2.3/8', 'hostBits'],
    ['2001:db8::1/32', 'hostBits'],
    ['10.0.0.0/33', 'prefix'],
    ['2001:db8::/129', 'prefix'],
    ['10.0.0.0/08', 'prefix'],
    ['10.0.0.0/', 'prefix'],
    ['10.0.0.0/-1', 'prefix'],
    ['nope/8', 'address'],
    ['', 'address'],
  ] as const)('refuses %s as %s', (text, error) => {
    expect(parseIpRange(text)).toBe(error);
  });
});

describe('ipInRange', () => {
  it('IPv4: first and last address of a /24 are inside, their neighbours outside', () => {
    const net = range('198.51.100.0/24');
    expect(ipInRange(ip('198.51.100.0'), net)).toBe(true);
    expect(ipInRange(ip('198.51.100.255'), net)).toBe(true);
    expect(ipInRange(ip('198.51.99.255'), net)).toBe(false);
    expect(ipInRange(ip('198.51.101.0'), net)).toBe(false);
  });

  it('IPv6: first and last address of a /48 are inside, their neighbours outside', () => {
    const net = range('2001:db8:abcd::/48');
    expect(ipInRange(ip('2001:db8:abcd::'), net)).toBe(true);
    expect(ipInRange(ip('2001:db8:abcd:ffff:ffff:ffff:ffff:ffff'), net)).toBe(true);
    expect(ipInRange(ip('2001:db8:abcc:ffff:ffff:ffff:ffff:ffff'), net)).toBe(false);
    expect(ipInRange(ip('2001:db8:abce::'), net)).toBe(false);
  });

  it('never matches across IP versions, even for /0', () => {
    expect(ipInRange(ip('192.0.2.1'), range('::/0'))).toBe(false);
    expect(ipInRange(ip('2001:db8::1'), range('0.0.0.0/0'))).toBe(false);
    expect(ipInRange(ip('::ffff:192.0.2.1'), range('0.0.0.0/0'))).toBe(true);
  });
});

describe('formatIp', () => {
  it.each([
    ['192.0.2.1', '192.0.2.1'],
    ['::ffff:192.0.2.1', '192.0.2.1'],
    ['2001:0DB8:0000:0000:0000:0000:0000:0001', '2001:db8::1'],
    ['2001:db8:0:0:1:0:0:1', '2001:db8::1:0:0:1'],
    ['2001:db8:0:1:1:1:1:1', '2001:db8:0:1:1:1:1:1'],
    ['0:0:0:0:0:0:0:0', '::'],
    ['1:0:0:0:0:0:0:0', '1::'],
  ])('%s → %s', (text, canonical) => {
    expect(formatIp(ip(text))).toBe(canonical);
  });
});
