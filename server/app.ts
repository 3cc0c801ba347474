/**
 * The HTTP layer: a Hono app. Routes answer in the family's JSON envelope; unknown paths get a
 * JSON 404. Repeated slashes route like single ones (clients build `base + "/" + resourcePath`).
 */
import { Hono } from 'hono';
import type { Environment } from '../shared/engine/core/model';
import type { Clock, Processors, RiskLedger } from '../shared/engine/core/ports';
import type { Fingerprint } from '../shared/engine/steps/risk-check';
import { ResultCodes, resultCodesResponse } from '../shared/result-codes';
import type { GatewayEnv } from './http/context';
import { gatewayMiddleware } from './http/middleware';
import { type AccessEntry, accessLog } from './http/middleware/access-log';
import { compression } from './http/middleware/compression';
import { buildNumber, type Envelope, envelope } from './http/middleware/envelope';
import { storeUnavailable } from './http/middleware/envelope/unavailable';
import { requestId, requestLogger } from './http/middleware/request-id';
import { storableRequest } from './http/middleware/storable';
import { createThrottle, type Throttle } from './http/middleware/throttle';
import { isClientAbort, transportSecurity } from './http/middleware/transport';
import { type AdminDeps, adminRoutes } from './http/routes/admin';
import { checkoutRoutes } from './http/routes/checkouts';
import { connectorNotificationRoutes } from './http/routes/connector-notifications';
import { connectorReturnRoutes } from './http/routes/connector-return';
import { dashboardRoutes } from './http/routes/dashboard';
import { docsRoutes, documentAddresses } from './http/routes/docs';
import { paymentRoutes } from './http/routes/payments';
import { queryRoutes } from './http/routes/query';
import { registrationRoutes } from './http/routes/registrations';
import { reportingRoutes } from './http/routes/reporting';
import { scheduleRoutes } from './http/routes/schedules';
import { acquirerSimulatorRoutes } from './http/routes/simulators/acquirer';
import { simulatorRoutes } from './http/routes/simulators/shopper';
import { threeDSecureRoutes } from './http/routes/three-d-secure';
import { widgetRoutes } from './http/routes/widget';
import { healthRoutes, type Readiness } from './lifecycle/health';
import type { IdleReleases } from './lifecycle/idle-memory';
import { httpMetrics } from './metrics/http';
import type { GatewayMetrics } from './metrics/instruments';
import type { Addresses } from './openapi/document';
import { gatewayProcessors } from './processors';
import { type AuthFailures, createAuthFailures } from './security/auth-failures';
import type { EgressPolicy } from './security/egress';
import type { Logger } from './security/logger';
import type { WalletTokenIssuer } from './security/wallet-tokens';
import type { GatewayStore } from './storage';

export interface AppOptions {
  readonly commit: string;
  readonly builtAt: Date;
  readonly now?: () => Date;
}

