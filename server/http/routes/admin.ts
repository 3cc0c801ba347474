/**
 * The operator's admin API (`/admin/v1/…`), beside the merchants' API: webhooks of a merchant,
 * their delivery log and redelivery, chargebacks, and channels (what each accepts: brands,
 * currencies, the merchant's bank account; server/channels/settings.ts, as the CLI). JSON in, the family's JSON envelope out.
 *
 * Authenticated by the operator's bearer token (GATEWAY_ADMIN_TOKEN; middleware/operator): without
 * one configured the admin API is off and says so. A merchant's access token never opens it:
 * chargebacks are booked by the acquirer's side, not by the merchant. Wrong tokens are counted per
 * client address: past the limit, 429 with Retry-After before the token is compared. The token is
 * at least 32 characters (server/mode.ts refuses shorter ones).
 */
import type { Context, Hono } from 'hono';
import { paymentResponse } from '../../../shared/engine/answers/response';
import { newId } from '../../../shared/engine/core/ids';
import type { Channel } from '../../../shared/engine/core/model';
import {
  bookChargeback,
  type ChargebackOutcome,
  reverseChargeback,
} from '../../../shared/engine/operations/chargebacks';
import { ResultCodes } from '../../../shared/result-codes';
import { applyChannelInput, channelView, checkChannelInput } from '../../channels/settings';
import type { EgressPolicy } from '../../security/egress';
import type { Vault } from '../../security/vault';
import type { DeliveryStatus, WebhookStore } from '../../storage/webhooks/model';
import { deliveryView, registerWebhook, webhookView } from '../../webhooks/registration';
import type { GatewayEnv, RouteDeps } from '../context';
import { operatorToken } from '../middleware/operator';
import { type AdminClockDeps, clockRoutes } from './admin-clock';
import { type AdminInboxDeps, inboxRoutes } from './admin-inbox';

export interface AdminDeps extends AdminClockDeps, AdminInboxDeps {
  /** The operator's token; the admin API answers 401 to everything when undefined. */
  readonly token: string | undefined;
  readonly webhooks: WebhookStore;
  readonly vault: Pick<Vault, 'encrypt'>;
  /** The HTTP client of the test notification. */
  readonly fetch?: typeof fetch;
  /** Refuses webhook URLs the gateway would not call (server/security/egress.ts). */
  readonly egress?: Pick<EgressPolicy, 'checkUrl'>;
}

const STATUSES: readonly DeliveryStatus[] = ['pending', 'delivered', 'dead'];
const MAX_LOG = 500;

export function adminRoutes(app: Hono<GatewayEnv>, deps: RouteDeps, admin: AdminDeps): void {
  app.use('/admin/*', operatorToken(deps, admin.token));
  const answers = adminAnswers(deps);
  webhookRoutes(app, deps, admin, answers);
  channelRoutes(app, deps, answers);
  deliveryRoutes(app, deps, admin, answers);
  chargebackRoutes(app, deps, answers);
  clockRoutes(app, deps, admin);
  inboxRoutes(app, deps, admin);
}

/** What the admin routes answer with, and read: the JSON body, the path's merchant. */
function adminAnswers(deps: RouteDeps) {
  const { env } = deps;
  const ok = { code: ResultCodes.SUCCESSFUL_REQUEST, description: 'successful request' };
  const notFound = (c: Context, what: string) =>
    env.send(c, 404, { code: ResultCodes.ENTITY_NOT_FOUND, description: `${what} not found` });
  const invalid = (c: Context, errors: readonly { name: string; value: string | null; message: string }[]) =>
    env.send(c, 400, {
      code: ResultCodes.INVALID_PARAMETER,
      description: 'invalid or missing parameter',
      parameterErrors: errors,
    });

  /** The JSON body, or an answer saying why there is none. */
  async function body(c: Context): Promise<Record<string, unknown> | Response> {
    const text = await c.req.text();
    if (text.length > deps.maxBodyBytes)
      return env.send(c, 413, { code: ResultCodes.INVALID_PARAMETER, description: 'request body too large' });
    if (text.trim() === '') return {};
    try {
      const parsed: unknown = JSON.parse(text);
      if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed))
        return parsed as Record<string, unknown>;
    } catch {}
    return env.send(c, 400, {
      code: ResultCodes.INVALID_PARAMETER,
      description: 'the body must be a JSON object',
    });
  }

  const merchantOf = async (c: Context) => deps.store.getMerchant(c.req.param('merchantId') ?? '');
  return { ok, notFound, invalid, body, merchantOf };
}

type AdminAnswers = ReturnType<typeof adminAnswers>;

