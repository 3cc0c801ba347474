/**
 * What the admin routes share: their dependencies, the answers (ok, 404, 400 with
 * parameterErrors, the JSON body), the route table (each route with the access its role needs,
 * middleware/admin-role) and the audit log of every action.
 */
import type { Context, Handler, Hono } from 'hono';
import type { ConnectorSettings } from '../../../../shared/engine/core/model';
import type { Clock } from '../../../../shared/engine/core/ports';
import { ResultCodes } from '../../../../shared/result-codes';
import { writeAudit } from '../../../backoffice/audit/audit';
import type { BackofficeContext } from '../../../backoffice/context';
import { BackofficeError, type FieldError } from '../../../backoffice/errors';
import { type Access, type RouteSpec, registerAdminRoute } from '../../../backoffice/users/access';
import type { AdminPrincipal } from '../../../backoffice/users/principal';
import type { ClockControl } from '../../../clock';
import type { ConnectorContract } from '../../../connectors/kit/contract';
import type { EgressPolicy } from '../../../security/egress';
import type { Vault } from '../../../security/vault';
import type { InboxStore } from '../../../storage/inbox/store';
import type { WebhookStore } from '../../../storage/webhooks/model';
import type { AdminEnv, GatewayEnv, RouteDeps } from '../../context';
import { adminRole } from '../../middleware/admin-role';
import { invalid as invalidParameters } from '../../middleware/envelope';
import { unstorableJson } from '../../middleware/storable';
import { clientAddress } from '../../middleware/transport';

export interface AdminDeps {
  /** The test clock's control (routes/admin/clock.ts); undefined when the gateway runs on real time. */
  readonly clock?: ClockControl | undefined;
  /**
   * The accounts' time (sessions, TOTP codes, failed sign-ins): real time (a fake one in tests),
   * never the test clock, so moving the sandbox's clock neither signs the operator out nor puts
   * the gateway's TOTP window away from the authenticator app's. Undefined: the gateway's clock.
   */
  readonly realTime?: Clock;
  /** The webhook inbox (routes/admin/inbox.ts). */
  readonly inbox?: InboxStore;
  /** The operator's token; without it only signed-in users reach the admin API. */
  readonly token: string | undefined;
  readonly webhooks: WebhookStore;
  /** Seals webhook keys and TOTP secrets, and opens the latter. */
  readonly vault: Pick<Vault, 'encrypt'> & Partial<Pick<Vault, 'decrypt'>>;
  /** The HTTP client of the test notification. */
  readonly fetch?: typeof fetch;
  /** Refuses webhook URLs the gateway would not call (server/security/egress.ts). */
  readonly egress?: Pick<EgressPolicy, 'checkUrl'>;
  /** The reconciliation files' folder (settlement downloads). */
  readonly dataDir?: string;
  /** A connector's contract (the processors'): a settlement run by hand settles connector channels from their records. */
  readonly contractOf?: (connector: ConnectorSettings) => ConnectorContract | undefined;
  /**
   * Every user must have a second factor (GATEWAY_ADMIN_REQUIRE_TOTP=on): one without it may only
   * set it up (or sign out) after signing in (request-guard.ts).
   */
  readonly requireTotp?: boolean;
}

export type AdminContext = Context<GatewayEnv & AdminEnv>;

/** Every admin route and the access it needs (the role tests loop over it). */
export { adminRouteTable } from '../../../backoffice/users/access';

/** A request body as a JSON object (an empty body is {}); undefined when it is something else. */
export function jsonObjectOf(text: string): Record<string, unknown> | undefined {
  if (text.trim() === '') return {};
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed))
      return parsed as Record<string, unknown>;
  } catch {}
  return undefined;
}