export interface GatewayDeps {
  readonly store: GatewayStore;
  readonly clock: Clock;
  /** Encrypts card numbers for storage. */
  readonly seal: (plain: string) => string;
  /** Opens what `seal` sealed: stored Idempotency-Key responses are sealed only when it is given. */
  readonly unseal?: (sealed: string) => string;
  /** Card fingerprints and hashed velocity keys for the risk checks (server/security/risk-fingerprint.ts). */
  readonly fingerprint?: Fingerprint;
  /** The risk checks' velocity history (the store's risk_events); none without it. */
  readonly riskHistory?: RiskLedger;
  readonly logger?: Logger;
  readonly throttle?: Throttle;
  /** Largest accepted request body in bytes. */
  readonly maxBodyBytes?: number;
  /**
   * Who decides payments: the simulators (INTERNAL) and the channels' connectors (EXTERNAL, live);
   * the simulators alone (no connector: EXTERNAL and live refused) when not given.
   */
  readonly processors?: Processors;
  /** The node part of checkout ids (`…C091.<node>`); `local01` by default. */
  readonly nodeName?: string;
  /** The widget script's SRI hash, answered on checkout creation with integrity=true (widget build). */
  readonly integrity?: () => string | undefined;
  /**
   * The gateway's public address (GATEWAY_PUBLIC_URL, else its listening address) for the URLs it
   * hands out (redirect.url of pending payments); never taken from a request's Host header.
   * Without it those URLs are relative.
   */
  readonly publicUrl?: string;
  /**
   * The environment this app serves (decisions, "Payment methods and environments"): `test` (PORT,
   * the default) or `live` (GATEWAY_LIVE_PORT). Only tokens and channels of that environment are
   * accepted (403 800.900.300 otherwise), only its records answered; the live app refuses plain
   * HTTP whatever the mode (TLS, or a trusted proxy's X-Forwarded-Proto: https).
   */
  readonly environment?: Environment;
  /**
   * NODE_ENV=production (server/mode.ts): plain HTTP refused (403), simulator endpoints that
   * change data need the merchant's credentials. False by default.
   */
  readonly production?: boolean;
  /** The listener serves TLS itself: every request is HTTPS (HSTS on every answer). */
  readonly tls?: boolean;
  /** GATEWAY_TRUST_PROXY: X-Forwarded-For (last hop) and X-Forwarded-Proto are believed. */
  readonly trustProxy?: boolean;
  /** Failed logins per client address (API, admin API, FTP); one per app by default. */
  readonly authFailures?: AuthFailures;
  /** Issues and opens the simulated wallets' payment tokens (server/security/wallet-tokens.ts). */
  readonly wallets?: WalletTokenIssuer;
  /**
   * The egress policy (server/security/egress.ts): notificationUrl, and a checkout's
   * shopperResultUrl, that it refuses are answered 400 at the request. None: not checked.
   */
  readonly egress?: Pick<EgressPolicy, 'checkUrl'>;
  /** The operator's admin API (webhooks, deliveries, chargebacks); off without it. */
  readonly admin?: AdminDeps;
  /** The gateway's metrics (server/metrics): requests, throttle rejections; none counted without. */
  readonly metrics?: GatewayMetrics;
  /** Told each merchant API request's access-log facts: the recent API requests (backoffice/requests). */
  readonly recordRequest?: (entry: AccessEntry) => void;
  /** `/readyz` (server/lifecycle/health.ts); only `/healthz` without it. */
  readonly readiness?: Readiness;
  /** Both environments' public addresses: the `servers` of /v1/openapi.json (publicUrl alone without it). */
  readonly addresses?: Addresses;
  /** Where the app's caches add what they give back once the gateway is idle (lifecycle/idle-memory.ts). */
  readonly idle?: IdleReleases;
}

/** The spec's largest valid request is about 390 KiB; nothing a merchant needs is larger (issue 30). */
export const DEFAULT_MAX_BODY_BYTES = 512 * 1024;

export function createApp(options: AppOptions, deps?: GatewayDeps): Hono<GatewayEnv> {
  const now = options.now ?? deps?.clock.now ?? (() => new Date());
  const env: Envelope = envelope(buildNumber(options.commit, options.builtAt), now);
  const app = new Hono<GatewayEnv>({ getPath: (req) => requestPath(req.url) });
  admission(app, env, deps);

  // text no store can keep, in the path or the query string: 400 before any route (storable/)
  app.use(
    '*',
    storableRequest(env, () => app.routes),
  );

  app.get('/v1/resultcodes', (c) =>
    env.send(
      c,
      200,
      { code: ResultCodes.SUCCESSFUL_REQUEST, description: 'successful request' },
      resultCodesResponse(),
    ),
  );
  widgetRoutes(app, env);
  // before the admin API's authentication: the dashboard's files are public code
  dashboardRoutes(app);
  docsRoutes(app, documentAddresses(deps), {
    environment: deps?.environment ?? 'test',
    production: deps?.production ?? false,
  });

  if (deps !== undefined) {
    const routeDeps = {
      ...deps,
      env,
      throttle: deps.throttle ?? createThrottle(),
      authFailures: deps.authFailures ?? createAuthFailures(),
      production: deps.production ?? false,
      environment: deps.environment ?? 'test',
      trustProxy: deps.trustProxy ?? false,
      maxBodyBytes: deps.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
      nodeName: deps.nodeName ?? 'local01',
      processors: deps.processors ?? gatewayProcessors(undefined),
    };
    const mw = gatewayMiddleware(routeDeps);
    paymentRoutes(app, routeDeps, mw);
    threeDSecureRoutes(app, routeDeps, mw);
    connectorReturnRoutes(app, routeDeps);
    connectorNotificationRoutes(app, routeDeps);
    registrationRoutes(app, routeDeps, mw);
    checkoutRoutes(app, routeDeps, mw);
    queryRoutes(app, routeDeps, mw);
    scheduleRoutes(app, routeDeps, mw);
    reportingRoutes(app, routeDeps, mw);
    simulatorRoutes(app, routeDeps, mw);
    acquirerSimulatorRoutes(app, routeDeps, mw);
    if (deps.admin !== undefined) adminRoutes(app, routeDeps, deps.admin);
  }

  app.notFound((c) =>
    env.send(c, 404, { code: ResultCodes.ENTITY_NOT_FOUND, description: 'No resource found at this path' }),
  );
  app.onError((error, c) => {
    // A client that hangs up mid-body is no fault of ours: one line, no stack. The answer goes nowhere.
    const logger = requestLogger(c, deps?.logger);
    if (isClientAbort(error, c)) {
      logger?.info('client closed the connection before the request was complete', {
        method: c.req.method,
        path: c.req.path,
      });
      return env.send(c, 400, { code: ResultCodes.INVALID_PARAMETER, description: 'request incomplete' });
    }
    // a full disk or a store that refuses writes: a temporary system error (503), not a 500
    const unavailable = storeUnavailable(env, c, error);
    if (unavailable !== undefined) {
      logger?.error('the store cannot write', { code: (error as { code?: unknown }).code, path: c.req.path });
      return unavailable;
    }
    logger?.error('unhandled error', { error, path: c.req.path });
    return env.send(c, 500, { code: ResultCodes.UNDEFINED_CONNECTOR_ERROR, description: 'internal error' });
  });
  return app;
}

