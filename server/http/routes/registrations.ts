/**
 * /v1/registrations: store payment details, read and delete them, and pay with them.
 */
import type { Hono } from 'hono';
import { type AccessToken, environmentOf, type Registration } from '../../../shared/engine/core/model';
import {
  createRegistration,
  payWithRegistration,
  registrationResponse,
} from '../../../shared/engine/operations/registrations';
import { describe, ResultCodes } from '../../../shared/result-codes';
import { type Admission, type RouteDeps, statusOf } from '../admission';

export function registrationRoutes(app: Hono, deps: RouteDeps, front: Admission): void {
  const { env } = deps;
  const { admit, invalid, answer, idem, using } = front;
  const refused = (code: string) => ({ code, description: describe(code) ?? '' });
  /** A registration of this address's environment (a live one is unknown on the test address, and the reverse). */
  const ours = async (_token: AccessToken, registration: Registration): Promise<boolean> => {
    const channel = await front.channels.getChannel(registration.channelId);
    return channel !== undefined && environmentOf(channel.mode) === deps.environment;
  };

  app.post('/v1/registrations', async (c) => {
    const ready = await admit(c, 'registration', 'registrations.create');
    if (ready instanceof Response) return ready;
    return idem(c, ready, async () => {
      const caller = { merchantId: ready.token.merchantId, channel: ready.channel };
      const outcome = await createRegistration(deps, caller, ready.request);
      if (outcome.kind === 'invalid') return invalid(c, 400, outcome.errors);
      if (outcome.kind === 'refused') return env.send(c, 400, refused(outcome.code));
      return env.send(
        c,
        statusOf(outcome.code),
        refused(outcome.code),
        registrationResponse(outcome.registration),
        outcome.ndc,
      );
    });
  });

  app.get('/v1/registrations/:id', async (c) => {
    const ready = await admit(c, 'entity', 'registrations.get');
    if (ready instanceof Response) return ready;
    const registration = await deps.store.getRegistration(ready.token.merchantId, c.req.param('id'));
    if (
      registration === undefined ||
      registration.deletedAt !== null ||
      !(await ours(ready.token, registration))
    ) {
      return env.send(c, 404, refused(ResultCodes.REGISTRATION_NOT_FOUND));
    }
    return env.send(c, 200, refused(ResultCodes.SUCCESSFUL_REQUEST), registrationResponse(registration));
  });

  app.delete('/v1/registrations/:id', async (c) => {
    const ready = await admit(c, 'entity', 'registrations.delete');
    if (ready instanceof Response) return ready;
    const id = c.req.param('id');
    const registration = await deps.store.getRegistration(ready.token.merchantId, id);
    if (registration === undefined || !(await ours(ready.token, registration)))
      return env.send(c, 404, refused(ResultCodes.REGISTRATION_NOT_FOUND));
    const deleted = await deps.store.deleteRegistration(ready.token.merchantId, id, deps.clock.now());
    if (!deleted) return env.send(c, 400, refused(ResultCodes.REGISTRATION_DEREGISTERED));
    return env.send(c, 200, refused(ResultCodes.SUCCESSFUL_REQUEST), { id });
  });

  app.post('/v1/registrations/:id/payments', async (c) => {
    const ready = await admit(c, 'registrationPayment', 'registrations.pay');
    if (ready instanceof Response) return ready;
    return idem(c, ready, async (store) => {
      const caller = { merchantId: ready.token.merchantId, channel: ready.channel };
      const outcome = await payWithRegistration(using(store), caller, c.req.param('id'), ready.request);
      if (outcome.kind === 'invalid') return invalid(c, 400, outcome.errors);
      if (outcome.kind === 'refused') return env.send(c, 400, refused(outcome.code));
      return answer(c, outcome.payment);
    });
  });
}