export function adminKit(app: Hono<GatewayEnv>, deps: RouteDeps) {
  const { env } = deps;
  const ok = { code: ResultCodes.SUCCESSFUL_REQUEST, description: 'successful request' };
  const notFound = (c: Context, what: string) =>
    env.send(c, 404, { code: ResultCodes.ENTITY_NOT_FOUND, description: `${what} not found` });
  const invalid = (c: Context, errors: readonly FieldError[]) => invalidParameters(env, c, 400, [...errors]);
  const forbidden = (c: Context, description: string) =>
    env.send(c, 403, { code: ResultCodes.INVALID_AUTH, description });

  /** The JSON body, or an answer saying why there is none. */
  async function body(c: Context): Promise<Record<string, unknown> | Response> {
    const text = await c.req.text();
    if (text.length > deps.maxBodyBytes)
      return env.send(c, 413, { code: ResultCodes.INVALID_PARAMETER, description: 'request body too large' });
    const parsed = jsonObjectOf(text);
    // text no store can keep (a NUL, a lone surrogate): 400 naming the fields (middleware/storable)
    const unstorable = parsed === undefined ? [] : unstorableJson(parsed);
    if (unstorable.length > 0) return invalidParameters(env, c, 400, unstorable);
    if (parsed !== undefined) return parsed;
    return env.send(c, 400, {
      code: ResultCodes.INVALID_PARAMETER,
      description: 'the body must be a JSON object',
    });
  }

  /** Writes one audit entry: who (the principal), what, on what, for which merchant, from where. */
  async function audit(c: AdminContext, action: string, target: string | null, merchantId: string | null) {
    const principal: AdminPrincipal = c.var.admin;
    const who = {
      actor: principal.actor,
      actorId: principal.userId,
      role: principal.role,
      address: clientAddress(c, deps.trustProxy) ?? null,
    };
    await writeAudit(deps.store, deps.clock, who, action, target, merchantId);
  }

  /** The back office's context for one request: the principal acts, its changes audited as theirs. */
  const backoffice = (c: AdminContext): BackofficeContext => ({
    store: deps.store,
    clock: deps.clock,
    audit: (action, target, merchantId) => audit(c, action, target, merchantId),
  });

  /**
   * Runs a back-office procedure and answers its result; its failure as the admin API says it
   * (invalid: 400 with parameterErrors, not-found: 404, refused: 400 with its reason).
   */
  async function act(
    c: AdminContext,
    work: (ctx: BackofficeContext) => Promise<Response>,
  ): Promise<Response> {
    try {
      return await work(backoffice(c));
    } catch (error) {
      if (!(error instanceof BackofficeError)) throw error;
      if (error.kind === 'not-found') return notFound(c, error.what ?? 'entity');
      if (error.kind === 'invalid') return invalid(c, error.errors);
      // refused: the reason, and the field it is about when there is one
      return env.send(c, 400, {
        code: ResultCodes.INVALID_PARAMETER,
        description: error.message,
        ...(error.errors.length === 0 ? {} : { parameterErrors: [...error.errors] }),
      });
    }
  }

  /** Registers a route with the access its role needs. */
  function route(
    method: RouteSpec['method'],
    path: string,
    access: Access,
    handler: Handler<GatewayEnv & AdminEnv>,
  ) {
    registerAdminRoute({ method, path, access });
    app.on(method, path, adminRole(env, access), handler as Handler<GatewayEnv>);
  }

  /** A route before any principal: signing in. */
  function publicRoute(method: RouteSpec['method'], path: string, handler: Handler<GatewayEnv & AdminEnv>) {
    app.on(method, path, handler as Handler<GatewayEnv>);
  }

  const merchantOf = async (c: Context) => deps.store.getMerchant(c.req.param('merchantId') ?? '');
  return { env, ok, notFound, invalid, forbidden, body, audit, act, route, publicRoute, merchantOf };
}

export type AdminKit = ReturnType<typeof adminKit>;

/** A path parameter ('' when absent: the route's pattern always has it). */
export const param = (c: Context, name: string): string => c.req.param(name) ?? '';