/**
 * What every request passes before any route: its id, the compression around every answer, the
 * probes (before the transport check: answered over plain HTTP; outside the access log and the
 * request metrics), the access log, the metrics, and the transport's security.
 */
function admission(app: Hono<GatewayEnv>, env: Envelope, deps: GatewayDeps | undefined): void {
  // first: every answer, refusals and errors included, carries the request id
  app.use('*', requestId());
  // around everything below: scripts, styles, JSON and pages by Accept-Encoding (compression/)
  app.use('*', compression());
  // probes before the transport check (answered over plain HTTP), outside the access log and metrics
  healthRoutes(app, deps?.readiness);
  const logged = accessLog(
    deps?.logger,
    deps?.recordRequest,
    deps === undefined ? undefined : () => deps.clock.now(),
  );
  if (logged !== undefined) app.use('*', logged);
  if (deps?.metrics !== undefined) app.use('*', httpMetrics(deps.metrics));
  app.use(
    '*',
    transportSecurity(
      {
        // the live address refuses plain HTTP even on a developer's machine
        production: (deps?.production ?? false) || deps?.environment === 'live',
        tls: deps?.tls ?? false,
        trustProxy: deps?.trustProxy ?? false,
      },
      (c) =>
        env.send(c, 403, {
          code: ResultCodes.INVALID_AUTH,
          description:
            'HTTPS required: this gateway refuses plain HTTP (behind a proxy, the proxy must send X-Forwarded-Proto: https)',
        }),
    ),
  );
}

/** `//v1//payments/` → `/v1/payments/`. */
export const normalizePath = (path: string): string => path.replace(/\/{2,}/g, '/');

/** A path of plain segments: nothing for the URL parser to decode, resolve or collapse. */
const PLAIN_PATH = /^(?:\/[A-Za-z0-9_~-]+)*\/?$/;

/**
 * The path routes match: the URL's pathname (dot segments resolved, percent-encoding as sent),
 * double slashes collapsed. A plain path (every API call) is its own pathname: taken from the
 * text without parsing the whole URL on every request.
 */
export function requestPath(url: string): string {
  const scheme = url.indexOf('://');
  const start = scheme === -1 ? -1 : url.indexOf('/', scheme + 3);
  if (start !== -1) {
    let end = url.length;
    for (let i = start; i < end; i++) {
      const ch = url.charCodeAt(i);
      if (ch === 63 /* ? */ || ch === 35 /* # */) end = i;
    }
    const path = url.slice(start, end);
    if (PLAIN_PATH.test(path)) return path;
  }
  return normalizePath(new URL(url).pathname);
}
