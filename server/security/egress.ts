/**
 * The egress policy: where the gateway's outbound calls to merchant- and operator-supplied URLs
 * (notificationUrl callbacks, shopperResultUrl notifications, webhooks and their test
 * notification, connectors) may go (decisions, Production and the developer's machine).
 *
 * Never to loopback (allowed on a developer's machine, refused with NODE_ENV=production), private
 * (10/8, 172.16/12, 192.168/16), shared (100.64/10), link-local (169.254/16, fe80::/10),
 * unique-local (fc00::/7), unspecified (0.0.0.0/8, ::), cloud metadata, multicast, broadcast or
 * reserved addresses, nor to IPv4 addresses written inside IPv6 ones (::ffff:127.0.0.1, the
 * translated ::ffff:0:127.0.0.1, NAT64 64:ff9b::127.0.0.1, 6to4), unless the operator lists them in GATEWAY_CALLBACK_ALLOW (comma-separated host names,
 * addresses or CIDRs).
 *
 * - `checkUrl` is the check that needs no DNS: scheme, literal addresses (in whatever form the
 *   WHATWG URL parser normalises: 127.1, 2130706433, 0x7f000001, 0177.0.0.1, [::ffff:7f00:1])
 *   and names known to be local (localhost, *.localhost, metadata.google.internal …). Requests
 *   are refused with it at once (400 naming the parameter), webhooks at registration,
 *   connectors at configuration.
 * - `fetch` is the HTTP client every outbound caller uses by default. It runs `checkUrl`, then
 *   connects through node:http(s) with a `lookup` that resolves the name once, checks every
 *   address it resolves to, and hands exactly those to the socket: the address connected to is
 *   the address checked (no DNS rebinding between check and use). Redirects are never followed:
 *   a 3xx is answered to the caller as it is. No connection is kept alive or shared.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { Readable } from 'node:stream';

/** What an address is, when it is not a public one. */
export type AddressKind =
  | 'loopback'
  | 'private'
  | 'shared'
  | 'link-local'
  | 'unique-local'
  | 'unspecified'
  | 'metadata'
  | 'multicast'
  | 'broadcast'
  | 'reserved';

const PHRASE: Record<AddressKind, string> = {
  loopback: 'a loopback address',
  private: 'a private address',
  shared: 'a shared (carrier-grade NAT) address',
  'link-local': 'a link-local address',
  'unique-local': 'a unique-local address',
  unspecified: 'an unspecified address',
  metadata: 'a cloud metadata address',
  multicast: 'a multicast address',
  broadcast: 'a broadcast address',
  reserved: 'a reserved address',
};

/** Resolves a host name to every address it has (dns.lookup with all: true by default). */
export type Resolve = (
  hostname: string,
) => Promise<readonly { readonly address: string; readonly family: number }[]>;

export interface EgressOptions {
  /** NODE_ENV=production: loopback is refused too (unless allowed). */
  readonly production: boolean;
  /** GATEWAY_CALLBACK_ALLOW: host names, addresses and CIDRs, as a comma-separated string or a list. */
  readonly allow?: string | readonly string[];
  /** The resolver; tests give names of their own. */
  readonly resolve?: Resolve;
}

export interface EgressPolicy {
  readonly production: boolean;
  /**
   * Why the gateway will not call this URL, as a phrase that follows the parameter's name
   * ("must not point to a loopback address (127.0.0.1)"); undefined when it may (as far as can
   * be known without DNS).
   */
  checkUrl(url: string | URL): string | undefined;
  /** Why the gateway will not connect to this address; undefined when it may. */
  checkAddress(address: string): string | undefined;
  /** A `lookup` for net/http that resolves, checks every address, and fails when one is refused. */
  readonly lookup: LookupFunction;
  /** fetch through the policy: checked URL, checked addresses, no redirects followed. */
  readonly fetch: typeof fetch;
}

// ---------------------------------------------------------------------------------------------
// Addresses

type Range = readonly [kind: AddressKind, network: string, prefix: number];

