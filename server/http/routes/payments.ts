/**
 * /v1/payments: initial payments, referencing requests and status.
 */
import type { Hono } from 'hono';
import { createPayment } from '../../../shared/engine/operations/initial-payment';
import { referencePayment } from '../../../shared/engine/operations/referencing';
import { ResultCodes } from '../../../shared/result-codes';
import { type Admission, publicOrigin, type RouteDeps } from '../admission';

export function paymentRoutes(app: Hono, deps: RouteDeps, front: Admission): void {
  const { env } = deps;
  const { admit, invalid, visible, answer, idem, serialize, using } = front;

  app.post('/v1/payments', async (c) => {
    const ready = await admit(c, 'payment', 'payments.create');
    if (ready instanceof Response) return ready;
    return idem(c, ready, async (store) => {
      const outcome = await createPayment(
        using(store),
        { merchantId: ready.token.merchantId, channel: ready.channel },
        ready.request,
        { baseUrl: publicOrigin(c, deps) },
      );
      return outcome.kind === 'invalid' ? invalid(c, 400, outcome.errors) : answer(c, outcome.payment);
    });
  });

  app.post('/v1/payments/:id', async (c) => {
    const ready = await admit(c, 'referencing', 'payments.reference');
    if (ready instanceof Response) return ready;
    return idem(c, ready, async (store) => {
      const id = c.req.param('id');
      const referenced = await visible(ready.token, id);
      if (referenced === undefined) {
        return env.send(c, 404, {
          code: ResultCodes.REFERENCE_NOT_FOUND,
          description: 'reference id not existing',
        });
      }
      // Channel dispatching (entityId = the merchant's id): a reference goes to its payment's channel.
      const dispatched = (ready.request as { entityId?: string }).entityId === ready.token.merchantId;
      const channel = dispatched
        ? ((await front.channels.getChannel(referenced.channelId)) ?? ready.channel)
        : ready.channel;
      const caller = { merchantId: ready.token.merchantId, channel };
      const outcome = await serialize(id, () => referencePayment(using(store), caller, id, ready.request));
      if (outcome.kind === 'not-found') {
        return env.send(c, 404, {
          code: ResultCodes.REFERENCE_NOT_FOUND,
          description: 'reference id not existing',
        });
      }
      return outcome.kind === 'invalid' ? invalid(c, 400, outcome.errors) : answer(c, outcome.payment);
    });
  });

  app.get('/v1/payments/:id', async (c) => {
    const ready = await admit(c, 'entity', 'payments.get');
    if (ready instanceof Response) return ready;
    const payment = await visible(ready.token, c.req.param('id'));
    if (payment === undefined) {
      return env.send(c, 404, {
        code: ResultCodes.ENTITY_NOT_FOUND,
        description: 'No payment found for the requested id',
      });
    }
    return answer(c, payment);
  });
}
