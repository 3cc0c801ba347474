/**
 * /v1/registrations: store payment details, read and delete them, and pay with them.
 */
import type { Hono } from 'hono';
import { withIntegrity } from '../../../shared/engine/answers/echo';
import { registrationResponse } from '../../../shared/engine/answers/registration';
import type { Registration } from '../../../shared/engine/core/model';
import { registrationAnswerOf } from '../../../shared/engine/core/processor';
import {
  createRegistration,
  deregister,
  payWithRegistration,
} from '../../../shared/engine/operations/registrations';
import { describe, ResultCodes } from '../../../shared/result-codes';
import type { GatewayEnv, RouteDeps } from '../context';
import type { GatewayMiddleware } from '../middleware';
import { inEnvironment } from '../middleware/channel';
import { statusOf } from '../middleware/envelope';
import type { IntegrityDeps } from './payments';

export function registrationRoutes(
  app: Hono<GatewayEnv>,
  deps: RouteDeps & IntegrityDeps,
  mw: GatewayMiddleware,
): void {
  const { env } = deps;
  const { answer, invalid, using } = mw;
  const refused = (code: string) => ({ code, description: describe(code) ?? '' });
  /** A registration of this address's environment (a live one is unknown on the test address, and the reverse). */
  const ours = async (registration: Registration): Promise<boolean> => {
    return inEnvironment(await mw.channels.getChannel(registration.channelId), deps.environment);
  };

  app.post(
    '/v1/registrations',
    mw.body,
    mw.credentials,
    mw.parse('registration'),
    mw.channel,
    mw.throttle('registrations.create'),
    mw.idempotency(),
    async (c) => {
      const caller = { merchantId: c.var.token.merchantId, channel: c.var.channel };
      const outcome = await createRegistration(deps, caller, c.var.request);
      if (outcome.kind === 'invalid') return invalid(c, 400, outcome.errors);
      if (outcome.kind === 'refused') return env.send(c, 400, refused(outcome.code));
      return env.send(
        c,
        statusOf(outcome.code),
        refused(outcome.code),
        registrationResponse(outcome.registration),
        outcome.ndc,
      );
    },
  );

  app.get(
    '/v1/registrations/:id',
    mw.body,
    mw.credentials,
    mw.parse('entity'),
    mw.channel,
    mw.throttle('registrations.get'),
    async (c) => {
      const registration = await deps.store.getRegistration(c.var.token.merchantId, c.req.param('id'));
      if (registration === undefined || registration.deletedAt !== null || !(await ours(registration))) {
        return env.send(c, 404, refused(ResultCodes.REGISTRATION_NOT_FOUND));
      }
      // answered like a payment of its mode, as its creation was (decisions)
      const { code } = registrationAnswerOf(registration);
      return env.send(c, 200, refused(code), registrationResponse(registration));
    },
  );

  app.delete(
    '/v1/registrations/:id',
    mw.body,
    mw.credentials,
    mw.parse('entity'),
    mw.channel,
    mw.throttle('registrations.delete'),
    async (c) => {
      const merchantId = c.var.token.merchantId;
      const id = c.req.param('id');
      const registration = await deps.store.getRegistration(merchantId, id);
      if (registration === undefined || !(await ours(registration)))
        return env.send(c, 404, refused(ResultCodes.REGISTRATION_NOT_FOUND));
      const deleted = await deregister(deps, merchantId, id);
      if (!deleted) return env.send(c, 400, refused(ResultCodes.REGISTRATION_DEREGISTERED));
      return env.send(c, 200, refused(registrationAnswerOf(registration).code), { id });
    },
  );

  app.post(
    '/v1/registrations/:id/payments',
    mw.body,
    mw.credentials,
    mw.parse('registrationPayment'),
    mw.channel,
    mw.throttle('registrations.pay'),
    mw.idempotency(),
    async (c) => {
      const caller = { merchantId: c.var.token.merchantId, channel: c.var.channel };
      const request = withIntegrity(c.var.request, deps.integrity);
      const outcome = await payWithRegistration(using(c.var.store), caller, c.req.param('id'), request);
      if (outcome.kind === 'invalid') return invalid(c, 400, outcome.errors);
      if (outcome.kind === 'refused') return env.send(c, 400, refused(outcome.code));
      return answer(c, outcome.payment);
    },
  );
}
