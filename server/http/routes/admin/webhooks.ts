/**
 * A merchant's webhooks (`/admin/v1/merchants/{merchantId}/webhooks`) and their delivery log
 * (`…/webhook-deliveries`, redelivery of a dead-lettered one): registration sends the test
 * notification first (server/backoffice/webhooks/registration.ts).
 */
import type { Context } from 'hono';
import { ResultCodes } from '../../../../shared/result-codes';
import { deliveryView, registerWebhook, webhookView } from '../../../backoffice/webhooks/registration';
import type { DeliveryStatus } from '../../../storage/webhooks/model';
import type { RouteDeps } from '../../context';
import { type AdminDeps, type AdminKit, param } from './shared';

const STATUSES: readonly DeliveryStatus[] = ['pending', 'delivered', 'dead'];
const MAX_LOG = 500;

export function webhookRoutes(deps: RouteDeps, admin: AdminDeps, kit: AdminKit): void {
  const { env, ok, notFound, invalid, body, merchantOf, route, audit } = kit;

  route('POST', '/admin/v1/merchants/:merchantId/webhooks', 'write', async (c) => {
    const input = await body(c);
    if (input instanceof Response) return input;
    const merchantId = param(c, 'merchantId');
    const outcome = await registerWebhook(
      {
        store: deps.store,
        webhooks: admin.webhooks,
        vault: admin.vault,
        clock: deps.clock,
        ...(admin.fetch === undefined ? {} : { fetch: admin.fetch }),
        ...(admin.egress === undefined ? {} : { egress: admin.egress }),
      },
      merchantId,
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
        await audit(c, 'webhook.create', outcome.webhook.id, merchantId);
        return env.send(c, 201, ok, { ...webhookView(outcome.webhook), key: outcome.key });
    }
  });

  route('GET', '/admin/v1/merchants/:merchantId/webhooks', 'read', async (c) => {
    if ((await merchantOf(c)) === undefined) return notFound(c, 'merchant');
    const webhooks = await admin.webhooks.listWebhooks(param(c, 'merchantId'));
    return env.send(c, 200, ok, { webhooks: webhooks.map(webhookView) });
  });

  route('GET', '/admin/v1/merchants/:merchantId/webhooks/:id', 'read', async (c) => {
    const webhook = await admin.webhooks.getWebhook(param(c, 'merchantId'), param(c, 'id'));
    if (webhook === undefined || webhook.deletedAt !== null) return notFound(c, 'webhook');
    return env.send(c, 200, ok, webhookView(webhook));
  });

  route('DELETE', '/admin/v1/merchants/:merchantId/webhooks/:id', 'write', async (c) => {
    const merchantId = param(c, 'merchantId');
    const deleted = await admin.webhooks.deleteWebhook(merchantId, param(c, 'id'), deps.clock.now());
    if (!deleted) return notFound(c, 'webhook');
    await audit(c, 'webhook.delete', param(c, 'id'), merchantId);
    return env.send(c, 200, ok, { id: param(c, 'id') });
  });

  deliveryRoutes(admin, kit, deps);
}

function deliveryRoutes(admin: AdminDeps, kit: AdminKit, deps: RouteDeps): void {
  const { env, ok, notFound, invalid, merchantOf, route, audit } = kit;

  route('GET', '/admin/v1/merchants/:merchantId/webhook-deliveries', 'read', async (c) => {
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
    const webhookId = c.req.query('webhookId');
    const paymentId = c.req.query('paymentId');
    if (paymentId !== undefined && !/^[0-9a-f]{32}$/.test(paymentId))
      errors.push({ name: 'paymentId', value: paymentId, message: 'must be a payment id' });
    if (errors.length > 0) return invalid(c, errors);
    // a payment's deliveries are ordered under its original's id (a capture's under its PA's)
    const payment =
      paymentId === undefined ? undefined : await deps.store.getPayment(param(c, 'merchantId'), paymentId);
    const deliveries = await admin.webhooks.listDeliveries(param(c, 'merchantId'), {
      limit,
      ...(status === undefined ? {} : { status: status as DeliveryStatus }),
      ...(webhookId === undefined ? {} : { webhookId }),
      ...(before === undefined ? {} : { beforeSeq: Number(before) }),
      ...(paymentId === undefined ? {} : { orderKey: payment?.referencedId ?? paymentId }),
    });
    return env.send(c, 200, ok, { deliveries: deliveries.map((d) => deliveryView(d)) });
  });

  const seqOf = (c: Context) => {
    const text = c.req.param('id') ?? '';
    return /^[0-9]{1,15}$/.test(text) ? Number(text) : undefined;
  };

  route('GET', '/admin/v1/merchants/:merchantId/webhook-deliveries/:id', 'read', async (c) => {
    const seq = seqOf(c);
    const delivery =
      seq === undefined ? undefined : await admin.webhooks.getDelivery(param(c, 'merchantId'), seq);
    if (delivery === undefined) return notFound(c, 'delivery');
    return env.send(c, 200, ok, deliveryView(delivery, true));
  });

  route('POST', '/admin/v1/merchants/:merchantId/webhook-deliveries/:id/redeliver', 'write', async (c) => {
    const merchantId = param(c, 'merchantId');
    const seq = seqOf(c);
    const delivery = seq === undefined ? undefined : await admin.webhooks.getDelivery(merchantId, seq);
    if (seq === undefined || delivery === undefined) return notFound(c, 'delivery');
    if (!(await admin.webhooks.redeliver(merchantId, seq, deps.clock.now())))
      return env.send(c, 400, {
        code: ResultCodes.INVALID_PARAMETER,
        description: `delivery ${seq} is ${delivery.status}: only a dead-lettered delivery can be redelivered`,
      });
    await audit(c, 'webhook-delivery.redeliver', String(seq), merchantId);
    const again = await admin.webhooks.getDelivery(merchantId, seq);
    return env.send(c, 200, ok, again === undefined ? {} : deliveryView(again));
  });
}