/** IPv4 special-purpose ranges (IANA registry) that are not for a gateway to call; first match wins. */
const V4: readonly Range[] = [
  ['metadata', '169.254.169.254', 32], // AWS, GCP, Azure, OpenStack, Oracle …
  ['metadata', '169.254.170.2', 32], // AWS ECS task metadata
  ['metadata', '100.100.100.200', 32], // Alibaba Cloud
  ['metadata', '192.0.0.192', 32], // Oracle Cloud (classic)
  ['broadcast', '255.255.255.255', 32], // inside 240/4
  ['unspecified', '0.0.0.0', 8],
  ['private', '10.0.0.0', 8],
  ['shared', '100.64.0.0', 10],
  ['loopback', '127.0.0.0', 8],
  ['link-local', '169.254.0.0', 16],
  ['private', '172.16.0.0', 12],
  ['reserved', '192.0.0.0', 24], // IETF protocol assignments
  ['reserved', '192.0.2.0', 24], // documentation
  ['reserved', '192.88.99.0', 24], // 6to4 relays (deprecated)
  ['private', '192.168.0.0', 16],
  ['reserved', '198.18.0.0', 15], // benchmarking
  ['reserved', '198.51.100.0', 24], // documentation
  ['reserved', '203.0.113.0', 24], // documentation
  ['multicast', '224.0.0.0', 4],
  ['reserved', '240.0.0.0', 4],
];

/** IPv6 ranges; IPv4 inside IPv6 (mapped, NAT64, 6to4) is checked as IPv4 before these. */
const V6: readonly Range[] = [
  ['metadata', 'fd00:ec2::254', 128], // AWS
  ['unspecified', '::', 128],
  ['loopback', '::1', 128],
  ['reserved', '::', 96], // IPv4-compatible (deprecated)
  ['reserved', '64:ff9b:1::', 48], // local-use NAT64
  ['reserved', '100::', 64], // discard-only
  ['reserved', '2001::', 32], // Teredo
  ['reserved', '2001:2::', 48], // benchmarking
  ['reserved', '2001:db8::', 32], // documentation
  ['reserved', '3fff::', 20], // documentation
  ['unique-local', 'fc00::', 7],
  ['link-local', 'fe80::', 10],
  ['reserved', 'fec0::', 10], // site-local (deprecated)
  ['multicast', 'ff00::', 8],
];

const lists = (() => {
  const byKind = new Map<AddressKind, BlockList>();
  const order: AddressKind[] = [];
  const add = (family: 'ipv4' | 'ipv6', [kind, network, prefix]: Range) => {
    let list = byKind.get(kind);
    if (list === undefined) {
      list = new BlockList();
      byKind.set(kind, list);
    }
    list.addSubnet(network, prefix, family);
  };
  for (const range of V4) add('ipv4', range);
  for (const range of V6) add('ipv6', range);
  // in order of first appearance: metadata first (inside link-local and unique-local), broadcast
  // before reserved
  for (const [kind] of [...V4, ...V6]) if (!order.includes(kind)) order.push(kind);
  return { byKind, order };
})();

/** The 16 bytes of an IPv6 address (no zone). */
function v6Bytes(address: string): number[] {
  let text = address;
  const tail: number[] = [];
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted !== null) {
    tail.push(...dotted[1]!.split('.').map(Number));
    text = `${text.slice(0, dotted.index)}0:0`;
  }
  const [head = '', rest] = text.split('::');
  const groups = (s: string) => (s === '' ? [] : s.split(':').map((g) => Number.parseInt(g, 16)));
  const left = groups(head);
  const right = rest === undefined ? [] : groups(rest);
  const all = [...left, ...new Array(8 - left.length - right.length).fill(0), ...right];
  const bytes = all.flatMap((g) => [g >> 8, g & 0xff]);
  if (tail.length === 4) bytes.splice(12, 4, ...tail);
  return bytes;
}

/**
 * The IPv4 address an IPv6 one carries (mapped ::ffff:0:0/96, translated ::ffff:0:0:0/96 of
 * SIIT, NAT64 64:ff9b::/96, 6to4 2002::/16).
 */