function webhookRoutes(
  app: Hono<GatewayEnv>,
  deps: RouteDeps,
  admin: AdminDeps,
  answers: AdminAnswers,
): void {
  const { env } = deps;
  const { ok, notFound, invalid, body, merchantOf } = answers;
  // -- webhooks

  app.post('/admin/v1/merchants/:merchantId/webhooks', async (c) => {
    const input = await body(c);
    if (input instanceof Response) return input;
    const outcome = await registerWebhook(
      {
        store: deps.store,
        webhooks: admin.webhooks,
        vault: admin.vault,
        clock: deps.clock,
        ...(admin.fetch === undefined ? {} : { fetch: admin.fetch }),
        ...(admin.egress === undefined ? {} : { egress: admin.egress }),
      },
      c.req.param('merchantId'),
      input,
    );
    switch (outcome.kind) {
      case 'merchant-not-found':
        return notFound(c, 'merchant');
      case 'invalid':
        return invalid(c, outcome.errors);
      case 'unreachable':
        return env.send(c, 400, { code: ResultCodes.INVALID_PARAMETER, description: outcome.description });
      case 'registered':
        return env.send(c, 201, ok, { ...webhookView(outcome.webhook), key: outcome.key });
    }
  });

  app.get('/admin/v1/merchants/:merchantId/webhooks', async (c) => {
    if ((await merchantOf(c)) === undefined) return notFound(c, 'merchant');
    const webhooks = await admin.webhooks.listWebhooks(c.req.param('merchantId'));
    return env.send(c, 200, ok, { webhooks: webhooks.map(webhookView) });
  });

  app.get('/admin/v1/merchants/:merchantId/webhooks/:id', async (c) => {
    const webhook = await admin.webhooks.getWebhook(c.req.param('merchantId'), c.req.param('id'));
    if (webhook === undefined || webhook.deletedAt !== null) return notFound(c, 'webhook');
    return env.send(c, 200, ok, webhookView(webhook));
  });

  app.delete('/admin/v1/merchants/:merchantId/webhooks/:id', async (c) => {
    const deleted = await admin.webhooks.deleteWebhook(
      c.req.param('merchantId'),
      c.req.param('id'),
      deps.clock.now(),
    );
    if (!deleted) return notFound(c, 'webhook');
    return env.send(c, 200, ok, { id: c.req.param('id') });
  });
}

function channelRoutes(app: Hono<GatewayEnv>, deps: RouteDeps, answers: AdminAnswers): void {
  const { env } = deps;
  const { ok, notFound, invalid, body, merchantOf } = answers;
  // -- channels: what each accepts (brands, currencies), the merchant's bank account, 3-D Secure, throttle

  app.get('/admin/v1/merchants/:merchantId/channels', async (c) => {
    const merchant = await merchantOf(c);
    if (merchant === undefined) return notFound(c, 'merchant');
    const channels = await deps.store.listChannels(merchant.id);
    return env.send(c, 200, ok, { channels: channels.map(channelView) });
  });

  app.post('/admin/v1/merchants/:merchantId/channels', async (c) => {
    const merchant = await merchantOf(c);
    if (merchant === undefined) return notFound(c, 'merchant');
    const input = await body(c);
    if (input instanceof Response) return input;
    const checked = checkChannelInput(input, true);
    if (Array.isArray(checked)) return invalid(c, checked);
    const channel: Channel = {
      id: newId(),
      merchantId: merchant.id,
      name: checked.name ?? '',
      mode: checked.mode ?? 'TEST',
      settings: applyChannelInput({}, checked),
      createdAt: deps.clock.now(),
    };
    await deps.store.insertChannel(channel);
    return env.send(c, 201, ok, channelView(channel));
  });

  const channelOf = async (c: Context) => {
    const id = c.req.param('entityId') ?? '';
    return /^[0-9a-f]{32}$/.test(id) ? deps.store.getChannel(id) : undefined;
  };

  app.get('/admin/v1/channels/:entityId', async (c) => {
    const channel = await channelOf(c);
    if (channel === undefined) return notFound(c, 'channel');
    return env.send(c, 200, ok, channelView(channel));
  });

  // Only the fields given change; the others keep their values. Requests see it within seconds
  // (channel lookups are cached briefly, server/http/middleware/channel).
  const updateChannel = async (c: Context) => {
    const channel = await channelOf(c);
    if (channel === undefined) return notFound(c, 'channel');
    const input = await body(c);
    if (input instanceof Response) return input;
    const checked = checkChannelInput(input, false);
    if (Array.isArray(checked)) return invalid(c, checked);
    const settings = applyChannelInput(channel.settings, checked);
    await deps.store.updateChannelSettings(channel.id, settings);
    return env.send(c, 200, ok, channelView({ ...channel, settings }));
  };
  app.patch('/admin/v1/channels/:entityId', updateChannel);
  app.post('/admin/v1/channels/:entityId', updateChannel);
}

