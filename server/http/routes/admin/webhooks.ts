/**
 * A merchant's webhooks (`/admin/v1/merchants/{merchantId}/webhooks`) and their delivery log
 * (`…/webhook-deliveries`, redelivery of a dead-lettered one): translators over the back office's
 * procedures (server/backoffice/webhooks/webhooks.ts), which check, store and audit.
 */
import type { Context } from 'hono';
import { DEFAULT_DELIVERIES } from '../../../../shared/contract/admin-queries';
import type { BackofficeContext } from '../../../backoffice/context';
import { requireMerchant } from '../../../backoffice/merchants/merchants';
import { deliveryView, webhookView } from '../../../backoffice/webhooks/registration';
import * as webhooks from '../../../backoffice/webhooks/webhooks';
import type { RouteDeps } from '../../context';
import { type AdminDeps, type AdminKit, param } from './shared';

/** The admin list's default length (the CLI's is shorter: a terminal's page). */
const DEFAULT_LOG = DEFAULT_DELIVERIES;

export function webhookRoutes(_deps: RouteDeps, admin: AdminDeps, kit: AdminKit): void {
  const { env, ok, notFound, body, route, act } = kit;
  const withWebhooks = (ctx: BackofficeContext): webhooks.RegistrationContext => ({
    ...ctx,
    webhooks: admin.webhooks,
    vault: admin.vault,
    ...(admin.fetch === undefined ? {} : { fetch: admin.fetch }),
    ...(admin.egress === undefined ? {} : { egress: admin.egress }),
  });

  route('POST', '/admin/v1/merchants/:merchantId/webhooks', 'write', async (c) => {
    const input = await body(c);
    if (input instanceof Response) return input;
    return act(c, async (ctx) =>
      env.send(c, 201, ok, await webhooks.addWebhook(withWebhooks(ctx), param(c, 'merchantId'), input)),
    );
  });

  route('GET', '/admin/v1/merchants/:merchantId/webhooks', 'read', (c) =>
    act(c, async (ctx) => {
      const list = await webhooks.listWebhooks(withWebhooks(ctx), param(c, 'merchantId'));
      return env.send(c, 200, ok, { webhooks: list.map(webhookView) });
    }),
  );

  route('GET', '/admin/v1/merchants/:merchantId/webhooks/:id', 'read', async (c) => {
    const webhook = await admin.webhooks.getWebhook(param(c, 'merchantId'), param(c, 'id'));
    if (webhook === undefined || webhook.deletedAt !== null) return notFound(c, 'webhook');
    return env.send(c, 200, ok, webhookView(webhook));
  });

  route('DELETE', '/admin/v1/merchants/:merchantId/webhooks/:id', 'write', (c) =>
    act(c, async (ctx) =>
      env.send(
        c,
        200,
        ok,
        await webhooks.removeWebhook(withWebhooks(ctx), param(c, 'merchantId'), param(c, 'id')),
      ),
    ),
  );

  deliveryRoutes(kit, withWebhooks);
}

function deliveryRoutes(
  kit: AdminKit,
  withWebhooks: (ctx: BackofficeContext) => webhooks.WebhookContext,
): void {
  const { env, ok, route, act } = kit;
  const query = (c: Context) => {
    const q: Record<string, string> = { limit: c.req.query('limit') ?? DEFAULT_LOG };
    for (const name of ['status', 'before', 'webhookId', 'paymentId', 'type'] as const) {
      const value = c.req.query(name);
      if (value !== undefined) q[name] = value;
    }
    return q;
  };

  route('GET', '/admin/v1/merchants/:merchantId/webhook-deliveries', 'read', (c) =>
    act(c, async (ctx) => {
      const merchantId = param(c, 'merchantId');
      const wh = withWebhooks(ctx);
      // the merchant first: an unknown merchant is 404 whatever the query says
      await requireMerchant(wh.store, merchantId);
      const asked = webhooks.parseDeliveryQuery(query(c));
      const deliveries = await webhooks.listDeliveries(wh, merchantId, asked);
      const last = deliveries[deliveries.length - 1];
      return env.send(c, 200, ok, {
        deliveries: deliveries.map((d) => deliveryView(d)),
        // the next (older) page: `before` this
        next: deliveries.length === asked.limit && last !== undefined ? String(last.seq) : null,
      });
    }),
  );

  route('GET', '/admin/v1/merchants/:merchantId/webhook-deliveries/:id', 'read', (c) =>
    act(c, async (ctx) => {
      const seq = webhooks.deliveryId(param(c, 'id'));
      return env.send(c, 200, ok, await webhooks.getDelivery(withWebhooks(ctx), param(c, 'merchantId'), seq));
    }),
  );

  route('POST', '/admin/v1/merchants/:merchantId/webhook-deliveries/:id/redeliver', 'write', (c) =>
    act(c, async (ctx) => {
      const seq = webhooks.deliveryId(param(c, 'id'));
      return env.send(c, 200, ok, await webhooks.redeliver(withWebhooks(ctx), param(c, 'merchantId'), seq));
    }),
  );
}