function embeddedV4(address: string): string | undefined {
  const b = v6Bytes(address);
  const zero = (from: number, to: number) => b.slice(from, to).every((x) => x === 0);
  const v4 = (at: number) => b.slice(at, at + 4).join('.');
  if (zero(0, 10) && b[10] === 0xff && b[11] === 0xff) return v4(12);
  if (zero(0, 8) && b[8] === 0xff && b[9] === 0xff && zero(10, 12)) return v4(12);
  if (b[0] === 0x00 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && zero(4, 12)) return v4(12);
  if (b[0] === 0x20 && b[1] === 0x02) return v4(2);
  return undefined;
}

const unzoned = (address: string) => address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');

/** What kind of non-public address this is; undefined for a public one (or not an address). */
export function classifyAddress(address: string): AddressKind | undefined {
  const ip = unzoned(address);
  const family = isIP(ip);
  if (family === 0) return undefined;
  if (family === 6) {
    const inner = embeddedV4(ip);
    if (inner !== undefined) {
      const kind = classifyAddress(inner);
      if (kind !== undefined) return kind;
    }
  }
  const type = family === 4 ? 'ipv4' : 'ipv6';
  for (const kind of lists.order) if (lists.byKind.get(kind)?.check(ip, type)) return kind;
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Names

/** Names that are this machine or a cloud's metadata service, refused without asking DNS. */
const LOCAL_NAMES: ReadonlyMap<string, AddressKind> = new Map([
  ['localhost', 'loopback'],
  ['localhost.localdomain', 'loopback'],
  ['ip6-localhost', 'loopback'],
  ['ip6-loopback', 'loopback'],
  ['metadata', 'metadata'],
  ['metadata.google.internal', 'metadata'],
  ['metadata.goog', 'metadata'],
  ['instance-data', 'metadata'],
  ['instance-data.ec2.internal', 'metadata'],
]);

function classifyName(name: string): AddressKind | undefined {
  if (name.endsWith('.localhost')) return 'loopback'; // RFC 6761
  return LOCAL_NAMES.get(name);
}

/** A URL's host as compared: lower case, no brackets, no trailing dot. */
const hostOf = (url: URL): string =>
  url.hostname
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.+$/, '');

// ---------------------------------------------------------------------------------------------
// The allow-list

interface AllowList {
  /** Whether a host name (lower case, no trailing dot) is listed, itself or by `*.domain`. */
  readonly host: (name: string) => boolean;
  readonly addresses: BlockList;
}

/**
 * GATEWAY_CALLBACK_ALLOW parsed: host names (`shop.internal`, or `*.internal` for the names below
 * it), addresses (`127.0.0.1`, `::1`, `[::1]`) and CIDRs (`10.0.0.0/8`, `fd00::/8`). Throws on an
 * entry that is none of them, so that a typo stops the start rather than opening or closing more.
 */
export function parseAllowList(allow: string | readonly string[] | undefined): AllowList {
  const entries = (typeof allow === 'string' ? allow.split(',') : (allow ?? []))
    .map((e) => e.trim())
    .filter((e) => e !== '');
  const hosts = new Set<string>();
  const domains: string[] = [];
  const addresses = new BlockList();
  for (const given of entries) {
    const invalid = () =>
      new Error(
        `GATEWAY_CALLBACK_ALLOW: ${JSON.stringify(given)} is neither a host name (or *.domain) nor an address or CIDR`,
      );
    const wildcard = given.startsWith('*.');
    const entry = wildcard ? given.slice(2) : given;
    const [rawAddress = '', prefixText, extra] = entry.split('/');
    const address = unzoned(rawAddress);
    const family = isIP(address);
    if (family !== 0 && extra === undefined && !wildcard) {
      const max = family === 4 ? 32 : 128;
      const prefix = prefixText === undefined ? max : Number(prefixText);
      if (prefixText !== undefined && (!/^\d{1,3}$/.test(prefixText) || prefix > max))
        throw new Error(
          `GATEWAY_CALLBACK_ALLOW: ${JSON.stringify(given)} has no valid prefix length (0 to ${max})`,
        );
      addresses.addSubnet(address, prefix, family === 4 ? 'ipv4' : 'ipv6');
      continue;
    }
    let url: URL | undefined;
    try {
      url = prefixText === undefined ? new URL(`http://${entry}`) : undefined;
    } catch {}
    const host = url === undefined ? '' : hostOf(url);
    if (url === undefined || url.port !== '' || url.pathname !== '/' || host === '' || entry.includes('@'))
      throw invalid();
    // A name the URL parser turns into an address (127.1) is allowed as that address.
    const asAddress = isIP(host);
    if (asAddress !== 0) {
      if (wildcard) throw invalid();
      addresses.addAddress(host, asAddress === 4 ? 'ipv4' : 'ipv6');
    } else if (wildcard) domains.push(`.${host}`);
    else hosts.add(host);
  }
  return { host: (name) => hosts.has(name) || domains.some((d) => name.endsWith(d)), addresses };
}