function deliveryRoutes(
  app: Hono<GatewayEnv>,
  deps: RouteDeps,
  admin: AdminDeps,
  answers: AdminAnswers,
): void {
  const { env } = deps;
  const { ok, notFound, invalid, merchantOf } = answers;
  // -- the delivery log

  app.get('/admin/v1/merchants/:merchantId/webhook-deliveries', async (c) => {
    if ((await merchantOf(c)) === undefined) return notFound(c, 'merchant');
    const errors: { name: string; value: string | null; message: string }[] = [];
    const status = c.req.query('status');
    if (status !== undefined && !STATUSES.includes(status as DeliveryStatus))
      errors.push({ name: 'status', value: status, message: `must be one of ${STATUSES.join(', ')}` });
    const limitText = c.req.query('limit') ?? '100';
    const limit = Number(limitText);
    if (!/^[0-9]{1,3}$/.test(limitText) || limit < 1 || limit > MAX_LOG)
      errors.push({ name: 'limit', value: limitText, message: `must be 1 to ${MAX_LOG}` });
    const before = c.req.query('before');
    if (before !== undefined && !/^[0-9]{1,15}$/.test(before))
      errors.push({ name: 'before', value: before, message: 'must be a delivery id' });
    if (errors.length > 0) return invalid(c, errors);
    const webhookId = c.req.query('webhookId');
    const deliveries = await admin.webhooks.listDeliveries(c.req.param('merchantId'), {
      limit,
      ...(status === undefined ? {} : { status: status as DeliveryStatus }),
      ...(webhookId === undefined ? {} : { webhookId }),
      ...(before === undefined ? {} : { beforeSeq: Number(before) }),
    });
    return env.send(c, 200, ok, { deliveries: deliveries.map((d) => deliveryView(d)) });
  });

  const seqOf = (c: Context) => {
    const text = c.req.param('id') ?? '';
    return /^[0-9]{1,15}$/.test(text) ? Number(text) : undefined;
  };

  app.get('/admin/v1/merchants/:merchantId/webhook-deliveries/:id', async (c) => {
    const seq = seqOf(c);
    const delivery =
      seq === undefined ? undefined : await admin.webhooks.getDelivery(c.req.param('merchantId'), seq);
    if (delivery === undefined) return notFound(c, 'delivery');
    return env.send(c, 200, ok, deliveryView(delivery, true));
  });

  app.post('/admin/v1/merchants/:merchantId/webhook-deliveries/:id/redeliver', async (c) => {
    const merchantId = c.req.param('merchantId');
    const seq = seqOf(c);
    const delivery = seq === undefined ? undefined : await admin.webhooks.getDelivery(merchantId, seq);
    if (seq === undefined || delivery === undefined) return notFound(c, 'delivery');
    if (!(await admin.webhooks.redeliver(merchantId, seq, deps.clock.now())))
      return env.send(c, 400, {
        code: ResultCodes.INVALID_PARAMETER,
        description: `delivery ${seq} is ${delivery.status}: only a dead-lettered delivery can be redelivered`,
      });
    const again = await admin.webhooks.getDelivery(merchantId, seq);
    return env.send(c, 200, ok, again === undefined ? {} : deliveryView(again));
  });
}

function chargebackRoutes(app: Hono<GatewayEnv>, deps: RouteDeps, answers: AdminAnswers): void {
  const { env } = deps;
  const { notFound, invalid, body } = answers;
  // -- chargebacks

  const answerChargeback = (c: Context, outcome: ChargebackOutcome) => {
    switch (outcome.kind) {
      case 'not-found':
        return notFound(c, 'payment');
      case 'invalid':
        return invalid(c, outcome.errors);
      case 'refused':
        return env.send(c, 400, { code: outcome.code, description: outcome.description });
      case 'booked': {
        const { result, ndc, ...payment } = paymentResponse(outcome.payment, deps.processors);
        return env.send(c, 200, result, payment, ndc);
      }
    }
  };

  app.post('/admin/v1/merchants/:merchantId/payments/:id/chargebacks', async (c) => {
    const input = await body(c);
    if (input instanceof Response) return input;
    const errors: { name: string; value: string | null; message: string }[] = [];
    const { amount, chargebackResultCode } = input;
    if (amount !== undefined && typeof amount !== 'string')
      errors.push({
        name: 'amount',
        value: String(amount),
        message: 'must be a decimal string such as "10.00"',
      });
    if (chargebackResultCode !== undefined && typeof chargebackResultCode !== 'string')
      errors.push({
        name: 'chargebackResultCode',
        value: String(chargebackResultCode),
        message: 'must be a string',
      });
    if (errors.length > 0) return invalid(c, errors);
    const outcome = await bookChargeback(deps, c.req.param('merchantId'), c.req.param('id'), {
      ...(typeof amount === 'string' ? { amount } : {}),
      ...(typeof chargebackResultCode === 'string' ? { chargebackResultCode } : {}),
    });
    return answerChargeback(c, outcome);
  });

  app.post('/admin/v1/merchants/:merchantId/payments/:id/chargeback-reversals', async (c) =>
    answerChargeback(c, await reverseChargeback(deps, c.req.param('merchantId'), c.req.param('id'))),
  );
}
