/**
 * The opp kind: a connector to an account on another gateway of this API family (a real OPP test
 * or live system, or another instance of this gateway), the kit's contract over the opp request
 * transformer (request.ts), the client (client.ts) and its response transformer (response.ts).
 *
 * Payments (PA, DB, CD; referenceUuid as the upstream's id of the original) go to POST
 * /v1/payments; captures, refunds, reversals and rebills to POST /v1/payments/{its id};
 * registrations to POST /v1/registrations and payments with them to POST
 * /v1/registrations/{its id}/payments.
 */
import { brandFlow } from '../../../shared/brands';
import type { Connector, ConnectorTarget } from '../../../shared/engine/core/ports';
import {
  type Answer,
  type ConnectorContract,
  type InitialOrder,
  notSupported,
  type Operation,
} from '../kit/contract';
import { forwardBody, OPP_PATHS } from './request';

/** The opp connector of one channel's credentials, over `client`. */
export function oppConnector(client: Connector, target: ConnectorTarget): ConnectorContract {
  const forward: (path: string, request: object, extra?: Record<string, string>) => Answer = (
    path,
    request,
    extra = {},
  ) => client.send(target, path, forwardBody(request, target.entityId, extra));

  const pay = (operation: Operation) => async (order: InitialOrder) => {
    // Brands paid by redirect to a provider need the shopper sent there and back, which this
    // connector does not carry yet: refused before anything is created on the other side.
    const brand = (order.request as { readonly paymentBrand?: string }).paymentBrand;
    if (order.original === undefined && brand !== undefined && brandFlow(brand) === 'redirect')
      return notSupported(operation);
    const linked = order.theirOriginalId;
    return forward(OPP_PATHS.payments, order.request, linked === undefined ? {} : { referenceUuid: linked });
  };
  const reference = (order: { readonly theirId: string; readonly request: object }) =>
    forward(OPP_PATHS.payment(order.theirId), order.request);

  return {
    authorize: pay('authorize'),
    debit: pay('debit'),
    credit: pay('credit'),
    capture: reference,
    reverse: reference,
    refund: reference,
    rebill: reference,
    register: (order) => forward(OPP_PATHS.registrations, order.request),
    payWithRegistration: (order) =>
      forward(OPP_PATHS.registrationPayments(order.theirRegistrationId), order.request),
    // Not yet through this kind (issue 32 points 1, 5, 6): answered as not supported.
    authenticate: async () => notSupported('authenticate'),
    finish: async () => notSupported('finish'),
    inquire: async () => notSupported('inquire'),
    settle: async () => notSupported('settle'),
    verifyNotification: async () => notSupported('verifyNotification'),
  };
}
