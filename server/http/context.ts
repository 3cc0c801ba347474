/**
 * What the HTTP layer's middleware and routes share: the dependencies a route is built with
 * ({@link RouteDeps}) and the typed values the middleware leave on the context for the handler
 * ({@link GatewayEnv}: `c.var.body`, `c.var.token`, `c.var.request`, `c.var.channel` …).
 */

import type { EngineDeps } from '../../shared/engine/core/deps';
import type { AccessToken, Channel, Checkout, Environment } from '../../shared/engine/core/model';
import type { RequestKind, RequestOf } from '../../shared/params/requests';
import type { AdminPrincipal } from '../backoffice/users/principal';
import type { IdleReleases } from '../lifecycle/idle-memory';
import type { GatewayMetrics } from '../metrics/instruments';
import type { AuthFailures } from '../security/auth-failures';
import type { EgressPolicy } from '../security/egress';
import type { Logger } from '../security/logger';
import type { WalletTokenIssuer } from '../security/wallet-tokens';
import type { GatewayStore } from '../storage/kysely-store';
import type { Envelope } from './middleware/envelope';
import type { Throttle } from './middleware/throttle/buckets';

export interface RouteDeps extends EngineDeps {
  /** The engine's Store and the server's own stores (webhooks, schedules, settlements, risk). */
  readonly store: GatewayStore;
  readonly env: Envelope;
  readonly throttle: Throttle;
  readonly maxBodyBytes: number;
  /** The body limit without credentials (PUBLIC_SUBMISSION_MAX_BYTES unless given; never above maxBodyBytes). */
  readonly maxPublicBodyBytes?: number;
  readonly logger?: Logger;
  /** This environment's public address (GATEWAY_PUBLIC_URL or GATEWAY_LIVE_PUBLIC_URL, else its listening address). */
  readonly publicUrl?: string;
  /**
   * The environment of the address this app serves (test on PORT, live on GATEWAY_LIVE_PORT):
   * only its tokens and channels are accepted, only its records answered.
   */
  readonly environment: Environment;
  readonly wallets?: WalletTokenIssuer;
  /** Refuses notificationUrl and a checkout's shopperResultUrl the gateway would not call (refusedUrls). */
  readonly egress?: Pick<EgressPolicy, 'checkUrl'>;
  /** Failed logins per client address and user id: 429 past the limit (server/security/auth-failures.ts). */
  readonly authFailures: AuthFailures;
  /** NODE_ENV=production (server/mode.ts). */
  readonly production: boolean;
  /** GATEWAY_TRUST_PROXY: the client address is X-Forwarded-For's last hop. */
  readonly trustProxy: boolean;
  /** Opens what `seal` sealed: the stored Idempotency-Key responses (sealed only when given). */
  readonly unseal?: (sealed: string) => string;
  /** The listener serves TLS itself: the admin session cookie is Secure (as over a trusted proxy's HTTPS). */
  readonly tls?: boolean;
  /** Where the app's caches add what they give back once the gateway is idle (lifecycle/idle-memory.ts). */
  readonly idle?: IdleReleases;
  /** The gateway's metrics (server/metrics): throttle rejections counted here. */
  readonly metrics?: Pick<GatewayMetrics, 'throttled'>;
}

/** `body`: the request's parameters as text (a POST body, or the query string of a GET or DELETE). */
export type BodyEnv = { Variables: { body: string } };
/** `token`: the access token the credentials name. */
export type TokenEnv = { Variables: { token: AccessToken } };
/** `token`: as {@link TokenEnv}, undefined when none were sent (the checkout routes). */
export type OptionalTokenEnv = { Variables: { token: AccessToken | undefined } };
/** `request`: the validated parameters of a request kind. */
export type RequestEnv<K extends RequestKind> = { Variables: { request: RequestOf<K> } };
/** `channel`: the channel (entityId) the request acts for, of this address's environment. */
export type ChannelEnv = { Variables: { channel: Channel } };
/** `checkout`: the checkout the path's id names (the checkout routes). */
export type CheckoutEnv = { Variables: { checkout: Checkout } };
/** `store`: the store the request's work runs on (the Idempotency-Key's claim rides on its writes). */
export type StoreEnv = { Variables: { store: GatewayStore } };

/** `admin`: who acts on the admin API (the operator's token or a signed-in user). */
export type AdminEnv = { Variables: { admin: AdminPrincipal } };

/** Every value the gateway's middleware may leave on the context; a route sees those its chain sets. */
export type GatewayEnv = {
  Variables: {
    body?: string;
    token?: AccessToken;
    request?: unknown;
    channel?: Channel;
    checkout?: Checkout;
    store?: GatewayStore;
    admin?: AdminPrincipal;
    /** X-Request-Id (middleware/request-id): the caller's or a new one. */
    requestId?: string;
  };
};

/**
 * The gateway's public origin for URLs it hands out: configured (GATEWAY_PUBLIC_URL, else the
 * listening address), never the request's Host header, which the client chooses. Empty (relative
 * URLs) when none is configured.
 */
export const publicOrigin = (deps: Pick<RouteDeps, 'publicUrl'>): string =>
  deps.publicUrl?.replace(/\/+$/, '') ?? '';
