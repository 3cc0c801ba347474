/**
 * A gateway in production mode (NODE_ENV=production) behind a TLS-terminating proxy it trusts,
 * at its public https address: testGateway's environment, and the header the proxy adds to a
 * request that came over HTTPS (production refuses plain HTTP).
 */
export const PRODUCTION_BEHIND_PROXY = {
  NODE_ENV: 'production',
  GATEWAY_TRUST_PROXY: '1',
  GATEWAY_PUBLIC_URL: 'https://pay.example.com',
} as const;

/** What the trusted proxy says of a request that reached it over HTTPS. */
export const HTTPS = { 'X-Forwarded-Proto': 'https' } as const;
