/**
 * What the public listeners accept at the connection level (server/main.ts), before any request
 * is read (issue 30, hole 6):
 *
 * - TLS: versions 1.2 and 1.3 only, and on 1.2 only suites with forward secrecy (ECDHE) and
 *   authenticated encryption (AES-GCM, ChaCha20-Poly1305): no static-RSA key exchange, no CBC.
 *   Every client of the last decade offers one of them; a payment API has no older ones to serve.
 * - Time: the request head must arrive within `headersTimeoutMs`, the whole request within
 *   `requestTimeoutMs`, and an idle keep-alive connection is closed after `keepAliveTimeoutMs`, so
 *   a slow client (slowloris: a byte now and then) holds a connection for seconds, not minutes.
 * - Count: at most `maxPerAddress` connections from one client address (one address had held
 *   4,000 slow connections) and `maxConnections` in all; the connection past either is closed
 *   at once, before TLS or HTTP. Behind a trusted proxy every connection comes from the proxy, so
 *   the per-address cap is the proxy's to apply and only the total counts here.
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { SecureContextOptions, TlsOptions } from 'node:tls';

/** TLS 1.3's suites, then TLS 1.2's ECDHE with AES-GCM or ChaCha20-Poly1305, strongest first. */
export const TLS_CIPHERS = [
  'TLS_AES_128_GCM_SHA256',
  'TLS_AES_256_GCM_SHA384',
  'TLS_CHACHA20_POLY1305_SHA256',
  'ECDHE-ECDSA-AES128-GCM-SHA256',
  'ECDHE-RSA-AES128-GCM-SHA256',
  'ECDHE-ECDSA-AES256-GCM-SHA384',
  'ECDHE-RSA-AES256-GCM-SHA384',
  'ECDHE-ECDSA-CHACHA20-POLY1305',
  'ECDHE-RSA-CHACHA20-POLY1305',
].join(':');

/** The HTTPS server's options for a certificate and key: modern versions and suites only. */
export function tlsServerOptions(files: Pick<SecureContextOptions, 'cert' | 'key'>): TlsOptions {
  return { ...files, minVersion: 'TLSv1.2', ciphers: TLS_CIPHERS, honorCipherOrder: true };
}

export interface ConnectionLimits {
  readonly maxPerAddress: number;
  readonly maxConnections: number;
  readonly headersTimeoutMs: number;
  readonly requestTimeoutMs: number;
  readonly keepAliveTimeoutMs: number;
  /** GATEWAY_TRUST_PROXY: the per-address cap is off (every connection is the proxy's). */
  readonly trustProxy: boolean;
}

export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = {
  maxPerAddress: 1_024,
  maxConnections: 10_000,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  trustProxy: false,
};

const number = (value: string | undefined, fallback: number): number => {
  const n = Number(value);
  return value !== undefined && value !== '' && Number.isInteger(n) && n > 0 ? n : fallback;
};

/** The limits from the environment (GATEWAY_MAX_CONNECTIONS_PER_ADDRESS, GATEWAY_MAX_CONNECTIONS …). */
export function connectionLimitsFromEnv(
  env: Readonly<Record<string, string | undefined>>,
  trustProxy: boolean,
): ConnectionLimits {
  const d = DEFAULT_CONNECTION_LIMITS;
  return {
    maxPerAddress: number(env.GATEWAY_MAX_CONNECTIONS_PER_ADDRESS, d.maxPerAddress),
    maxConnections: number(env.GATEWAY_MAX_CONNECTIONS, d.maxConnections),
    headersTimeoutMs: number(env.GATEWAY_HEADERS_TIMEOUT_MS, d.headersTimeoutMs),
    requestTimeoutMs: number(env.GATEWAY_REQUEST_TIMEOUT_MS, d.requestTimeoutMs),
    keepAliveTimeoutMs: d.keepAliveTimeoutMs,
    trustProxy,
  };
}

/**
 * The timeouts as createServer's options: Node checks them every `connectionsCheckingInterval`
 * (30 s by default, which would let a slow head live up to 40 s past its 10).
 */
export function timeoutOptions(limits: ConnectionLimits) {
  return {
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    connectionsCheckingInterval: Math.min(1_000, limits.headersTimeoutMs),
  };
}

/** Caps a listener's connections (HTTP or HTTPS: counted on the TCP connection, before TLS). */
export function limitConnections(server: Server, limits: ConnectionLimits): void {
  server.maxConnections = limits.maxConnections;
  if (limits.trustProxy) return;
  const perAddress = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? '';
    const count = (perAddress.get(address) ?? 0) + 1;
    if (count > limits.maxPerAddress) {
      socket.destroy();
      return;
    }
    perAddress.set(address, count);
    socket.once('close', () => {
      const left = (perAddress.get(address) ?? 1) - 1;
      if (left === 0) perAddress.delete(address);
      else perAddress.set(address, left);
    });
  });
}
