/**
 * IPv4 and IPv6 addresses and CIDR ranges for the risk rules, without Node's `net`.
 *
 * Addresses are parsed strictly: dotted-quad IPv4 without leading zeros (`010.0.0.1` is ambiguous —
 * octal to some parsers — and refused), IPv6 in any RFC 4291 text form (`::` compression, an embedded
 * dotted-quad tail), no zone ids (`fe80::1%eth0`). An IPv4-mapped IPv6 address (`::ffff:192.0.2.1`) is
 * the IPv4 address it maps, so IPv4 rules catch it.
 */

export interface IpAddress {
  readonly version: 4 | 6;
  /** The address as an unsigned 32- or 128-bit integer. */
  readonly value: bigint;
}

export interface IpRange extends IpAddress {
  /** Leading bits that must match (0–32 or 0–128); a single address has the full length. */
  readonly prefix: number;
}

const IPV4 = /^(?:0|[1-9][0-9]{0,2})(?:\.(?:0|[1-9][0-9]{0,2})){3}$/;
const HEX_GROUP = /^[0-9a-fA-F]{1,4}$/;

function parseIpv4(text: string): bigint | undefined {
  if (!IPV4.test(text)) return undefined;
  let value = 0n;
  for (const part of text.split('.')) {
    const octet = Number(part);
    if (octet > 255) return undefined;
    value = (value << 8n) | BigInt(octet);
  }
  return value;
}

function parseIpv6(text: string): bigint | undefined {
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const groupsOf = (half: string): bigint[] | undefined => {
    if (half === '') return [];
    const parts = half.split(':');
    const out: bigint[] = [];
    for (const [i, part] of parts.entries()) {
      if (i === parts.length - 1 && part.includes('.')) {
        const v4 = parseIpv4(part);
        if (v4 === undefined) return undefined;
        out.push(v4 >> 16n, v4 & 0xffffn);
      } else if (HEX_GROUP.test(part)) {
        out.push(BigInt(`0x${part}`));
      } else {
        return undefined;
      }
    }
    return out;
  };
  const head = groupsOf(halves[0]!);
  const tail = halves.length === 2 ? groupsOf(halves[1]!) : [];
  if (head === undefined || tail === undefined) return undefined;
  // An embedded IPv4 tail is only allowed as the last part of the whole address.
  if (halves.length === 2 && halves[0]!.includes('.')) return undefined;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return undefined;
  let value = 0n;
  for (const group of [...head, ...Array<bigint>(missing).fill(0n), ...tail]) value = (value << 16n) | group;
  return value;
}

/** An IPv4 or IPv6 address, or `undefined` if `text` is not one. IPv4-mapped IPv6 becomes IPv4. */
export function parseIp(text: string): IpAddress | undefined {
  const v4 = parseIpv4(text);
  if (v4 !== undefined) return { version: 4, value: v4 };
  if (!text.includes(':')) return undefined;
  const v6 = parseIpv6(text);
  if (v6 === undefined) return undefined;
  if (v6 >> 32n === 0xffffn) return { version: 4, value: v6 & 0xffffffffn };
  return { version: 6, value: v6 };
}

/** Why `parseIpRange` refused its input. */
export type IpRangeError = 'address' | 'prefix' | 'hostBits';

/**
 * An address (`192.0.2.1`, `2001:db8::1`) or a CIDR range (`192.0.2.0/24`, `2001:db8::/32`). A range whose
 * address has bits set beyond the prefix (`10.1.2.3/8`) is refused as `hostBits`: it is almost always a typo
 * and silently widening or narrowing it would block the wrong shoppers. An IPv4-mapped IPv6 range with a
 * prefix of 96 or more is the IPv4 range it maps (`::ffff:10.0.0.0/104` = `10.0.0.0/8`).
 */
export function parseIpRange(text: string): IpRange | IpRangeError {
  const slash = text.indexOf('/');
  const addressText = slash < 0 ? text : text.slice(0, slash);
  const v4 = parseIpv4(addressText);
  const v6 = v4 === undefined && addressText.includes(':') ? parseIpv6(addressText) : undefined;
  if (v4 === undefined && v6 === undefined) return 'address';
  let version: 4 | 6 = v4 === undefined ? 6 : 4;
  let value = v4 ?? v6!;
  const bits = version === 4 ? 32 : 128;
  let prefix = bits;
  if (slash >= 0) {
    const prefixText = text.slice(slash + 1);
    if (!/^(?:0|[1-9][0-9]{0,2})$/.test(prefixText) || Number(prefixText) > bits) return 'prefix';
    prefix = Number(prefixText);
  }
  if (version === 6 && value >> 32n === 0xffffn && prefix >= 96) {
    version = 4;
    value &= 0xffffffffn;
    prefix -= 96;
  }
  const hostBits = BigInt((version === 4 ? 32 : 128) - prefix);
  if ((value & ((1n << hostBits) - 1n)) !== 0n) return 'hostBits';
  return { version, value, prefix };
}

/** True when `address` lies inside `range` (an address of the other IP version never does). */
export function ipInRange(address: IpAddress, range: IpRange): boolean {
  if (address.version !== range.version) return false;
  const shift = BigInt((range.version === 4 ? 32 : 128) - range.prefix);
  return address.value >> shift === range.value >> shift;
}

/**
 * The canonical text of an address, for velocity keys: dotted quad for IPv4 (and IPv4-mapped IPv6),
 * RFC 5952 for IPv6 (lower case, no leading zeros, the longest run of two or more zero groups as `::`).
 */
export function formatIp(address: IpAddress): string {
  if (address.version === 4) {
    const v = address.value;
    return [24n, 16n, 8n, 0n].map((s) => String((v >> s) & 0xffn)).join('.');
  }
  const groups: number[] = [];
  for (let s = 112n; s >= 0n; s -= 16n) groups.push(Number((address.value >> s) & 0xffffn));
  let bestStart = -1;
  let bestLength = 1;
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i += 1;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j += 1;
    if (j - i > bestLength) {
      bestStart = i;
      bestLength = j - i;
    }
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (bestStart < 0) return hex.join(':');
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLength).join(':')}`;
}
