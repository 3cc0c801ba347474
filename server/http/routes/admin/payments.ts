/**
 * A merchant's payments in the dashboard: the list (search, newest first, keyset pages over the
 * `payments_channel_created` index: server/backoffice/payments/payment-list.ts, storage/payments/list.ts) and
 * a payment's page (the payment as /v1/payments/{id} answers it, its linked transactions, its
 * 3-D Secure and risk results, its webhook deliveries, the checkout it came from, the connectors
 * its channel's routing tried: `attempts`, never in the merchant's answer). Only payments on
 * channels of this address's environment.
 */
import { paymentResponse } from '../../../../shared/engine/answers/response';
import { type Channel, environmentOf, type Payment } from '../../../../shared/engine/core/model';
import { encodeCursor, paymentRow, readListQuery } from '../../../backoffice/payments/payment-list';
import { remainingOf } from '../../../backoffice/payments/remaining';
import { deliveryView } from '../../../backoffice/webhooks/registration';
import type { RouteDeps } from '../../context';
import { type AdminKit, param } from './shared';

const DELIVERIES_SHOWN = 50;
/** PA → CP → RF → CB/CR: the deepest chain the workflow makes. */
const FAMILY_DEPTH = 4;

export function paymentRoutes(deps: RouteDeps, kit: AdminKit): void {
  const { env, ok, notFound, invalid, merchantOf, route } = kit;
  const { store } = deps;
  const ofEnvironment = (channels: readonly Channel[]) =>
    channels.filter((ch) => environmentOf(ch.mode) === deps.environment).map((ch) => ch.id);

  route('GET', '/admin/v1/merchants/:merchantId/payments', 'read', async (c) => {
    const merchant = await merchantOf(c);
    if (merchant === undefined) return notFound(c, 'merchant');
    const filters = readListQuery((name) => c.req.query(name));
    if (Array.isArray(filters)) return invalid(c, filters);
    const channelIds = ofEnvironment(await store.listChannels(merchant.id));
    const page = await store.listPaymentsPage({ ...filters, merchantId: merchant.id, channelIds });
    const last = page[page.length - 1];
    return env.send(c, 200, ok, {
      payments: page.map(paymentRow),
      next: page.length === filters.limit && last !== undefined ? encodeCursor(last) : null,
    });
  });

  /** What references a payment, and what references those (a refund of a capture of a PA …). */
  const family = async (merchantId: string, id: string): Promise<Payment[]> => {
    const out: Payment[] = [];
    let level = [id];
    for (let depth = 0; depth < FAMILY_DEPTH && level.length > 0; depth++) {
      const next = (await Promise.all(level.map((ref) => store.listReferencing(merchantId, ref)))).flat();
      out.push(...next);
      level = next.map((p) => p.id);
    }
    return out;
  };

  route('GET', '/admin/v1/merchants/:merchantId/payments/:id', 'read', async (c) => {
    const merchantId = param(c, 'merchantId');
    const payment = await store.getPayment(merchantId, param(c, 'id'));
    const channel = payment === undefined ? undefined : await store.getChannel(payment.channelId);
    if (payment === undefined || channel === undefined || environmentOf(channel.mode) !== deps.environment)
      return notFound(c, 'payment');
    const originalId = payment.referencedId ?? payment.id;
    const [original, children, deliveries, checkout, attempts] = await Promise.all([
      payment.referencedId === undefined ? undefined : store.getPayment(merchantId, payment.referencedId),
      family(merchantId, originalId),
      store.listDeliveries(merchantId, { orderKey: originalId, limit: DELIVERIES_SHOWN }),
      payment.checkoutId === undefined ? undefined : store.getCheckout(payment.checkoutId),
      store.connectorAttemptsOf(payment.id),
    ]);
    const related = [original, ...children].filter(
      (p): p is Payment => p !== undefined && p.id !== payment.id,
    );
    const { result: _result, ndc: _ndc, ...answer } = paymentResponse(payment, deps.processors);
    const response = answer as Record<string, unknown>;
    return env.send(c, 200, ok, {
      payment: {
        ...paymentRow(payment),
        referencedId: payment.referencedId ?? null,
        remaining: remainingOf(
          payment,
          children.filter((p) => p.referencedId === payment.id),
        ),
        response,
      },
      related: related.map(paymentRow),
      threeDSecure: response.threeDSecure ?? null,
      risk: response.risk ?? null,
      deliveries: deliveries.map((d) => deliveryView(d)),
      attempts: attempts.map((a) => ({ ...a, code: a.code ?? null })),
      checkout:
        checkout === undefined || checkout.merchantId !== merchantId
          ? null
          : {
              id: checkout.id,
              kind: checkout.kind,
              createdAt: checkout.createdAt.toISOString(),
              expiresAt: checkout.expiresAt.toISOString(),
              completedAt: checkout.completedAt?.toISOString() ?? null,
              resultCode: checkout.resultCode ?? null,
            },
    });
  });
}