// ---------------------------------------------------------------------------------------------
// The policy

export const defaultResolve: Resolve = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/** The options from the environment: NODE_ENV=production, GATEWAY_CALLBACK_ALLOW; `overrides` win. */
export function egressOptionsFromEnv(
  env: Readonly<Record<string, string | undefined>>,
  overrides: Partial<EgressOptions> = {},
): EgressOptions {
  return {
    production: env.NODE_ENV === 'production',
    ...(env.GATEWAY_CALLBACK_ALLOW === undefined ? {} : { allow: env.GATEWAY_CALLBACK_ALLOW }),
    ...overrides,
  };
}

/** An error as fetch reports a network failure: TypeError('fetch failed') with the reason as cause. */
const failed = (cause: Error) => new TypeError('fetch failed', { cause });

class EgressRefused extends Error {
  readonly code = 'EGRESS_REFUSED';
  override readonly name = 'EgressRefused';
}

export function egressPolicy(options: EgressOptions): EgressPolicy {
  const { production } = options;
  const allow = parseAllowList(options.allow);
  const resolve = options.resolve ?? defaultResolve;

  function refusedKind(address: string): AddressKind | undefined {
    const ip = unzoned(address);
    const family = isIP(ip);
    if (family === 0) return undefined;
    if (allow.addresses.check(ip, family === 4 ? 'ipv4' : 'ipv6')) return undefined;
    const kind = classifyAddress(ip);
    if (kind === 'loopback' && !production) return undefined;
    return kind;
  }

  function checkAddress(address: string): string | undefined {
    const kind = refusedKind(address);
    return kind === undefined ? undefined : `${unzoned(address)} is ${PHRASE[kind]}`;
  }

  function checkUrl(input: string | URL): string | undefined {
    let url: URL;
    try {
      url = typeof input === 'string' ? new URL(input) : input;
    } catch {
      return 'must be an absolute URL';
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must be an http or https URL';
    const host = hostOf(url);
    if (isIP(host) !== 0) {
      const kind = refusedKind(host);
      return kind === undefined ? undefined : `must not point to ${PHRASE[kind]} (${host})`;
    }
    if (allow.host(host)) return undefined;
    const kind = classifyName(host);
    if (kind === undefined || (kind === 'loopback' && !production)) return undefined;
    return `must not point to ${PHRASE[kind]} (${host})`;
  }

  /** Resolves once and checks every address; the socket gets exactly what was checked. */
  async function resolveChecked(hostname: string): Promise<{ address: string; family: number }[]> {
    const host = hostname.toLowerCase().replace(/\.+$/, '');
    const listed = isIP(host) === 0 && allow.host(host);
    const kind = listed ? undefined : classifyName(host);
    if (kind !== undefined && !(kind === 'loopback' && !production))
      throw new EgressRefused(`${hostname} names ${PHRASE[kind]}, refused by the egress policy`);
    const addresses = (await resolve(hostname)).map((a) => ({ address: a.address, family: a.family }));
    if (addresses.length === 0)
      throw Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' });
    if (!listed)
      for (const { address } of addresses) {
        const refused = refusedKind(address);
        if (refused !== undefined)
          throw new EgressRefused(
            `${hostname} resolves to ${unzoned(address)}, ${PHRASE[refused]}, refused by the egress policy`,
          );
      }
    return addresses;
  }

  const lookup = checkedLookup(resolveChecked);
  const safeFetch = checkedFetch(checkUrl, lookup);

  return { production, checkUrl, checkAddress, lookup, fetch: safeFetch };
}

/** A dns lookup for sockets that answers only the addresses resolveChecked let through. */
function checkedLookup(
  resolveChecked: (hostname: string) => Promise<{ address: string; family: number }[]>,
): LookupFunction {
  return ((hostname: string, opts: unknown, callback?: unknown) => {
    const cb = (typeof opts === 'function' ? opts : callback) as (
      error: NodeJS.ErrnoException | null,
      address: string | { address: string; family: number }[],
      family?: number,
    ) => void;
    const all = typeof opts === 'object' && opts !== null && (opts as { all?: boolean }).all === true;
    const wanted =
      typeof opts === 'object' && opts !== null ? (opts as { family?: number }).family : undefined;
    resolveChecked(hostname).then(
      (addresses) => {
        const usable =
          wanted === 4 || wanted === 6 ? addresses.filter((a) => a.family === wanted) : addresses;
        if (usable.length === 0)
          return cb(
            Object.assign(new Error(`${hostname} has no IPv${wanted} address`), { code: 'ENOTFOUND' }),
            '',
          );
        if (all) return cb(null, usable);
        return cb(null, usable[0]!.address, usable[0]!.family);
      },
      (error: NodeJS.ErrnoException) => cb(error, ''),
    );
  }) as LookupFunction;
}

/**
 * fetch over node:http(s) with the checked lookup: the URL checked first, no redirect followed,
 * no connection kept alive.
 */
function checkedFetch(
  checkUrl: (input: string | URL) => string | undefined,
  lookup: LookupFunction,
): typeof fetch {
  const agents = {
    'http:': new http.Agent({ keepAlive: false }),
    'https:': new https.Agent({ keepAlive: false }),
  };

  return (async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    const refused = checkUrl(url);
    if (refused !== undefined) throw failed(new EgressRefused(`${url.origin} ${refused}`));
    const signal = init?.signal ?? undefined;
    signal?.throwIfAborted();
    const body = request.body === null ? undefined : Buffer.from(await request.arrayBuffer());
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => {
      headers[name] = value;
    });
    headers.accept ??= '*/*';
    headers['user-agent'] ??= 'open-payment-gateway';
    if (body !== undefined) headers['content-length'] = String(body.byteLength);
    else if (!['GET', 'HEAD', 'OPTIONS', 'DELETE'].includes(request.method)) headers['content-length'] = '0';

    const send = url.protocol === 'https:' ? https.request : http.request;
    return new Promise<Response>((resolvePromise, reject) => {
      const req = send(url, {
        method: request.method,
        headers,
        agent: agents[url.protocol as 'http:' | 'https:'],
        lookup,
      });
      const onAbort = () => {
        const reason: unknown =
          signal?.reason ?? new DOMException('This operation was aborted', 'AbortError');
        req.destroy(reason instanceof Error ? reason : undefined);
        reject(reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      req.on('error', (error) => {
        signal?.removeEventListener('abort', onAbort);
        reject(signal?.aborted ? signal.reason : failed(error));
      });
      req.on('response', (res) => {
        const status = res.statusCode ?? 0;
        if (status < 200 || status > 599) {
          res.destroy();
          signal?.removeEventListener('abort', onAbort);
          return reject(failed(new Error(`answered with status ${status}`)));
        }
        // An abort after the head ends the body too.
        signal?.removeEventListener('abort', onAbort);
        const abortBody = () => res.destroy(signal?.reason instanceof Error ? signal.reason : undefined);
        signal?.addEventListener('abort', abortBody, { once: true });
        res.on('close', () => signal?.removeEventListener('abort', abortBody));
        const responseHeaders = new Headers();
        for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) {
          try {
            responseHeaders.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
          } catch {
            // a header fetch would not accept either
          }
        }
        const nullBody = request.method === 'HEAD' || [101, 204, 205, 304].includes(status);
        if (nullBody) res.resume();
        resolvePromise(
          new Response(nullBody ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>), {
            status,
            statusText: res.statusMessage ?? '',
            headers: responseHeaders,
          }),
        );
      });
      req.end(body);
    });
  }) as typeof fetch;
}
